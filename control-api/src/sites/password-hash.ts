/**
 * Site passwords are stored as argon2id hashes (OWASP's parameters: 19 MiB, 2 passes, 1 lane),
 * salted by the library, compared in constant time by it. Every hash and check goes through one
 * small limiter (shared's, which also bounds the builder's derivations): a flood of guesses costs
 * at most `concurrency` × 19 MiB and as many threads at once, and beyond a short queue is refused
 * (503 with Retry-After) rather than piling up.
 * Hashes of earlier sites (`scrypt$N$r$p$salt$key`) still verify; `needsRehash` tells the unlock
 * to store the password again as argon2id after its next success.
 */
import { scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';
import { createLimiter } from '@dropsite/shared';
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

// Process-wide on purpose, like the memory and the libuv threads it guards: two runtimes in one
// process (tests, the benches) share those, so they share the slots too. Nothing in it depends on
// a configuration or a database.
const slots = createLimiter(PASSWORD_HASH_LIMITS.concurrency, {
  maxWaiting: PASSWORD_HASH_LIMITS.maxWaiting,
  refuse: () => new AppError('service_unavailable', 'Too many password checks right now. Please try again in a moment.', { headers: { 'Retry-After': '2' } }),
});

/** Hashes running and waiting right now (for tests and diagnostics). */
export function passwordHashLoad(): { running: number; waiting: number } {
  return slots.load();
}

export function hashPassword(password: string): Promise<string> {
  return slots(() => argon2Hash(password, ARGON2_OPTIONS));
}

export function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith('$argon2id$')) {
    return slots(() => argon2Verify(stored, password, ARGON2_OPTIONS)).catch((err: unknown) => {
      if (err instanceof AppError) throw err;
      // A malformed stored hash matches nothing.
      return false;
    });
  }
  if (stored.startsWith('scrypt$')) return slots(() => verifyLegacyScrypt(password, stored));
  return Promise.resolve(false);
}

const DUMMY_PASSWORD = 'dropsite: no password to compare';
let dummyHash: Promise<string> | undefined;

/**
 * Spends one password check on a guess that has nothing to compare with (an unknown, open or
 * expired site), so every answer takes as long. The hash it checks against is of a fixed text,
 * made once per process: it holds nothing of any configuration or database.
 */
export async function spendDummyVerification(password: string): Promise<void> {
  dummyHash ??= hashPassword(DUMMY_PASSWORD);
  await verifyPassword(password, await dummyHash);
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
