import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { uploadKey } from '@dropsite/shared';
import { ARCHIVE_TOO_LARGE, ARCHIVE_UNREADABLE, ARCHIVE_UNSAFE, openZipArchive, safeEntryPath } from './zip-archive.ts';
import { deriveZipArchive } from './derive-archive.ts';
import { PreviewUnavailableError } from './derive-cache.ts';
import { readAll } from '@dropsite/testkit/bytes';
import { MemoryStorage } from '@dropsite/testkit/builder/memory-storage';
import { makeZip, type TZipFixtureEntry } from '@dropsite/testkit/builder/media-fixtures';

async function store(entries: TZipFixtureEntry[]) {
  const storage = new MemoryStorage();
  const bytes = makeZip(entries);
  const key = uploadKey('zip-fixture', 'archive');
  await storage.put(key, bytes);
  return { storage, bytes, key };
}

/** Records the byte ranges read from one key. */
function trackRanges(storage: MemoryStorage, key: string): Array<{ start: number; end: number }> {
  const ranges: Array<{ start: number; end: number }> = [];
  const get = storage.get.bind(storage);
  storage.get = (k, range) => {
    if (k === key) ranges.push(range ?? { start: 0, end: Number.MAX_SAFE_INTEGER });
    return get(k, range);
  };
  return ranges;
}

const bytesRead = (ranges: Array<{ start: number; end: number }>) => ranges.reduce((sum, r) => sum + (r.end - r.start + 1), 0);

async function refusal(promise: Promise<unknown>): Promise<PreviewUnavailableError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PreviewUnavailableError);
  return error as PreviewUnavailableError;
}

const report = Buffer.from('Quarterly numbers\n'.repeat(400));
const photo = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 251));

describe('openZipArchive', () => {
  it('lists folders and files with sizes, compressed sizes, dates, file types, totals and ratio', async () => {
    const { storage, key, bytes } = await store([
      { name: 'docs/', modified: new Date(Date.UTC(2024, 5, 1, 8, 0, 0)) },
      { name: 'docs/report.txt', data: report },
      { name: 'docs/img/photo.jpg', data: photo, method: 'store' },
      { name: 'readme.md', data: '# Hello\n' },
    ]);
    const archive = await openZipArchive(storage, key, bytes.length);
    const { summary } = archive;
    archive.close();

    expect(summary.format).toBe('zip');
    expect(summary.totalFiles).toBe(3);
    expect(summary.totalFolders).toBe(2); // docs (explicit) and docs/img (implied)
    expect(summary.size).toBe(report.length + photo.length + 8);
    const packedReport = deflateRawSync(report).length;
    expect(summary.compressedSize).toBe(packedReport + photo.length + deflateRawSync(Buffer.from('# Hello\n')).length);
    expect(summary.ratio).toBeCloseTo(summary.compressedSize / summary.size, 3);
    expect(summary.truncated).toBe(false);
    expect(summary.skippedEntries).toBeUndefined();

    // Folders first, then files; folders carry the sums of what they hold.
    const [docs, readme] = summary.entries;
    expect(docs).toMatchObject({ name: 'docs', path: 'docs', type: 'folder', size: report.length + photo.length, modified: '2024-06-01T08:00:00.000Z' });
    expect(readme).toMatchObject({ name: 'readme.md', path: 'readme.md', type: 'file', size: 8, fileType: 'document', modified: '2025-01-15T09:30:00.000Z' });
    const [img, reportEntry] = docs!.children!;
    expect(img).toMatchObject({ name: 'img', path: 'docs/img', type: 'folder', size: photo.length });
    expect(img!.children![0]).toMatchObject({ name: 'photo.jpg', path: 'docs/img/photo.jpg', type: 'file', size: photo.length, compressedSize: photo.length, fileType: 'image' });
    expect(reportEntry).toMatchObject({ name: 'report.txt', type: 'file', size: report.length, compressedSize: packedReport });
  });

  it('extracts entries byte-identical, stored and deflated', async () => {
    const { storage, key, bytes } = await store([
      { name: 'a/report.txt', data: report },
      { name: 'photo.jpg', data: photo, method: 'store' },
    ]);
    const archive = await openZipArchive(storage, key, bytes.length);
    expect((await readAll(await archive.openEntry('a/report.txt'))).equals(report)).toBe(true);
    expect((await readAll(await archive.openEntry('photo.jpg'))).equals(photo)).toBe(true);
    await expect(archive.openEntry('../photo.jpg')).rejects.toThrow();
    await expect(archive.openEntry('a')).rejects.toThrow();
    archive.close();
  });

  it('leaves out traversal, absolute, backslash and symlink entries, and they cannot be extracted', async () => {
    const { storage, key, bytes } = await store([
      { name: '../../etc/evil.sh', data: 'rm -rf /' },
      { name: '/etc/passwd', data: 'root' },
      { name: 'C:/Windows/evil.dll', data: 'x' },
      { name: 'dir\\..\\evil.txt', data: 'x' },
      { name: 'link-to-root', data: '/', mode: 0o120777 },
      { name: 'safe/ok.txt', data: 'fine' },
      { name: 'safe/./ok2.txt', data: 'fine too' },
    ]);
    const archive = await openZipArchive(storage, key, bytes.length);
    expect(archive.summary.skippedEntries).toBe(5);
    expect(archive.summary.totalFiles).toBe(2);
    expect([...archive.files.keys()].sort()).toEqual(['safe/ok.txt', 'safe/ok2.txt']);
    const names = JSON.stringify(archive.summary.entries);
    expect(names).not.toContain('evil');
    expect(names).not.toContain('link-to-root');
    for (const path of ['../../etc/evil.sh', 'etc/evil.sh', '/etc/passwd', 'link-to-root']) await expect(archive.openEntry(path)).rejects.toThrow();
    archive.close();
  });

  it('refuses a zip bomb by its declared size without inflating anything', async () => {
    // Incompressible data, so each claim (just under 4 GiB) stays within what deflate could produce: only the total gives it away.
    const noise = randomBytes(4 * 1024 * 1024);
    const { storage, key, bytes } = await store(['a.bin', 'b.bin', 'c.bin'].map((name) => ({ name, data: noise, declaredSize: 4 * 1024 ** 3 - 1 })));
    const ranges = trackRanges(storage, key);
    const error = await refusal(openZipArchive(storage, key, bytes.length));
    expect(error.message).toBe(ARCHIVE_TOO_LARGE);
    expect(error.final).toBe(true);
    expect(bytesRead(ranges)).toBeLessThan(300 * 1024); // the end of the file only
    expect(bytes.length).toBeGreaterThan(12 * 1024 * 1024);
  });

  it('refuses entries claiming more than deflate can produce', async () => {
    const { storage, key, bytes } = await store([{ name: 'bomb.bin', data: 'tiny', declaredSize: 500 * 1024 * 1024 }]);
    expect((await refusal(openZipArchive(storage, key, bytes.length))).message).toBe(ARCHIVE_UNSAFE);
  });

  it('refuses overlapping entries (the overlapped zip bomb)', async () => {
    const kernel = Buffer.alloc(200_000, 0x61);
    const { storage, key, bytes } = await store([
      { name: 'kernel.txt', data: kernel },
      { name: 'copy-1.txt', sameDataAs: 0, declaredSize: kernel.length },
      { name: 'copy-2.txt', sameDataAs: 0, declaredSize: kernel.length },
    ]);
    expect((await refusal(openZipArchive(storage, key, bytes.length))).message).toBe(ARCHIVE_UNSAFE);
  });

  it('refuses more entries than the limit, and what is not a zip', async () => {
    const many = Array.from({ length: 12 }, (_, i) => ({ name: `f${i}.txt`, data: `${i}` }));
    const { storage, key, bytes } = await store(many);
    const tooMany = await refusal(openZipArchive(storage, key, bytes.length, { maxEntries: 10, maxDeclaredBytes: 1e9 }));
    expect(tooMany.message).toBe('This archive cannot be previewed: it holds more than 10 entries.');

    await storage.put(uploadKey('zip-fixture', 'fake'), Buffer.from('definitely not a zip file'.repeat(10)));
    expect((await refusal(openZipArchive(storage, uploadKey('zip-fixture', 'fake'), 250))).message).toBe(ARCHIVE_UNREADABLE);
    await storage.put(uploadKey('zip-fixture', 'empty'), Buffer.alloc(0));
    expect((await refusal(openZipArchive(storage, uploadKey('zip-fixture', 'empty'), 0))).message).toBe(ARCHIVE_UNREADABLE);
  });

  it('stops an entry that inflates beyond its declared size', async () => {
    const real = Buffer.alloc(100_000, 0x62);
    const { storage, key, bytes } = await store([{ name: 'liar.txt', data: real, declaredSize: 1000 }]);
    const archive = await openZipArchive(storage, key, bytes.length);
    await expect(readAll(await archive.openEntry('liar.txt'))).rejects.toThrow(/too many bytes/);
    archive.close();
  });

  it('reads only the central directory through a few byte ranges, never the whole archive', async () => {
    const big = Buffer.from(Array.from({ length: 3 * 1024 * 1024 }, (_, i) => (i * 2654435761) % 256));
    const entries: TZipFixtureEntry[] = [{ name: 'big.bin', data: big, method: 'store' }];
    for (let i = 0; i < 2000; i++) entries.push({ name: `notes/note-${i}.txt`, data: `note ${i}` });
    const { storage, key, bytes } = await store(entries);
    const ranges = trackRanges(storage, key);
    const metadata = await deriveZipArchive(storage, { storageKey: key, sha256: 'a'.repeat(64), size: bytes.length });
    expect(metadata.archive!.totalFiles).toBe(2001);
    expect(bytesRead(ranges)).toBeLessThan(bytes.length - big.length + 600 * 1024);
    expect(ranges.length).toBeLessThan(10);
  });
});

describe('safeEntryPath', () => {
  it('normalises honest paths and refuses the rest', () => {
    expect(safeEntryPath('a/b/c.txt')).toBe('a/b/c.txt');
    expect(safeEntryPath('./a//b/')).toBe('a/b');
    for (const bad of ['', '..', '../a', 'a/../../b', '/abs', 'C:/x', 'c:x', 'a\\b', 'a\u0000b', 'a\nb', './', '.'.repeat(1), 'x'.repeat(5000)]) {
      expect(safeEntryPath(bad)).toBeNull();
    }
  });
});
