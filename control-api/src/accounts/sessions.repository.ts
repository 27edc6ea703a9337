/** Signed-in creator sessions: the only module that queries auth_sessions. */
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { AuthSessionsTable, Database } from '../db/tables.ts';

type TDb = Kysely<Database> | Transaction<Database>;

export interface TSessionWithCreator {
  id: string;
  creator_id: string;
  secret_hash: string;
  created_at: number;
  expires_at: number;
  last_used_at: number;
  email: string;
  name: string;
  avatar_url: string;
  email_verified_at: number | null;
  link_signed_in_at: number | null;
}

export type TSessionRow = Pick<Selectable<AuthSessionsTable>, 'id' | 'created_at' | 'last_used_at' | 'expires_at' | 'user_agent'>;

export async function insertSession(
  db: TDb,
  row: { id: string; creatorId: string; secretHash: string; createdAt: number; expiresAt: number; userAgent: string | null; linkSignedInAt: number | null },
): Promise<void> {
  await db
    .insertInto('auth_sessions')
    .values({
      id: row.id,
      creator_id: row.creatorId,
      secret_hash: row.secretHash,
      created_at: row.createdAt,
      expires_at: row.expiresAt,
      last_used_at: row.createdAt,
      user_agent: row.userAgent,
      link_signed_in_at: row.linkSignedInAt,
    })
    .execute();
}

export async function findSessionWithCreator(db: TDb, id: string): Promise<TSessionWithCreator | null> {
  const row = await db
    .selectFrom('auth_sessions as s')
    .innerJoin('creators as c', 'c.id', 's.creator_id')
    .select([
      's.id',
      's.creator_id',
      's.secret_hash',
      's.created_at',
      's.expires_at',
      's.last_used_at',
      'c.email',
      'c.name',
      'c.avatar_url',
      'c.email_verified_at',
      's.link_signed_in_at',
    ])
    .where('s.id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}

export async function touchSession(db: TDb, id: string, changes: { expiresAt?: number; lastUsedAt: number }): Promise<void> {
  await db
    .updateTable('auth_sessions')
    .set({ last_used_at: changes.lastUsedAt, ...(changes.expiresAt !== undefined ? { expires_at: changes.expiresAt } : {}) })
    .where('id', '=', id)
    .execute();
}

export async function deleteSession(db: TDb, id: string): Promise<void> {
  await db.deleteFrom('auth_sessions').where('id', '=', id).execute();
}

/** Ends the creator's sessions, all of them or all but one. */
export async function deleteSessionsOfCreator(db: TDb, creatorId: string, except?: string): Promise<void> {
  let query = db.deleteFrom('auth_sessions').where('creator_id', '=', creatorId);
  if (except !== undefined) query = query.where('id', '!=', except);
  await query.execute();
}

/** Ends one of the creator's sessions; false when it is not theirs. */
export async function deleteSessionOfCreator(db: TDb, creatorId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('auth_sessions').where('creator_id', '=', creatorId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The creator's sessions still running (not expired, made after `endedOpenedBy`), most recently used first. */
export async function listSessionsOfCreator(db: TDb, creatorId: string, now: number, endedOpenedBy: number): Promise<TSessionRow[]> {
  return db
    .selectFrom('auth_sessions')
    .select(['id', 'created_at', 'last_used_at', 'expires_at', 'user_agent'])
    .where('creator_id', '=', creatorId)
    .where('expires_at', '>', now)
    .where('created_at', '>', endedOpenedBy)
    .orderBy('last_used_at', 'desc')
    .orderBy('id')
    .execute();
}

/** Removes sessions past their expiry or made at or before `endedOpenedBy` (the sweeper's work; such a one is also removed when presented). */
export async function deleteExpiredSessions(db: TDb, now: number, endedOpenedBy: number): Promise<number> {
  const result = await db
    .deleteFrom('auth_sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('created_at', '<=', endedOpenedBy)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
