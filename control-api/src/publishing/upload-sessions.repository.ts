/**
 * Upload sessions, their files and received chunks: the only module that queries those tables, but for
 * the slug check of publishing (uploads/slugs.repository.ts), which also reads sessions' reserved slugs.
 */
import type { Insertable, Kysely, Selectable } from 'kysely';
import { isUniqueViolation } from '../db/database.ts';
import type { Database, UploadChunksTable, UploadFilesTable, UploadSessionsTable } from '../db/tables.ts';

type TDb = Kysely<Database>;

export type TUploadSessionRow = Selectable<UploadSessionsTable>;
export type TUploadFileRow = Selectable<UploadFilesTable>;
export type TUploadChunkRow = Selectable<UploadChunksTable>;
export type TNewUploadSession = Insertable<UploadSessionsTable>;
export type TNewUploadFile = Insertable<UploadFilesTable>;

/** Creates a session and its files in one transaction; 'duplicate' when its idempotency key or slug is taken. */
export async function insertUploadSession(db: TDb, session: TNewUploadSession, files: readonly TNewUploadFile[]): Promise<'inserted' | 'duplicate'> {
  try {
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('upload_sessions').values(session).execute();
      if (files.length > 0)
        await trx
          .insertInto('upload_files')
          .values([...files])
          .execute();
    });
    return 'inserted';
  } catch (error) {
    if (isUniqueViolation(error)) return 'duplicate';
    throw error;
  }
}

export async function findUploadSessionById(db: TDb, id: string): Promise<TUploadSessionRow | null> {
  return (await db.selectFrom('upload_sessions').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

export async function findUploadSessionByIdempotencyKey(db: TDb, key: string): Promise<TUploadSessionRow | null> {
  return (await db.selectFrom('upload_sessions').selectAll().where('idempotency_key', '=', key).executeTakeFirst()) ?? null;
}

export async function findUploadFiles(db: TDb, sessionId: string): Promise<TUploadFileRow[]> {
  return db.selectFrom('upload_files').selectAll().where('session_id', '=', sessionId).orderBy('position').execute();
}

export async function findUploadFile(db: TDb, sessionId: string, fileId: string): Promise<TUploadFileRow | null> {
  const row = await db.selectFrom('upload_files').selectAll().where('id', '=', fileId).where('session_id', '=', sessionId).executeTakeFirst();
  return row ?? null;
}

export async function setUploadFileMultipartId(db: TDb, fileId: string, uploadId: string | null): Promise<void> {
  await db.updateTable('upload_files').set({ multipart_upload_id: uploadId }).where('id', '=', fileId).execute();
}

export async function findChunk(db: TDb, fileId: string, index: number): Promise<TUploadChunkRow | null> {
  const row = await db.selectFrom('upload_chunks').selectAll().where('file_id', '=', fileId).where('chunk_index', '=', index).executeTakeFirst();
  return row ?? null;
}

/** Records a durable chunk; 'exists' when another writer recorded this index first (the primary key decides). */
export async function insertChunk(db: TDb, row: Insertable<UploadChunksTable>): Promise<'inserted' | 'exists'> {
  try {
    await db.insertInto('upload_chunks').values(row).execute();
    return 'inserted';
  } catch (error) {
    if (isUniqueViolation(error)) return 'exists';
    throw error;
  }
}

/** Every recorded chunk of a session's files, by file id. */
export async function findChunksBySession(db: TDb, sessionId: string): Promise<Map<string, TUploadChunkRow[]>> {
  const rows = await db
    .selectFrom('upload_chunks')
    .innerJoin('upload_files', 'upload_files.id', 'upload_chunks.file_id')
    .selectAll('upload_chunks')
    .where('upload_files.session_id', '=', sessionId)
    .orderBy('upload_chunks.chunk_index')
    .execute();
  const byFile = new Map<string, TUploadChunkRow[]>();
  for (const row of rows) {
    const list = byFile.get(row.file_id) ?? [];
    list.push(row);
    byFile.set(row.file_id, list);
  }
  return byFile;
}

export async function deleteChunks(db: TDb, fileId: string, indices?: readonly number[]): Promise<void> {
  let query = db.deleteFrom('upload_chunks').where('file_id', '=', fileId);
  if (indices) {
    if (indices.length === 0) return;
    query = query.where('chunk_index', 'in', [...indices]);
  }
  await query.execute();
}

/** Pushes an open session's expiry forward: activity keeps a session alive. */
export async function extendUploadSession(db: TDb, id: string, expiresAt: number): Promise<void> {
  await db.updateTable('upload_sessions').set({ expires_at: expiresAt }).where('id', '=', id).where('status', '=', 'open').execute();
}

/**
 * Takes the right to complete a session: from 'open', or from a 'completing' whose completer's lease ran out
 * (it crashed). True when this caller won; the conditional update makes concurrent callers agree.
 */
export async function claimUploadSessionCompletion(db: TDb, id: string, now: number, leaseUntil: number): Promise<boolean> {
  const result = await db
    .updateTable('upload_sessions')
    .set({ status: 'completing', lease_until: leaseUntil })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('status', '=', 'open'), eb.and([eb('status', '=', 'completing'), eb('lease_until', '<', now)])]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function renewUploadSessionLease(db: TDb, id: string, leaseUntil: number): Promise<void> {
  await db.updateTable('upload_sessions').set({ lease_until: leaseUntil }).where('id', '=', id).where('status', '=', 'completing').execute();
}

export async function markUploadSessionCompleted(db: TDb, id: string, now: number): Promise<void> {
  await db.updateTable('upload_sessions').set({ status: 'completed', completed_at: now, lease_until: null }).where('id', '=', id).execute();
}

/** A completion that failed hands the session back, so the client can send what is missing and try again. */
export async function reopenUploadSession(db: TDb, id: string, expiresAt: number): Promise<void> {
  await db.updateTable('upload_sessions').set({ status: 'open', lease_until: null, expires_at: expiresAt }).where('id', '=', id).where('status', '=', 'completing').execute();
}

/** Aborts an open session (or one whose completer died); false when it is completing, completed or already aborted. */
export async function markUploadSessionAborted(db: TDb, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('upload_sessions')
    .set({ status: 'aborted', lease_until: null, completed_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('status', '=', 'open'), eb.and([eb('status', '=', 'completing'), eb('lease_until', '<', now)])]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function markUploadFileAssembled(db: TDb, fileId: string, sha256: string, now: number): Promise<void> {
  await db.updateTable('upload_files').set({ sha256, assembled_at: now, multipart_upload_id: null }).where('id', '=', fileId).execute();
}

/** Starts a file over: its chunks are forgotten and its bytes go to a new multipart upload. */
export async function resetUploadFile(db: TDb, fileId: string, multipartUploadId: string | null): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('upload_chunks').where('file_id', '=', fileId).execute();
    await trx.updateTable('upload_files').set({ multipart_upload_id: multipartUploadId, sha256: null, assembled_at: null }).where('id', '=', fileId).execute();
  });
}

/** Sessions whose time ran out while open, or whose completer died and whose time also ran out. */
export async function findAbandonedUploadSessions(db: TDb, now: number, limit: number): Promise<TUploadSessionRow[]> {
  return db
    .selectFrom('upload_sessions')
    .selectAll()
    .where('expires_at', '<=', now)
    .where((eb) => eb.or([eb('status', '=', 'open'), eb.and([eb('status', '=', 'completing'), eb('lease_until', '<', now)])]))
    .orderBy('expires_at')
    .limit(limit)
    .execute();
}

/** Forgets finished sessions (completed or aborted) last touched before the cutoff; their rows only answered status calls. */
export async function deleteFinishedUploadSessions(db: TDb, cutoff: number): Promise<number> {
  const result = await db.deleteFrom('upload_sessions').where('status', 'in', ['completed', 'aborted']).where('expires_at', '<=', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Multipart upload ids still owned by a session that may use them. */
export async function findLiveMultipartUploadIds(db: TDb): Promise<Set<string>> {
  const rows = await db
    .selectFrom('upload_files')
    .innerJoin('upload_sessions', 'upload_sessions.id', 'upload_files.session_id')
    .select('upload_files.multipart_upload_id')
    .where('upload_files.multipart_upload_id', 'is not', null)
    .where('upload_sessions.status', 'in', ['open', 'completing'])
    .execute();
  return new Set(rows.map((r) => r.multipart_upload_id).filter((id): id is string => id !== null));
}

/** Upload sessions still taking chunks or being completed (the metrics' open-sessions gauge). */
export async function countOpenUploadSessions(db: TDb): Promise<number> {
  const row = await db
    .selectFrom('upload_sessions')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('status', 'in', ['open', 'completing'])
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
