/** Test helper: random bytes of any size, bytes read whole from a stream, SHA-256 digests of bytes and of streams, and CRC-32s. */
import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** zlib's CRC-32 of the bytes as an upload chunk carries it (X-Chunk-Crc32): base64 of its 4 big-endian bytes. */
export function crc32Base64(bytes: Uint8Array): string {
  const bigEndian = Buffer.alloc(4);
  bigEndian.writeUInt32BE(crc32(bytes));
  return bigEndian.toString('base64');
}

/** zlib's CRC-32 of the bytes as a received chunk is recorded: 8 lower-case hex digits. */
export function crc32Hex(bytes: Uint8Array): string {
  return crc32(bytes).toString(16).padStart(8, '0');
}

export async function sha256OfStream(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(parts);
}

/** Random bytes in 1 MiB pieces (randomBytes has a per-call limit). */
export function makeBytes(size: number): Buffer {
  const pieces: Buffer[] = [];
  for (let done = 0; done < size; done += 1 << 20) pieces.push(randomBytes(Math.min(1 << 20, size - done)));
  return Buffer.concat(pieces);
}
