/**
 * The archive tree a site shows says which files the API extracts on their own: an entry the API
 * would refuse (a zip bomb's, one past the per-request size, an encrypted one) is marked
 * `extractable: false`, so the viewer offers it only inside the whole archive.
 */
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { ARCHIVE_ENTRY_LIMITS, isEntryExtractable, uploadKey, type TArchiveEntry } from '@dropsite/shared';
import { markEntryExtractability, openZipArchive } from './zip-archive.ts';
import { MemoryStorage } from '@dropsite/testkit/builder/memory-storage';
import { makeZip, type TZipFixtureEntry } from '@dropsite/testkit/builder/media-fixtures';

const MiB = 1024 ** 2;

async function listed(entries: TZipFixtureEntry[], patch?: (bytes: Buffer) => void) {
  const storage = new MemoryStorage();
  const bytes = makeZip(entries);
  patch?.(bytes);
  await storage.put(uploadKey('zip-fixture', 'archive'), bytes);
  const archive = await openZipArchive(storage, uploadKey('zip-fixture', 'archive'), bytes.length);
  archive.close();
  return archive;
}

function fileEntries(entries: TArchiveEntry[]): Map<string, TArchiveEntry> {
  const out = new Map<string, TArchiveEntry>();
  for (const entry of entries) {
    if (entry.type === 'file') out.set(entry.path, entry);
    else for (const [path, child] of fileEntries(entry.children ?? [])) out.set(path, child);
  }
  return out;
}

/** Sets the 'encrypted' flag of one entry in its local and central headers. */
function encrypt(bytes: Buffer, name: string): void {
  for (const signature of [0x04034b50, 0x02014b50]) {
    const nameAt = signature === 0x04034b50 ? 30 : 46;
    const flagAt = signature === 0x04034b50 ? 6 : 8;
    for (let i = 0; i + nameAt < bytes.length; i++) {
      if (bytes.readUInt32LE(i) !== signature) continue;
      if (bytes.subarray(i + nameAt, i + nameAt + name.length).toString('utf8') !== name) continue;
      bytes.writeUInt16LE(bytes.readUInt16LE(i + flagAt) | 1, i + flagAt);
    }
  }
}

describe('which archive entries a site offers on their own', () => {
  it('marks a zip bomb entry as not extractable and leaves ordinary files alone', async () => {
    const archive = await listed([
      { name: 'docs/readme.txt', data: 'Read me first.\n'.repeat(2000) },
      { name: 'docs/photo.jpg', data: randomBytes(2 * MiB), method: 'store' },
      { name: 'zeros.bin', data: Buffer.alloc(50 * MiB) },
    ]);
    const files = fileEntries(markEntryExtractability(archive.summary).entries);
    expect(files.get('zeros.bin')?.extractable).toBe(false);
    // The API's own rule agrees: these sizes are what it checks.
    const zeros = archive.files.get('zeros.bin')!;
    expect(isEntryExtractable(zeros)).toBe(false);
    expect(files.get('docs/readme.txt')?.extractable).not.toBe(false);
    expect(files.get('docs/photo.jpg')?.extractable).not.toBe(false);
  });

  it('uses the limits it is given (the API configuration), and says how much one request may extract', async () => {
    const archive = await listed([
      { name: 'a.bin', data: randomBytes(3 * MiB), method: 'store' },
      { name: 'b.bin', data: randomBytes(MiB), method: 'store' },
    ]);
    const limits = { ...ARCHIVE_ENTRY_LIMITS, entryMaxBytes: 2 * MiB };
    const summary = markEntryExtractability(archive.summary, limits);
    const files = fileEntries(summary.entries);
    expect(files.get('a.bin')?.extractable).toBe(false);
    expect(files.get('b.bin')?.extractable).not.toBe(false);
    expect(summary.entryMaxBytes).toBe(2 * MiB);
    expect(markEntryExtractability(archive.summary).entryMaxBytes).toBe(ARCHIVE_ENTRY_LIMITS.entryMaxBytes);
  });

  it('marks encrypted entries (the API cannot extract them) in the tree the builder reads', async () => {
    const archive = await listed(
      [
        { name: 'open.txt', data: 'Hello\n' },
        { name: 'secret.txt', data: 'Hidden\n' },
      ],
      (bytes) => encrypt(bytes, 'secret.txt'),
    );
    const files = fileEntries(archive.summary.entries);
    expect(files.get('secret.txt')?.extractable).toBe(false);
    expect(files.get('open.txt')?.extractable).not.toBe(false);
    expect(fileEntries(markEntryExtractability(archive.summary).entries).get('secret.txt')?.extractable).toBe(false);
  });
});
