import { describe, expect, it } from 'vitest';
import { pickedFromInput, readDroppedFiles, topFolderOf } from './chosen-files.ts';

const file = (name: string) => new File(['x'], name, { lastModified: 1 });

/** A file as 'Choose Folder' gives it: with its path inside the chosen folder. */
function fromFolderInput(relativePath: string): File {
  const f = file(relativePath.split('/').pop()!);
  Object.defineProperty(f, 'webkitRelativePath', { value: relativePath });
  return f;
}

type TFakeEntry = FileSystemFileEntry | FileSystemDirectoryEntry;

function fileEntry(name: string): FileSystemFileEntry {
  return { name, isFile: true, isDirectory: false, file: (ok: (f: File) => void) => ok(file(name)) } as unknown as FileSystemFileEntry;
}

/** A folder whose reader answers in batches of `batch` entries, then an empty list (as browsers do). */
function folderEntry(name: string, children: TFakeEntry[], batch = 2): FileSystemDirectoryEntry {
  return {
    name,
    isFile: false,
    isDirectory: true,
    createReader: () => {
      let next = 0;
      return {
        readEntries: (ok: (entries: FileSystemEntry[]) => void) => {
          const slice = children.slice(next, next + batch);
          next += batch;
          queueMicrotask(() => ok(slice));
        },
      };
    },
  } as unknown as FileSystemDirectoryEntry;
}

/** A drop of top-level entries: plain files also come in `files`, folders as empty placeholder Files. */
function drop(entries: TFakeEntry[]): Pick<DataTransfer, 'files' | 'items'> {
  return {
    files: entries.map((e) => file(e.name)) as unknown as FileList,
    items: entries.map((e) => ({ kind: 'file', webkitGetAsEntry: () => e })) as unknown as DataTransferItemList,
  };
}

const summary = (picked: Array<{ file: File; group: string | null }>) => picked.map((p) => `${p.group ?? '-'}:${p.file.name}`).sort();

describe('files picked with Choose Folder', () => {
  it('groups each file by the folder that directly holds it', () => {
    const picked = pickedFromInput([fromFolderInput('Wedding/cover.jpg'), fromFolderInput('Wedding/Portraits/anna.jpg'), fromFolderInput('Wedding/Ceremony/Rings/r1.jpg')]);
    expect(summary(picked)).toEqual(['Portraits:anna.jpg', 'Rings:r1.jpg', 'Wedding:cover.jpg']);
    expect(picked.map((p) => p.folderPath)).toEqual(['Wedding', 'Wedding/Portraits', 'Wedding/Ceremony/Rings']);
    expect(picked.map(topFolderOf)).toEqual(['Wedding', 'Wedding', 'Wedding']);
  });

  it('skips hidden and system files, and files in hidden folders', () => {
    const picked = pickedFromInput([
      fromFolderInput('Shoot/.DS_Store'),
      fromFolderInput('Shoot/Black/Thumbs.db'),
      fromFolderInput('Shoot/Black/._tee.jpg'),
      fromFolderInput('Shoot/.git/config'),
      fromFolderInput('Shoot/Black/.hidden.jpg'),
      fromFolderInput('Shoot/Black/tee.jpg'),
    ]);
    expect(summary(picked)).toEqual(['Black:tee.jpg']);
  });

  it('gives files chosen one by one no group', () => {
    expect(summary(pickedFromInput([file('a.jpg'), file('b.pdf')]))).toEqual(['-:a.jpg', '-:b.pdf']);
  });
});

describe('a dropped folder', () => {
  it('is read to the end in batches, each file grouped by its own folder, top-level files without a group', async () => {
    const black = folderEntry('Black', [fileEntry('tee-1.jpg'), fileEntry('tee-2.jpg'), fileEntry('tee-3.jpg'), fileEntry('tee-4.jpg'), fileEntry('tee-5.jpg')]);
    const shoot = folderEntry('Shoot', [fileEntry('cover.jpg'), black, folderEntry('White', [fileEntry('tee.jpg')])]);
    const picked = await readDroppedFiles(drop([fileEntry('brief.pdf'), shoot]));
    expect(summary(picked)).toEqual(['-:brief.pdf', 'Shoot:cover.jpg', 'White:tee.jpg', ...[1, 2, 3, 4, 5].map((i) => `Black:tee-${i}.jpg`)].sort());
    const folderOf = (name: string) => picked.find((p) => p.file.name === name);
    expect(folderOf('tee.jpg')?.folderPath).toBe('Shoot/White');
    expect(topFolderOf(folderOf('tee.jpg')!)).toBe('Shoot');
    expect(topFolderOf(folderOf('brief.pdf')!)).toBeNull();
  });

  it('leaves out hidden and system files and hidden folders inside it', async () => {
    const folder = folderEntry('Natural', [
      fileEntry('.DS_Store'),
      fileEntry('Thumbs.db'),
      fileEntry('desktop.ini'),
      fileEntry('.secret.jpg'),
      folderEntry('.git', [fileEntry('HEAD')]),
      fileEntry('linen.jpg'),
    ]);
    expect(summary(await readDroppedFiles(drop([folder])))).toEqual(['Natural:linen.jpg']);
  });

  it('takes dropped files alone as they are, without a group', async () => {
    expect(summary(await readDroppedFiles(drop([fileEntry('a.jpg'), fileEntry('b.jpg')])))).toEqual(['-:a.jpg', '-:b.jpg']);
  });
});
