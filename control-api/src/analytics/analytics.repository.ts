/** Analytics and product events: the only module that queries analytics_events and product_events. */
import type { Kysely, Transaction } from 'kysely';
import type { TActivityType } from '@dropsite/shared';
import type { Database } from '../db/tables.ts';

type TDb = Kysely<Database> | Transaction<Database>;

export interface TNewAnalyticsEvent {
  id: string;
  projectId: string;
  fileId: string | null;
  visitorId: string | null;
  type: TActivityType;
  details: string;
  now: number;
}

/** Rows one insert statement carries at most (well inside either dialect's bound-parameter limit). */
const MAX_ROWS_PER_INSERT = 500;

interface TPendingEvent {
  event: TNewAnalyticsEvent;
  resolve(): void;
  reject(error: unknown): void;
}

/** Writes events in batches; one per runtime (`deps.analytics`), flushed by its `close()`. */
export interface TAnalyticsBatcher {
  /**
   * Records an event. Events arriving in the same turn of the event loop (a burst of view beacons)
   * go to the database as one multi-row insert, one commit for all of them; each caller still
   * waits until its own row is committed and sees the error if it is not.
   */
  insert(event: TNewAnalyticsEvent): Promise<void>;
  /** Writes what is pending now (and waits for a write already under way). */
  flush(): Promise<void>;
}

export function createAnalyticsBatcher(db: TDb): TAnalyticsBatcher {
  let pending: TPendingEvent[] = [];
  /** Batches being written; several may be under way at once (PostgreSQL takes them in parallel). */
  const writing = new Set<Promise<void>>();
  const flush = async (): Promise<void> => {
    if (pending.length > 0) {
      const write = writeBatch(db, pending);
      pending = [];
      writing.add(write);
      void write.finally(() => writing.delete(write));
    }
    await Promise.all(writing);
  };
  return {
    insert(event) {
      if (pending.length === 0) setImmediate(() => void flush());
      return new Promise<void>((resolve, reject) => pending.push({ event, resolve, reject }));
    },
    flush,
  };
}

async function writeBatch(db: TDb, batch: TPendingEvent[]): Promise<void> {
  for (let i = 0; i < batch.length; i += MAX_ROWS_PER_INSERT) {
    const chunk = batch.slice(i, i + MAX_ROWS_PER_INSERT);
    try {
      await insertEvents(
        db,
        chunk.map((p) => p.event),
      );
      for (const p of chunk) p.resolve();
    } catch {
      // One bad row (its site deleted a moment ago) must not fail the others: each on its own.
      await Promise.all(chunk.map((p) => insertEvents(db, [p.event]).then(p.resolve, p.reject)));
    }
  }
}

/** Records one event at once (in a transaction, inside it); hot paths go through the runtime's batcher. */
export function insertAnalyticsEvent(db: TDb, event: TNewAnalyticsEvent): Promise<void> {
  return insertEvents(db, [event]);
}

/** Views counted lately by site, file and visitor, with when (`deps.caches.views`); bounded by its user. */
export type TCountedViews = Map<string, number>;

async function insertEvents(db: TDb, events: TNewAnalyticsEvent[]): Promise<void> {
  await db
    .insertInto('analytics_events')
    .values(
      events.map((event) => ({
        id: event.id,
        project_id: event.projectId,
        file_id: event.fileId,
        visitor_id: event.visitorId,
        type: event.type,
        details: event.details,
        created_at: event.now,
      })),
    )
    .execute();
}

/** Whether this visitor's view of the site (fileId null) or of one file was recorded after `since`. */
export async function hasViewSince(db: TDb, view: { projectId: string; fileId: string | null; visitorId: string; since: number }): Promise<boolean> {
  let query = db
    .selectFrom('analytics_events')
    .select('id')
    .where('visitor_id', '=', view.visitorId)
    .where('project_id', '=', view.projectId)
    .where('created_at', '>', view.since)
    .where('type', '=', 'view');
  query = view.fileId === null ? query.where('file_id', 'is', null) : query.where('file_id', '=', view.fileId);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

export interface TTrafficTotals {
  views: number;
  downloads: number;
  uniqueVisitors: number;
}

/**
 * Views, downloads and distinct visitors of a site or of one file. A site's views are page
 * views (events without a file); its downloads include every file's and the ZIP of all.
 */
export async function countTraffic(db: TDb, scope: { projectId: string; fileId?: string | undefined }): Promise<TTrafficTotals> {
  const byProject = db.selectFrom('analytics_events').where('project_id', '=', scope.projectId);
  const fileId = scope.fileId;
  const views = fileId ? byProject.where('type', '=', 'view').where('file_id', '=', fileId) : byProject.where('type', '=', 'view').where('file_id', 'is', null);
  const downloads = fileId ? byProject.where('type', '=', 'download').where('file_id', '=', fileId) : byProject.where('type', '=', 'download');
  const visitors = fileId ? byProject.where('file_id', '=', fileId) : byProject;
  const [v, d, u] = await Promise.all([
    views.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    downloads.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    visitors
      .where('visitor_id', 'is not', null)
      .select((eb) => eb.fn.count<number>('visitor_id').distinct().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { views: Number(v.n), downloads: Number(d.n), uniqueVisitors: Number(u.n) };
}

/** Page views per project, for lists of many sites. */
export async function countPageViewsByProject(db: TDb, projectIds: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (projectIds.length === 0) return out;
  const rows = await db
    .selectFrom('analytics_events')
    .select(['project_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('project_id', 'in', [...projectIds])
    .where('type', '=', 'view')
    .where('file_id', 'is', null)
    .groupBy('project_id')
    .execute();
  for (const r of rows) out.set(r.project_id, Number(r.n));
  return out;
}

export interface TActivityRow {
  type: string;
  details: string;
  created_at: number;
  file_id: string | null;
}

/** The newest events of a site or file, newest first. */
export async function listRecentActivity(db: TDb, scope: { projectId: string; fileId?: string | undefined }, limit: number): Promise<TActivityRow[]> {
  let query = db.selectFrom('analytics_events').select(['type', 'details', 'created_at', 'file_id']).where('project_id', '=', scope.projectId);
  if (scope.fileId) query = query.where('file_id', '=', scope.fileId);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

export interface TNewProductEvent {
  id: string;
  name: string;
  trigger: string | null;
  projectId: string | null;
  visitorId: string | null;
  anonymousSessionId: string | null;
  now: number;
}

export async function insertProductEvent(db: TDb, event: TNewProductEvent): Promise<void> {
  await db
    .insertInto('product_events')
    .values({
      id: event.id,
      name: event.name,
      trigger: event.trigger,
      project_id: event.projectId,
      visitor_id: event.visitorId,
      anonymous_session_id: event.anonymousSessionId,
      created_at: event.now,
    })
    .execute();
}

export async function countProductEvents(db: TDb, name: string): Promise<number> {
  const row = await db
    .selectFrom('product_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
