/** The whole-file SHA-256 computed while chunks arrive: in order, out of order, duplicates, replacements, restart. */
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createRunningFileHashes, type TReadChunk, type TRunningFileHashes } from './running-file-hash.ts';

const chunks = [randomBytes(1000), randomBytes(1000), randomBytes(1000), randomBytes(333)];
const whole = createHash('sha256').update(Buffer.concat(chunks)).digest('hex');
const etags = new Map(chunks.map((_, i) => [i, `etag-${i}`]));

/** Storage that can read a stored chunk back, and counts the read-backs. */
function readBack(): TReadChunk & { reads: number[] } {
  const reads: number[] = [];
  const read = async (index: number) => {
    reads.push(index);
    // In pieces, as storage streams them.
    const bytes = chunks[index]!;
    return [bytes.subarray(0, 100), bytes.subarray(100)];
  };
  return Object.assign(read, { reads });
}

/** A chunk arriving: tapped when it is next in order, its bytes streamed through the tap, then stored. */
function receive(hashes: TRunningFileHashes, index: number, read: TReadChunk | undefined, etag = `etag-${index}`, bytes = chunks[index]!) {
  const tap = hashes.begin('file', index);
  tap?.hash.update(bytes.subarray(0, 10));
  tap?.hash.update(bytes.subarray(10));
  hashes.stored('file', index, etag, tap, read);
  return tap;
}

describe('running whole-file SHA-256', () => {
  it('hashes chunks sent in order from their streamed bytes, reading nothing back', async () => {
    const hashes = createRunningFileHashes();
    const read = readBack();
    for (let i = 0; i < chunks.length; i++) expect(receive(hashes, i, read)).toBeDefined();
    expect(await hashes.digest('file', etags)).toBe(whole);
    expect(read.reads).toEqual([]);
  });

  it('hashes a chunk that arrived early once the gap before it closes, reading it back once', async () => {
    const hashes = createRunningFileHashes();
    const read = readBack();
    expect(receive(hashes, 2, read)).toBeUndefined();
    expect(receive(hashes, 3, read)).toBeUndefined();
    expect(receive(hashes, 0, read)).toBeDefined();
    receive(hashes, 1, read);
    expect(await hashes.digest('file', etags)).toBe(whole);
    expect(read.reads.sort()).toEqual([2, 3]);
  });

  it('answers nothing while a chunk is missing', async () => {
    const hashes = createRunningFileHashes();
    const read = readBack();
    receive(hashes, 0, read);
    receive(hashes, 2, read);
    receive(hashes, 3, read);
    expect(await hashes.digest('file', etags)).toBeUndefined();
  });

  it('ignores a duplicate of a waiting chunk (same etag) and gives up on a chunk stored again with other bytes', async () => {
    const hashes = createRunningFileHashes();
    const read = readBack();
    receive(hashes, 3, read);
    receive(hashes, 3, read);
    for (let i = 0; i < 3; i++) receive(hashes, i, read);
    expect(await hashes.digest('file', etags)).toBe(whole);

    const replaced = createRunningFileHashes();
    for (let i = 0; i < chunks.length; i++) receive(replaced, i, read);
    // Chunk 1 stored again (a new part, another etag) after it was hashed.
    receive(replaced, 1, read, 'etag-1-again');
    expect(await replaced.digest('file', new Map([...etags, [1, 'etag-1-again']]))).toBeUndefined();
  });

  it('answers nothing when the chunks assembled are not the ones hashed (etags differ)', async () => {
    const hashes = createRunningFileHashes();
    for (let i = 0; i < chunks.length; i++) receive(hashes, i, readBack());
    expect(await hashes.digest('file', new Map([...etags, [2, 'written-by-another-process']]))).toBeUndefined();
  });

  it('drops a tapped chunk that was not stored, and takes the next attempt', async () => {
    const hashes = createRunningFileHashes();
    const read = readBack();
    const refused = hashes.begin('file', 0)!;
    refused.hash.update(randomBytes(1000));
    hashes.abandon('file', refused);
    for (let i = 0; i < chunks.length; i++) receive(hashes, i, read);
    expect(await hashes.digest('file', etags)).toBe(whole);
  });

  it('leaves the file to be read at complete when storage cannot read an early chunk back', async () => {
    const hashes = createRunningFileHashes();
    receive(hashes, 1, undefined);
    receive(hashes, 0, undefined);
    receive(hashes, 2, undefined);
    receive(hashes, 3, undefined);
    expect(await hashes.digest('file', etags)).toBeUndefined();
  });

  it('leaves the file to be read at complete when a read-back fails', async () => {
    const hashes = createRunningFileHashes();
    const failing: TReadChunk = async () => {
      throw new Error('disk went away');
    };
    receive(hashes, 1, failing);
    receive(hashes, 0, failing);
    for (let i = 2; i < chunks.length; i++) receive(hashes, i, failing);
    expect(await hashes.digest('file', etags)).toBeUndefined();
  });

  it('knows nothing after a restart (a new process), so the caller reads the file', async () => {
    const before = createRunningFileHashes();
    receive(before, 0, readBack());
    receive(before, 1, readBack());
    const after = createRunningFileHashes();
    receive(after, 2, readBack());
    receive(after, 3, readBack());
    expect(await after.digest('file', etags)).toBeUndefined();
  });

  it('follows a bounded number of files', () => {
    const hashes = createRunningFileHashes({ maxFiles: 2 });
    for (const id of ['a', 'b', 'c']) hashes.begin(id, 0);
    expect(hashes.size()).toBe(2);
  });
});
