/**
 * The backup archive's tar layer: archives written before tar-stream wrote them still read the
 * same, what it writes now is what `tar` lists, and what a backup never holds is refused.
 */
import { execFile } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGunzip, createGzip, gunzipSync } from 'node:zlib';
import { pack as createPack } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTar, TarFormatError, tarStream, type TTarFile } from './tar.ts';

const run = promisify(execFile);
const FIXTURE = path.join(import.meta.dirname, 'fixtures/written-before-tar-stream.tar.gz');
const MTIME = Date.UTC(2026, 10, 27, 4, 30);
const LONG_NAME = `dropsite-backup/storage/sites/${'a'.repeat(60)}/${'b'.repeat(60)}/photo-été.jpg`;

type TRead = { name: string; size: number; mtimeMs: number; bytes: Buffer };

async function readAll(source: AsyncIterable<Uint8Array>): Promise<TRead[]> {
  const entries: TRead[] = [];
  await readTar(source, async (entry, body) => {
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk);
    entries.push({ ...entry, bytes: Buffer.concat(chunks) });
  });
  return entries;
}

async function readArchive(file: string): Promise<TRead[]> {
  const gunzip = createGunzip();
  const reading = pipeline(createReadStream(file), gunzip);
  const entries = await readAll(gunzip);
  await reading;
  return entries;
}

async function* filesOf(entries: Array<{ name: string; bytes: Buffer }>): AsyncGenerator<TTarFile> {
  for (const entry of entries) yield { name: entry.name, size: entry.bytes.length, mtimeMs: MTIME, body: [entry.bytes] };
}

async function bytesOf(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const all: Buffer[] = [];
  for await (const chunk of chunks) all.push(chunk);
  return Buffer.concat(all);
}

describe('backup archive tar format', () => {
  let scratch: string;
  beforeAll(async () => {
    scratch = await mkdtemp(path.join(os.tmpdir(), 'dropsite-tar-'));
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('reads an archive written before tar-stream wrote them: long and non-ASCII names, empty files, times', async () => {
    const entries = await readArchive(FIXTURE);
    expect(entries.map(({ name, size, mtimeMs }) => ({ name, size, mtimeMs }))).toEqual([
      { name: 'dropsite-backup/database.sqlite', size: 29, mtimeMs: MTIME },
      { name: LONG_NAME, size: 1300, mtimeMs: MTIME },
      { name: 'dropsite-backup/storage/empty.txt', size: 0, mtimeMs: MTIME },
      { name: 'dropsite-backup/manifest.json', size: 29, mtimeMs: MTIME },
    ]);
    expect(entries[0]!.bytes.toString('latin1')).toBe('SQLite format 3\0 (a stand-in)');
    expect(entries[1]!.bytes.equals(Buffer.alloc(1300, 7))).toBe(true);
    expect(entries[3]!.bytes.toString()).toBe('{"format":"dropsite-backup"}\n');
  });

  it('writes what it read back the same, and what tar lists by the same names', async () => {
    const before = await readArchive(FIXTURE);
    const file = path.join(scratch, 'rewritten.tar.gz');
    await pipeline(tarStream(filesOf(before)), createGzip(), createWriteStream(file));
    const after = await readArchive(file);
    expect(after).toEqual(before);
    const { stdout } = await run('tar', ['-tzf', file]);
    expect(stdout.trim().split('\n')).toEqual(before.map((entry) => entry.name));
  });

  it('refuses a body shorter or longer than the size it announced', async () => {
    const short = tarStream(
      (async function* () {
        yield { name: 'short', size: 10, mtimeMs: MTIME, body: [Buffer.alloc(4)] } satisfies TTarFile;
      })(),
    );
    await expect(bytesOf(short)).rejects.toThrow('short ended after 4 of its 10 bytes');
    const long = tarStream(
      (async function* () {
        yield { name: 'long', size: 2, mtimeMs: MTIME, body: [Buffer.alloc(4)] } satisfies TTarFile;
      })(),
    );
    await expect(bytesOf(long)).rejects.toThrow('long grew while it was being archived (past 2 bytes)');
  });

  it('refuses links, an archive cut short and a damaged header', async () => {
    const linked = createPack();
    linked.entry({ name: 'dropsite-backup/storage/link', type: 'symlink', linkname: '/etc/passwd' });
    linked.finalize();
    await expect(readAll(linked as AsyncIterable<Buffer>)).rejects.toThrow(/is not a regular file \(tar type "symlink"\)/);

    const whole = gunzipSync(await readFile(FIXTURE));
    // Cut at an entry's end: every header reads, but the closing blocks are missing.
    await expect(readAll(Readable.from([whole.subarray(0, 1024)]))).rejects.toThrow(TarFormatError);
    await expect(readAll(Readable.from([whole.subarray(0, 1024)]))).rejects.toThrow(/ends early/);
    // Cut in the middle of an entry's bytes.
    await expect(readAll(Readable.from([whole.subarray(0, 1800)]))).rejects.toThrow(TarFormatError);

    const damaged = Buffer.from(whole);
    damaged[10] = damaged[10]! ^ 0xff;
    const file = path.join(scratch, 'damaged.tar');
    await writeFile(file, damaged);
    await expect(readAll(createReadStream(file))).rejects.toThrow(TarFormatError);
  });
});
