/** Random row ids: unguessable, URL-safe and the same text on every dialect. */
import { randomFillSync } from 'node:crypto';

const ID_BYTES = 16;
/** Random bytes are fetched 256 ids at a time (as randomUUID does): one call into the CSPRNG, not one per row. */
const pool = Buffer.alloc(ID_BYTES * 256);
let offset = pool.length;

/** 128 random bits as base64url: 22 characters. */
export function newId(): string {
  if (offset + ID_BYTES > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const id = pool.toString('base64url', offset, offset + ID_BYTES);
  // Each id's bytes are used once: wiped so nothing later can read them back from the pool.
  pool.fill(0, offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return id;
}

/** Crockford's base32 in lower case: its characters sort in the order of their values. */
const SORTABLE_DIGITS = '0123456789abcdefghjkmnpqrstvwxyz';
const TIME_DIGITS = 9;
const RANDOM_DIGITS = 13;

/**
 * An id that sorts by the instant it was made: 9 base32 digits of the milliseconds since the epoch
 * (good until the year 3084) and 13 of 64 random bits, 22 characters in all. Rows keyed by it go in at
 * the end of their primary-key index (one page touched per batch, not one per row); for rows whose
 * id is never shown to anyone (analytics events).
 */
export function newTimeOrderedId(now: number): string {
  let out = '';
  let time = Math.max(0, Math.floor(now));
  for (let i = 0; i < TIME_DIGITS; i++) {
    out = SORTABLE_DIGITS[time % 32]! + out;
    time = Math.floor(time / 32);
  }
  if (offset + 8 > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  // 64 random bits as two 32-bit halves: 13 digits of 5 bits take 65, so the top digit has 4.
  let high = pool.readUInt32BE(offset);
  let low = pool.readUInt32BE(offset + 4);
  pool.fill(0, offset, offset + 8);
  offset += 8;
  let tail = '';
  for (let i = 0; i < RANDOM_DIGITS; i++) {
    tail = SORTABLE_DIGITS[low & 31]! + tail;
    low = ((low >>> 5) | ((high & 31) << 27)) >>> 0;
    high >>>= 5;
  }
  return out + tail;
}
