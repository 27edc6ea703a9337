/**
 * Site passwords are stored as argon2id hashes (OWASP's parameters: 19 MiB, 2 passes, 1 lane),
 * salted by the library, compared in constant time by it. Every hash and check goes through one
 * small semaphore: a flood of guesses costs at most `concurrency` × 19 MiB and as many threads at
 * once, and beyond a short queue is refused (503 with Retry-After) rather than piling up.
 * Hashes of earlier sites (`scrypt$N$r$p$salt$key`) still verify; `needsRehash` tells the unlock
 * to store the password again as argon2id after its next success.
 */
import { scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';
import { AppError } from '../http/app-error.ts';

// The library's default algorithm is argon2id (its const enum cannot be imported under isolatedModules).
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 } as const;
const ARGON2_PREFIX = `$argon2id$v=19$m=${ARGON2_OPTIONS.memoryCost},t=${ARGON2_OPTIONS.timeCost},p=${ARGON2_OPTIONS.parallelism}$`;

export const PASSWORD_HASH_LIMITS = {
  /** Hashes computed at once in this process (each holds 19 MiB and a libuv thread). */
  concurrency: 2,
  /** Hashes waiting for a slot; more are refused with 503. */
  maxWaiting: 64,
} as const;

let running = 0;
const waiting: Array<() => void> = [];

/** Hashes running and waiting right now (for tests and diagnostics). */
export function passwordHashLoad(): { running: number; waiting: number } {
  return { running, waiting: waiting.length };
}

async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= PASSWORD_HASH_LIMITS.concurrency) {
    if (waiting.length >= PASSWORD_HASH_LIMITS.maxWaiting) {
      throw new AppError('service_unavailable', 'Too many password checks right now. Please try again in a moment.', { headers: { 'Retry-After': '2' } });
    }
    // The slot is handed over by the finishing hash (running stays counted), so none can jump the queue.
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running++;
  }
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

export function hashPassword(password: string): Promise<string> {
  return withHashSlot(() => argon2Hash(password, ARGON2_OPTIONS));
}

export function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith('$argon2id$')) {
    return withHashSlot(() => argon2Verify(stored, password, ARGON2_OPTIONS)).catch((err: unknown) => {
      if (err instanceof AppError) throw err;
      // A malformed stored hash matches nothing.
      return false;
    });
  }
  if (stored.startsWith('scrypt$')) return withHashSlot(() => verifyLegacyScrypt(password, stored));
  return Promise.resolve(false);
}

/** Whether a stored hash is of an earlier scheme or other parameters (store the password again after a successful check). */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith(ARGON2_PREFIX);
}

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number; maxmem: number }) => Promise<Buffer>;

/** Sites published before argon2id: scrypt N=2^14, r=8, p=1 (other parameters are refused, not computed). */
async function verifyLegacyScrypt(password: string, stored: string): Promise<boolean> {
  const [, n, r, p, saltText, keyText] = stored.split('$');
  if (n !== '16384' || r !== '8' || p !== '1' || !saltText || !keyText) return false;
  const expected = Buffer.from(keyText, 'base64url');
  if (expected.length < 16 || expected.length > 64) return false;
  const actual = await scrypt(password, Buffer.from(saltText, 'base64url'), expected.length, { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
