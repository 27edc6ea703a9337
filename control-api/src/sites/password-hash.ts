/**
 * Site passwords are stored as argon2id hashes (OWASP's parameters: 19 MiB, 2 passes, 1 lane),
 * salted by the library, compared in constant time by it. Every hash and check goes through one
 * small limiter (shared's, which also bounds the builder's derivations): a flood of guesses costs
 * at most `concurrency` × 19 MiB and as many threads at once, and beyond a short queue is refused
 * (503 with Retry-After) rather than piling up. A check made for a client address takes a fair share
 * of that queue at most (`perClient` running and waiting at once; more are refused with 429), so
 * one address guessing in parallel (sign-ins for many accounts, unlocks of many sites) cannot fill
 * the queue everyone else's sign-ins and unlocks wait in.
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
  /** Checks one client address may have running and waiting at once; more are refused with 429. */
  perClient: 4,
} as const;

/** Seconds a client over its share is told to wait (a check takes a fraction of one). */
export const BUSY_RETRY_AFTER_SECONDS = 1;

/** A check refused because its client address already has its share of the queue (429 with Retry-After). */
export class PasswordChecksBusyError extends AppError {
  constructor() {
    super('rate_limited', 'Too many password checks from your address at once. Please try again in a moment.', {
      headers: { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) },
    });
  }
}

// Process-wide on purpose, like the memory and the libuv threads it guards: two runtimes in one
// process (tests, the benches) share those, so they share the slots too. Nothing in it depends on
// a configuration or a database.
const slots = createLimiter(PASSWORD_HASH_LIMITS.concurrency, {
  maxWaiting: PASSWORD_HASH_LIMITS.maxWaiting,
  refuse: () => new AppError('service_unavailable', 'Too many password checks right now. Please try again in a moment.', { headers: { 'Retry-After': '2' } }),
});

/** Checks of each client address running and waiting right now (process-wide, like the slots). */
const heldByClient = new Map<string, number>();

/** Who a hash is done for: the client address whose share of the queue it takes (none for work no client asked for). */
export interface THashClient {
  client?: string;
}

/** Hashes running and waiting right now (for tests and diagnostics). */
export function passwordHashLoad(): { running: number; waiting: number } {
  return slots.load();
}

/** Runs `work` in a slot, within the client's share of the queue. */
function inSlot<T>(work: () => Promise<T>, { client }: THashClient): Promise<T> {
  if (client === undefined) return slots(work);
  const held = heldByClient.get(client) ?? 0;
  if (held >= PASSWORD_HASH_LIMITS.perClient) {
    return Promise.reject(new PasswordChecksBusyError());
  }
  heldByClient.set(client, held + 1);
  return slots(work).finally(() => {
    const left = (heldByClient.get(client) ?? 1) - 1;
    if (left > 0) heldByClient.set(client, left);
    else heldByClient.delete(client);
  });
}

export function hashPassword(password: string, by: THashClient = {}): Promise<string> {
  return inSlot(() => argon2Hash(password, ARGON2_OPTIONS), by);
}

export function verifyPassword(password: string, stored: string, by: THashClient = {}): Promise<boolean> {
  if (stored.startsWith('$argon2id$')) {
    return inSlot(() => argon2Verify(stored, password, ARGON2_OPTIONS), by).catch((err: unknown) => {
      if (err instanceof AppError) throw err;
      // A malformed stored hash matches nothing.
      return false;
    });
  }
  if (stored.startsWith('scrypt$')) return inSlot(() => verifyLegacyScrypt(password, stored), by);
  return Promise.resolve(false);
}

const DUMMY_PASSWORD = 'dropsite: no password to compare';
let dummyHash: Promise<string> | undefined;

/**
 * Spends one password check on a guess that has nothing to compare with (an unknown, open or
 * expired site), so every answer takes as long. The hash it checks against is of a fixed text,
 * made once per process: it holds nothing of any configuration or database.
 */
export async function spendDummyVerification(password: string, by: THashClient = {}): Promise<void> {
  dummyHash ??= hashPassword(DUMMY_PASSWORD);
  await verifyPassword(password, await dummyHash, by);
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
