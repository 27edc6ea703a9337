/**
 * s3rver 3.7 answers PutObject and UploadPart once the last bytes have passed its MD5 hash, while
 * they may still be on their way to the file: a part listed (or an object read) right after the
 * answer can be short, so a complete that checks the listed sizes answered 409 on a loaded machine.
 * S3 acknowledges a write only once it is stored; these replacements do the same, waiting for the
 * file to be written and closed before answering.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** What of s3rver's FilesystemStore is replaced or used. */
export interface TS3rverStore {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: unknown, md5: string): Promise<void>;
  putObject(object: { bucket: string; key: string; metadata: unknown; content: Buffer | Readable }): Promise<{ size: number; md5: string }>;
  putPart(bucket: string, uploadId: string, partNumber: number, content: Readable): Promise<{ size: number; md5: string }>;
}

/** Writes `content` to `file`, resolving with its size and MD5 once the file is written and closed. */
async function writeDurably(file: string, content: Buffer | Readable): Promise<{ size: number; md5: string }> {
  await mkdir(path.dirname(file), { recursive: true });
  if (Buffer.isBuffer(content)) {
    await writeFile(file, content);
    return { size: content.length, md5: createHash('md5').update(content).digest('hex') };
  }
  const md5 = createHash('md5');
  let size = 0;
  const meter = new Transform({
    transform(piece: Buffer, _encoding, done) {
      md5.update(piece);
      size += piece.length;
      done(null, piece);
    },
  });
  await pipeline(content, meter, createWriteStream(file));
  return { size, md5: md5.digest('hex') };
}

export function makeS3rverWritesDurable(store: TS3rverStore): void {
  store.putObject = async (object) => {
    const written = await writeDurably(store.getResourcePath(object.bucket, object.key, 'object'), object.content);
    await store.putMetadata(object.bucket, object.key, object.metadata, written.md5);
    return written;
  };
  store.putPart = async (bucket, uploadId, partNumber, content) => {
    const partPath = path.join(store.getResourcePath(bucket, undefined, 'uploads'), uploadId, String(partNumber));
    const written = await writeDurably(partPath, content);
    // Written last: ListParts (s3rver-multipart.ts) lists a part once its .md5 is there.
    await writeFile(`${partPath}.md5`, written.md5);
    return written;
  };
}
