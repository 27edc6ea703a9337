/**
 * Signed-in creator sessions, the way the Lucia guide builds them: the cookie carries `id.secret`
 * (160 random bits of secret), the database only the secret's SHA-256, compared in constant time.
 * A session lasts 30 days from its last renewal and is renewed (the row and the cookie) once less
 * than half of that remains, so an active creator stays signed in and an idle one is signed out;
 * however active, it ends 90 days after the sign-in that made it (a stolen cookie does not live for
 * ever, and the creator proves the password or the inbox again).
 * Every sign-in makes a new session; nothing a client sends (the anonymous creator cookie
 * included) ever becomes one.
 */
import type { Response } from 'express';
import { SIGN_IN_SESSION_DAYS } from '@dropsite/shared';
import type { TAccountsDeps } from './accounts.deps.ts';
import { CREATOR_SESSION_COOKIE, setCookie } from '../access/cookies.ts';
import type { TCreatorSessionLookup } from '../access/principal.ts';
import { hashSecret, randomSecret, SECRET_PATTERN, sameHash } from './secret-tokens.ts';
import { deleteSession, findSessionWithCreator, insertSession, touchSession } from './sessions.repository.ts';
import { DAY_MS } from '../clock.ts';

type TDeps = Pick<TAccountsDeps, 'db' | 'clock'>;

export const SESSION_TTL_MS = SIGN_IN_SESSION_DAYS * DAY_MS;
/** However active, a session ends this long after the sign-in that made it. */
export const SESSION_MAX_LIFETIME_MS = 90 * DAY_MS;
/** Renewed once less than this remains. */
const RENEW_WITHIN_MS = SESSION_TTL_MS / 2;
/** last_used_at is written at most this often per session (not on every request). */
const LAST_USED_GRANULARITY_MS = 60_000;
const TOKEN = new RegExp(`^(${SECRET_PATTERN})\\.(${SECRET_PATTERN})$`);
/** A missing row still costs a hash comparison, so a miss and a wrong secret answer alike. */
const NO_HASH = '0'.repeat(64);

export interface TNewSession {
  id: string;
  token: string;
  expiresAt: number;
  /** When an emailed link opened it (its creation), null for a password. */
  linkSignedInAt: number | null;
}

/** A new session for the creator (sign-up, sign-in, a consumed link (`openedByLink`), a reset). */
export async function createSession(deps: TDeps, creatorId: string, userAgent: string | null, options: { openedByLink?: boolean } = {}): Promise<TNewSession> {
  const id = randomSecret();
  const secret = randomSecret();
  const now = deps.clock.now();
  const expiresAt = now + SESSION_TTL_MS;
  await insertSession(deps.db, {
    id,
    creatorId,
    secretHash: hashSecret(secret),
    createdAt: now,
    expiresAt,
    userAgent: userAgent?.slice(0, 300) ?? null,
    linkSignedInAt: options.openedByLink ? now : null,
  });
  return { id, token: `${id}.${secret}`, expiresAt, linkSignedInAt: options.openedByLink ? now : null };
}

/** Sign-ins at or before this instant made sessions that have ended, however active (see SESSION_MAX_LIFETIME_MS). */
export function sessionsEndedOpenedBy(now: number): number {
  return now - SESSION_MAX_LIFETIME_MS;
}

/**
 * The creator a session cookie's token proves, or null (malformed, unknown, wrong secret, expired
 * or past its lifetime: such a row is removed). Renews the session when less than half of its time
 * remains, never past its lifetime.
 */
export async function validateSessionToken(deps: TDeps, token: string): Promise<TCreatorSessionLookup | null> {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, id, secret] = match as unknown as [string, string, string];
  const row = await findSessionWithCreator(deps.db, id);
  const isRight = sameHash(hashSecret(secret), row?.secret_hash ?? NO_HASH);
  if (!row || !isRight) return null;
  const now = deps.clock.now();
  const endsAt = row.created_at + SESSION_MAX_LIFETIME_MS;
  if (now >= row.expires_at || now >= endsAt) {
    await deleteSession(deps.db, row.id);
    return null;
  }
  const renewTo = Math.min(now + SESSION_TTL_MS, endsAt);
  const renew = now >= row.expires_at - RENEW_WITHIN_MS && renewTo > row.expires_at;
  const expiresAt = renew ? renewTo : row.expires_at;
  if (renew || now - row.last_used_at >= LAST_USED_GRANULARITY_MS) {
    await touchSession(deps.db, row.id, { lastUsedAt: now, ...(renew ? { expiresAt } : {}) });
  }
  return {
    creator: {
      id: row.creator_id,
      email: row.email,
      name: row.name,
      avatarUrl: row.avatar_url,
      emailVerified: row.email_verified_at !== null,
      sessionId: row.id,
      linkSignedInAt: row.link_signed_in_at,
    },
    renewedUntil: renew ? expiresAt : null,
  };
}

/** Sets the session cookie to last until the session does. */
export function setSessionCookie(deps: Pick<TAccountsDeps, 'config' | 'clock'>, res: Response, session: { token: string; expiresAt: number }): void {
  setCookie(res, deps.config, CREATOR_SESSION_COOKIE, session.token, session.expiresAt - deps.clock.now());
}

export function clearSessionCookie(deps: Pick<TAccountsDeps, 'config'>, res: Response): void {
  setCookie(res, deps.config, CREATOR_SESSION_COOKIE, '', 0);
}
