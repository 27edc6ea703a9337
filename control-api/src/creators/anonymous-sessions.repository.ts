/** Anonymous creator sessions, their sites and collected emails: the only module that queries those rows. */
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { AnonymousSessionsTable, Database, TSiteRow } from '../db/tables.ts';

type TDb = Kysely<Database> | Transaction<Database>;

export type TAnonymousSessionRow = Selectable<AnonymousSessionsTable>;

export async function insertAnonymousSession(db: TDb, row: Pick<TAnonymousSessionRow, 'id' | 'secret_hash' | 'created_at' | 'expires_at'>): Promise<void> {
  await db
    .insertInto('anonymous_sessions')
    .values({ ...row, claimed_by: null, claimed_at: null })
    .execute();
}

export async function findAnonymousSession(db: TDb, id: string): Promise<TAnonymousSessionRow | null> {
  return (await db.selectFrom('anonymous_sessions').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** The session's live (not deleted) sites, newest first. */
export async function listSitesOfAnonymousSession(db: TDb, sessionId: string): Promise<TSiteRow[]> {
  return db
    .selectFrom('projects')
    .selectAll()
    .where('anonymous_session_id', '=', sessionId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export interface TNewEmailCollection {
  id: string;
  email: string;
  trigger: string;
  siteId: string | null;
  anonymousSessionId: string | null;
  now: number;
}

export async function insertEmailCollection(db: TDb, row: TNewEmailCollection): Promise<void> {
  await db
    .insertInto('email_collections')
    .values({
      id: row.id,
      email: row.email,
      trigger: row.trigger,
      project_id: row.siteId,
      anonymous_session_id: row.anonymousSessionId,
      created_at: row.now,
    })
    .execute();
}

/** The addresses the email prompt was given in this anonymous session, as typed. */
export async function listEmailCollectionAddresses(db: TDb, sessionId: string): Promise<string[]> {
  const rows = await db.selectFrom('email_collections').select('email').where('anonymous_session_id', '=', sessionId).execute();
  return rows.map((row) => row.email);
}

export async function listEmailCollections(db: TDb): Promise<Array<{ email: string; trigger: string; project_id: string | null; anonymous_session_id: string | null }>> {
  return db.selectFrom('email_collections').select(['email', 'trigger', 'project_id', 'anonymous_session_id']).orderBy('created_at').orderBy('id').execute();
}

/**
 * Moves every live site of the session to the account, in one transaction and exactly once: the
 * session is marked claimed by a conditional UPDATE (two racing claims: one updates the row, the
 * other finds it claimed and moves nothing). The sites keep their anonymous_session_id, so their
 * engagement and analytics stay theirs. Returns how many sites moved; null when the session was
 * already claimed (or does not exist).
 */
export async function claimAnonymousSession(
  db: Kysely<Database>,
  sessionId: string,
  creatorId: string,
  now: number,
  /** Told how many active sites would move, in the claim's transaction; throwing moves nothing and leaves the session unclaimed. */
  checkRoom?: (trx: Transaction<Database>, activeSites: number) => Promise<void>,
  /** The workspace the sites go into (the claimer's current one; absent: their personal one), and what to record of each, in the same transaction. */
  into?: { workspaceId: string; moved?: (trx: Transaction<Database>, sites: ReadonlyArray<{ id: string; title: string }>) => Promise<void> },
): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    const marked = await trx
      .updateTable('anonymous_sessions')
      .set({ claimed_by: creatorId, claimed_at: now })
      .where('id', '=', sessionId)
      .where('claimed_by', 'is', null)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) === 0) return null;
    if (checkRoom) {
      const active = await trx
        .selectFrom('projects')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('anonymous_session_id', '=', sessionId)
        .where('owner_creator_id', 'is', null)
        .where('deleted_at', 'is', null)
        .where('taken_down_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
        .executeTakeFirst();
      await checkRoom(trx, Number(active?.n ?? 0));
    }
    const moving = await trx
      .selectFrom('projects')
      .select(['id', 'title'])
      .where('anonymous_session_id', '=', sessionId)
      .where('owner_creator_id', 'is', null)
      .where('deleted_at', 'is', null)
      .execute();
    const moved = await trx
      .updateTable('projects')
      .set({ owner_creator_id: creatorId, workspace_id: into?.workspaceId ?? creatorId, updated_at: now })
      .where('anonymous_session_id', '=', sessionId)
      .where('owner_creator_id', 'is', null)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (into?.moved && moving.length > 0) await into.moved(trx, moving);
    return Number(moved.numUpdatedRows);
  });
}
