/**
 * The key behind the visitor and unlock cookies. SESSION_SECRET when configured; otherwise (never
 * in production, where whoever holds a database backup could then sign cookies) a random key
 * created once and kept in the database, so every API process (and every restart) agrees on it. Loaded before the first request that needs it; the cookie checks themselves are
 * synchronous and fail closed while it is not loaded.
 */
import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Kysely } from 'kysely';
import type { TAppDeps } from '../deps.ts';
import type { Database } from '../db/tables.ts';

const SECRET_NAME = 'cookie-key';

export interface TCookieKeys {
  visitor: KeyObject;
  unlock: KeyObject;
}

const loaded = new WeakMap<Kysely<Database>, TCookieKeys>();
const loading = new WeakMap<Kysely<Database>, Promise<TCookieKeys>>();

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
export function assertSessionSecretConfigured(config: Pick<TAppDeps['config'], 'production' | 'sessionSecret'>): void {
  if (config.production && !config.sessionSecret) throw new Error(`Invalid configuration:\n  ${SESSION_SECRET_REQUIRED}`);
}

/** Loads (once per database handle) and answers the cookie keys. */
export function loadCookieKeys(deps: Pick<TAppDeps, 'db' | 'config' | 'clock'>): Promise<TCookieKeys> {
  const ready = loaded.get(deps.db);
  if (ready) return Promise.resolve(ready);
  let pending = loading.get(deps.db);
  if (!pending) {
    const configured = deps.config.sessionSecret;
    const master = configured
      ? Promise.resolve(Buffer.from(configured, 'utf8'))
      : deps.config.production
        ? Promise.reject(new Error(SESSION_SECRET_REQUIRED))
        : readOrCreateSecret(deps.db, deps.clock.now());
    pending = master.then(deriveKeys);
    pending.then(
      (keys) => loaded.set(deps.db, keys),
      () => loading.delete(deps.db),
    );
    loading.set(deps.db, pending);
  }
  return pending;
}

/** The keys if loaded, else undefined (callers treat that as 'no valid cookie'). */
export function cookieKeysOf(deps: Pick<TAppDeps, 'db'>): TCookieKeys | undefined {
  return loaded.get(deps.db);
}

/** Middleware: holds the first requests until the keys are loaded; afterwards it costs one map lookup. */
export function createCookieKeyGate(deps: Pick<TAppDeps, 'db' | 'config' | 'clock'>): RequestHandler {
  return (_req, _res, next) => {
    if (loaded.has(deps.db)) return next();
    loadCookieKeys(deps).then(() => next(), next);
  };
}
