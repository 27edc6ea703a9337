/**
 * The key behind the visitor and unlock cookies. SESSION_SECRET when configured; otherwise (never
 * in production, where whoever holds a database backup could then sign cookies) a random key
 * created once and kept in the database, so every API process (and every restart) agrees on it.
 * Loaded by createRuntime before the app serves anything; the cookie checks are synchronous.
 */
import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { TConfig } from '../config/config.ts';
import type { Database } from '../db/tables.ts';

const SECRET_NAME = 'cookie-key';

export interface TCookieKeys {
  visitor: KeyObject;
  unlock: KeyObject;
}

export interface TServerKeys {
  cookie: TCookieKeys;
  /** Signs the one-click unsubscribe links of notification email. */
  unsubscribe: KeyObject;
}

/** Each purpose gets its own key, so a value signed for one can never pass for another. */
function deriveKeys(master: Buffer): TCookieKeys {
  // KeyObjects, so each HMAC does not import the key again.
  const derive = (purpose: string) => createSecretKey(createHmac('sha256', master).update(`dropsite:${purpose}`).digest());
  return { visitor: derive('visitor-cookie'), unlock: derive('site-unlock') };
}

/** The stored key, created by whichever process asks first (insert-if-absent, then read). */
export async function readOrCreateSecret(db: Kysely<Database>, now: number): Promise<Buffer> {
  await db
    .insertInto('server_secrets')
    .values({ name: SECRET_NAME, value: randomBytes(32).toString('base64url'), created_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('server_secrets').select('value').where('name', '=', SECRET_NAME).executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'base64url');
}

export const SESSION_SECRET_REQUIRED =
  'SESSION_SECRET: required when NODE_ENV is production (at least 32 random characters, e.g. `openssl rand -base64 48`); ' +
  'without it the cookie key would live in the database, and a copy of the database could sign unlock cookies.';

/** Start-up check of the API process: production needs SESSION_SECRET. */
export function assertSessionSecretConfigured(config: Pick<TConfig, 'production' | 'sessionSecret'>): void {
  if (config.production && !config.sessionSecret) throw new Error(`Invalid configuration:\n  ${SESSION_SECRET_REQUIRED}`);
}

/** The cookie keys: from SESSION_SECRET, else (outside production) from the key kept in the database. */
export async function loadCookieKeys(deps: { db: Kysely<Database>; config: TConfig; clock: Clock }): Promise<TCookieKeys> {
  return deriveKeys(await masterKeyOf(deps));
}

async function masterKeyOf(deps: { db: Kysely<Database>; config: TConfig; clock: Clock }): Promise<Buffer> {
  const configured = deps.config.sessionSecret;
  if (configured) return Buffer.from(configured, 'utf8');
  if (deps.config.production) throw new Error(SESSION_SECRET_REQUIRED);
  return readOrCreateSecret(deps.db, deps.clock.now());
}

/**
 * Every key of one runtime, loaded once by createRuntime (after migrations) so request paths use
 * them synchronously. Undefined in production without SESSION_SECRET: the API refuses to start so
 * (main.ts), and an ops command that serves no request needs none.
 */
export async function loadServerKeys(deps: { db: Kysely<Database>; config: TConfig; clock: Clock }): Promise<TServerKeys | undefined> {
  if (deps.config.production && !deps.config.sessionSecret) return undefined;
  const master = await masterKeyOf(deps);
  return { cookie: deriveKeys(master), unsubscribe: createSecretKey(createHmac('sha256', master).update('dropsite:email-unsubscribe').digest()) };
}
