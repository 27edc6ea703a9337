/** Random row ids: unguessable, URL-safe and the same text on every dialect. */
import { randomFillSync } from 'node:crypto';

const ID_BYTES = 16;
/** Random bytes are fetched 256 ids at a time (as randomUUID does): one call into the CSPRNG, not one per row. */
const pool = Buffer.alloc(ID_BYTES * 256);
let offset = pool.length;

/** 128 random bits as base64url: 22 characters. */
export function newId(): string {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const id = pool.toString('base64url', offset, offset + ID_BYTES);
  // Each id's bytes are used once: wiped so nothing later can read them back from the pool.
  pool.fill(0, offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return id;
}
