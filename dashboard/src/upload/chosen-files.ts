/** The files the creator has chosen so far: adding, de-duplicating and reading dropped folders. */
import { UPLOAD_LIMITS } from '@dropsite/shared';

export interface TChosenFile {
  id: string;
  file: File;
}

export interface TAddFilesResult {
  files: TChosenFile[];
  /** Files left out because the site would have more than the server accepts. */
  overLimit: number;
}

// Files operating systems leave in folders; nobody means to deliver them.
const SYSTEM_FILE = /^(?:\.DS_Store|Thumbs\.db|desktop\.ini|\._.*)$/i;

const fileKey = (f: File) => `${f.name}\u0000${f.size}\u0000${f.lastModified}`;

/** Appends new files in the order given, skipping system files and files already in the list. */
export function addFiles(current: readonly TChosenFile[], incoming: Iterable<File>, createId: () => string, maxFiles: number = UPLOAD_LIMITS.maxFilesPerSite): TAddFilesResult {
  const seen = new Set(current.map((c) => fileKey(c.file)));
  const files = [...current];
  let overLimit = 0;
  for (const file of incoming) {
    if (SYSTEM_FILE.test(file.name)) continue;
    const key = fileKey(file);
    if (seen.has(key)) continue;
    if (files.length >= maxFiles) {
      overLimit += 1;
      continue;
    }
    seen.add(key);
    files.push({ id: createId(), file });
  }
  return { files, overLimit };
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
 * folders). Everything is taken from the event synchronously: the browser empties the
 * DataTransfer once the drop handler returns.
 */
export function readDroppedFiles(dataTransfer: DataTransfer): Promise<File[]> {
  const droppedFiles = Array.from(dataTransfer.files);
  const folders: FileSystemDirectoryEntry[] = [];
  for (const item of Array.from(dataTransfer.items)) {
    if (item.kind !== 'file' || typeof item.webkitGetAsEntry !== 'function') continue;
    const entry = item.webkitGetAsEntry();
    if (entry && isDirectoryEntry(entry)) folders.push(entry);
  }
  if (folders.length === 0) return Promise.resolve(droppedFiles);
  // A folder also shows up in `files` as an empty, typeless File with the folder's name.
  const folderNames = new Set(folders.map((f) => f.name));
  const plainFiles = droppedFiles.filter((f) => !folderNames.has(f.name));
  return Promise.all(folders.map(readEntry)).then((lists) => [...plainFiles, ...lists.flat()]);
}

async function readEntry(entry: FileSystemEntry): Promise<File[]> {
  if (isFileEntry(entry))
    return new Promise((resolve) =>
      entry.file(
        (f) => resolve([f]),
        () => resolve([]),
      ),
    );
  if (!isDirectoryEntry(entry)) return [];
  const children = await readAllChildren(entry.createReader());
  const nested = await Promise.all(children.map(readEntry));
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
