/** The files the creator has chosen so far: adding, spotting files added twice and reading dropped or chosen folders. */
import { UPLOAD_LIMITS, groupFromRelativePath } from '@dropsite/shared';

/** A file as picked: its group is the folder that directly held it (null for a file at the top of the drop). */
export interface TPickedFile {
  file: File;
  group: string | null;
  /** The folders from the top of the drop or chosen folder down to the file ('Shoot/Portraits'); absent for a loose file. */
  folderPath?: string;
}

export interface TChosenFile extends TPickedFile {
  id: string;
}

export interface TAddFilesResult {
  files: TChosenFile[];
  /** Files left out because the site would have more than the server accepts. */
  overLimit: number;
}

// Files operating systems leave in folders; nobody means to deliver them.
const SYSTEM_FILE = /^(?:\.DS_Store|Thumbs\.db|desktop\.ini|\._.*)$/i;

// The same name in two folders ('Black/tee.jpg', 'White/tee.jpg') is two files of the site; the same
// name and size in the same place is one file added twice.
const duplicateKey = ({ file, group, folderPath }: TPickedFile) => `${folderPath ?? group ?? ''}\u0000${file.name}\u0000${file.size}`;

/** The top folder a file was chosen or dropped in ('Harper Wedding' for 'Harper Wedding/Ceremony'), or null for a loose file. */
export function topFolderOf(picked: TPickedFile): string | null {
  return picked.folderPath ? (picked.folderPath.split('/')[0] ?? null) : null;
}

/**
 * The files added twice: each later copy of a file already in the list (same name and size, in the
 * same folder), mapped to the id of the first one. Files of the same name in different folders are not copies.
 */
export function findDuplicates(files: readonly TChosenFile[]): Map<string, string> {
  const first = new Map<string, string>();
  const duplicates = new Map<string, string>();
  for (const chosen of files) {
    const key = duplicateKey(chosen);
    const original = first.get(key);
    if (original === undefined) first.set(key, chosen.id);
    else duplicates.set(chosen.id, original);
  }
  return duplicates;
}

/** Hidden files and folders inside a folder ('.DS_Store', '.git', '._IMG_1.jpg') and the system files operating systems leave there. */
function isHiddenName(name: string): boolean {
  return name.startsWith('.') || SYSTEM_FILE.test(name);
}

/** Appends new files in the order given, skipping system files; a file added twice stays, for the list to flag (see findDuplicates). */
export function addFiles(
  current: readonly TChosenFile[],
  incoming: Iterable<TPickedFile>,
  createId: () => string,
  maxFiles: number = UPLOAD_LIMITS.maxFilesPerSite,
): TAddFilesResult {
  const files = [...current];
  let overLimit = 0;
  for (const picked of incoming) {
    if (SYSTEM_FILE.test(picked.file.name)) continue;
    if (files.length >= maxFiles) {
      overLimit += 1;
      continue;
    }
    files.push({ id: createId(), ...picked });
  }
  return { files, overLimit };
}

/**
 * The files of a file input. From 'Choose Folder' (webkitdirectory) each file has its path inside the
 * chosen folder ('Shoot/Portraits/anna.jpg'): its group is the folder that holds it, and files inside
 * hidden folders or hidden themselves are left out. Plain picks have no path and no group.
 */
export function pickedFromInput(chosen: Iterable<File>): TPickedFile[] {
  const picked: TPickedFile[] = [];
  for (const file of chosen) {
    const path = file.webkitRelativePath ?? '';
    if (path === '') {
      picked.push({ file, group: null });
      continue;
    }
    const parts = path.split('/').filter((p) => p !== '');
    // The chosen folder itself (the first part) may be named anything; what is inside it may not be hidden.
    if (parts.slice(1).some(isHiddenName)) continue;
    picked.push({ file, group: groupFromRelativePath(path), folderPath: parts.slice(0, -1).join('/') });
  }
  return picked;
}

export function totalBytes(files: readonly TChosenFile[]): number {
  return files.reduce((sum, c) => sum + c.file.size, 0);
}

/** True while a drag carries files (not text or a link from the page). */
export function isFileDrag(dataTransfer: DataTransfer | null): boolean {
  return dataTransfer !== null && Array.from(dataTransfer.types).includes('Files');
}

/**
 * The files of a drop, with dropped folders read recursively (photographers drop whole shoot
 * folders); each file's group is the folder that directly holds it. Hidden files and folders inside a
 * dropped folder are left out. Everything is taken from the event synchronously: the browser empties
 * the DataTransfer once the drop handler returns.
 */
export function readDroppedFiles(dataTransfer: Pick<DataTransfer, 'files' | 'items'>): Promise<TPickedFile[]> {
  const droppedFiles = Array.from(dataTransfer.files);
  const folders: FileSystemDirectoryEntry[] = [];
  for (const item of Array.from(dataTransfer.items)) {
    if (item.kind !== 'file' || typeof item.webkitGetAsEntry !== 'function') continue;
    const entry = item.webkitGetAsEntry();
    if (entry && isDirectoryEntry(entry)) folders.push(entry);
  }
  const atTop = (files: File[]) => files.map((file) => ({ file, group: null }));
  if (folders.length === 0) return Promise.resolve(atTop(droppedFiles));
  // A folder also shows up in `files` as an empty, typeless File with the folder's name.
  const folderNames = new Set(folders.map((f) => f.name));
  const plainFiles = droppedFiles.filter((f) => !folderNames.has(f.name));
  return Promise.all(folders.map((folder) => readFolder(folder, folder.name))).then((lists) => [...atTop(plainFiles), ...lists.flat()]);
}

/** Every file under a folder, `path` being the folder's path from the top of the drop. */
async function readFolder(folder: FileSystemDirectoryEntry, path: string): Promise<TPickedFile[]> {
  const children = (await readAllChildren(folder.createReader())).filter((child) => !isHiddenName(child.name));
  const nested = await Promise.all(
    children.map(async (child): Promise<TPickedFile[]> => {
      if (isDirectoryEntry(child)) return readFolder(child, `${path}/${child.name}`);
      if (!isFileEntry(child)) return [];
      const file = await new Promise<File | null>((resolve) =>
        child.file(
          (f) => resolve(f),
          () => resolve(null),
        ),
      );
      return file ? [{ file, group: groupFromRelativePath(`${path}/${child.name}`), folderPath: path }] : [];
    }),
  );
  return nested.flat();
}

// readEntries answers in batches (about 100 in Chromium) until it answers an empty list.
async function readAllChildren(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve) => reader.readEntries(resolve, () => resolve([])));
    if (batch.length === 0) return all.sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }));
    all.push(...batch);
  }
}

const isFileEntry = (e: FileSystemEntry): e is FileSystemFileEntry => e.isFile;
const isDirectoryEntry = (e: FileSystemEntry): e is FileSystemDirectoryEntry => e.isDirectory;
