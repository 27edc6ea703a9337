/** Build rows: one per (site, version), moved through queued → running → succeeded | failed. */
import type { Kysely } from 'kysely';
import type { Database, TBuildRow } from '../db/tables.ts';

type TDb = Kysely<Database>;

/** Longest error text kept; stack traces beyond it only bloat the row the status endpoint reads. */
const MAX_ERROR_LENGTH = 4000;

/** Ids per IN list; keeps well under SQLite's and PostgreSQL's bound-parameter limits. */
const IDS_PER_QUERY = 1000;

/**
 * Records a queued build for a site version, or answers the build already recorded for it.
 * ON CONFLICT DO NOTHING then a select keeps concurrent callers from failing on the unique key.
 */
export async function insertBuild(db: TDb, build: { id: string; siteId: string; version: number; now: number }): Promise<TBuildRow> {
  await db
    .insertInto('builds')
    .values({
      id: build.id,
      project_id: build.siteId,
      version: build.version,
      status: 'queued',
      progress: 0,
      stage: 'queued',
      error: null,
      attempts: 0,
      created_at: build.now,
      started_at: null,
      finished_at: null,
    })
    .onConflict((oc) => oc.columns(['project_id', 'version']).doNothing())
    .execute();
  return db.selectFrom('builds').selectAll().where('project_id', '=', build.siteId).where('version', '=', build.version).executeTakeFirstOrThrow();
}

export async function findBuildById(db: TDb, id: string): Promise<TBuildRow | null> {
  return (await db.selectFrom('builds').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** The build of the site's highest version, or null when it has none. */
export async function findLatestBuildForSite(db: TDb, siteId: string): Promise<TBuildRow | null> {
  const row = await db.selectFrom('builds').selectAll().where('project_id', '=', siteId).orderBy('version', 'desc').limit(1).executeTakeFirst();
  return row ?? null;
}

/** Builds queued or running (e.g. cut short by a restart) of sites not deleted, oldest first. */
export async function findUnfinishedBuilds(db: TDb): Promise<TBuildRow[]> {
  return db
    .selectFrom('builds')
    .innerJoin('projects', 'projects.id', 'builds.project_id')
    .selectAll('builds')
    .where('builds.status', 'in', ['queued', 'running'])
    .where('projects.deleted_at', 'is', null)
    .orderBy('builds.created_at')
    .orderBy('builds.id')
    .execute();
}

/** Which of these builds have finished, and how (the ids of unfinished or unknown builds are left out). */
export async function listFinishedBuilds(db: TDb, buildIds: readonly string[]): Promise<Array<{ id: string; status: 'succeeded' | 'failed' }>> {
  const finished: Array<{ id: string; status: 'succeeded' | 'failed' }> = [];
  for (let i = 0; i < buildIds.length; i += IDS_PER_QUERY) {
    const rows = await db
      .selectFrom('builds')
      .select(['id', 'status'])
      .where('id', 'in', buildIds.slice(i, i + IDS_PER_QUERY))
      .where('status', 'in', ['succeeded', 'failed'])
      .execute();
    for (const row of rows) {
      if (row.status === 'succeeded' || row.status === 'failed') finished.push({ id: row.id, status: row.status });
    }
  }
  return finished;
}

export async function markBuildRunning(db: TDb, id: string, now: number): Promise<number> {
  const row = await db
    .updateTable('builds')
    .set((eb) => ({
      status: 'running',
      attempts: eb('attempts', '+', 1),
      started_at: now,
      finished_at: null,
      error: null,
    }))
    .where('id', '=', id)
    .returning('attempts')
    .executeTakeFirst();
  if (row === undefined) throw new Error(`Build ${id} not found`);
  return row.attempts;
}

export async function updateBuildProgress(db: TDb, id: string, progress: number, stage: string): Promise<void> {
  // The column is an integer percentage; builders may report fractions.
  const percent = Math.min(100, Math.max(0, Math.round(progress)));
  await db.updateTable('builds').set({ progress: percent, stage }).where('id', '=', id).execute();
}

export async function markBuildSucceeded(db: TDb, id: string, now: number): Promise<void> {
  await db.updateTable('builds').set({ status: 'succeeded', progress: 100, stage: 'done', error: null, finished_at: now }).where('id', '=', id).execute();
}

export async function markBuildFailed(db: TDb, id: string, error: string, now: number): Promise<void> {
  await db
    .updateTable('builds')
    .set({ status: 'failed', error: error.slice(0, MAX_ERROR_LENGTH), finished_at: now })
    .where('id', '=', id)
    .execute();
}
