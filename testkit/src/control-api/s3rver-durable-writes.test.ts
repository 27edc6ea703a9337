/**
 * The S3 stand-in acknowledges a part only once it is stored, as S3 does: a part listed right after
 * its upload was answered has all its bytes (a complete that found one short answered 409). The part's
 * file here is a pipe the test drains by hand, so "written" is something the test decides.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, open, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import { makeS3rverWritesDurable, type TS3rverStore } from './s3rver-durable-writes.ts';

type TStoreConstructor = new (directory: string) => TS3rverStore;
const FilesystemStore = createRequire(import.meta.url)('s3rver/lib/stores/filesystem.js') as TStoreConstructor;

let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('answers an uploaded part only once its last byte is in its file', async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-s3rver-durable-'));
  const store = new FilesystemStore(dir);
  makeS3rverWritesDurable(store);
  const partPath = path.join(store.getResourcePath('bucket', undefined, 'uploads'), 'upload-1', '1');
  await mkdir(path.dirname(partPath), { recursive: true });
  execFileSync('mkfifo', [partPath]);

  // More than the pipe holds (64 KiB), little enough to sit in the streams' buffers behind it.
  const pieces = Array.from({ length: 5 }, (_, i) => Buffer.alloc(16 * 1024, i + 1));
  const total = pieces.reduce((n, p) => n + p.length, 0);
  let isAnswered = false;
  const source = Readable.from(pieces);
  // The whole part has left its source (and passed the MD5, where s3rver answered) while the pipe is full.
  const consumed = once(source, 'end');
  const answered = store.putPart('bucket', 'upload-1', 1, source).then((result) => {
    isAnswered = true;
    return result;
  });
  const reader = await open(partPath, 'r');
  try {
    // Every byte has passed the hash, none is read from the pipe: the last piece cannot be in the file,
    // so the part must not be answered, even once what that answer waited on has run.
    await consumed;
    await new Promise((resolve) => setImmediate(resolve));
    expect(isAnswered).toBe(false);
    let read = 0;
    const buffer = Buffer.alloc(64 * 1024);
    for (;;) {
      const { bytesRead } = await reader.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      expect(isAnswered).toBe(false);
      read += bytesRead;
    }
    expect(read).toBe(total);
    expect(await answered).toEqual({ size: total, md5: expect.stringMatching(/^[0-9a-f]{32}$/) });
  } finally {
    await reader.close();
  }
});
