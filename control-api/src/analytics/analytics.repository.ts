/** Analytics and product events: the only module that queries analytics_events and product_events. */
import { PostgresAdapter, sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { TActivityType } from '@dropsite/shared';
import type { AnalyticsEventsTable, Database } from '../db/tables.ts';
import { compiledQuery, type TQueryCache } from '../db/compiled-query.ts';
import { createTurnBatcher } from '../db/turn-batch.ts';
import type { TCountedView } from './view-ledger.ts';
import { DAY_MS } from '../clock.ts';

type TDb = Kysely<Database> | Transaction<Database>;

export interface TNewAnalyticsEvent {
  id: string;
  siteId: string;
  fileId: string | null;
  visitorId: string | null;
  type: TActivityType;
  details: string;
  now: number;
}

/** Rows one insert statement carries at most (well inside either dialect's bound-parameter limit). */
const MAX_ROWS_PER_INSERT = 500;
/**
 * How long the batcher gathers events before it writes them: a batch of N views then costs one
 * commit and a handful of statements instead of N of each. Well inside the 2 s the creator's live
 * activity waits before it answers an event (ACTIVITY_SETTLE_MS).
 */
const FLUSH_EVERY_MS = 50;
/** A batch this large is written at once, without waiting for the cadence. */
const FLUSH_AT_EVENTS = 1000;
/** Events waiting beyond this many (the database stalled) are refused, not kept in memory without bound. */
const MAX_WAITING_EVENTS = 50_000;

interface TPendingEvent {
  event: TNewAnalyticsEvent;
  resolve(): void;
  reject(error: unknown): void;
}

/** Writes events in batches; one per runtime (`deps.analytics`), flushed by its `close()`. */
export interface TAnalyticsBatcher {
  /**
   * Records an event. Events are gathered for a short while (FLUSH_EVERY_MS, or until
   * FLUSH_AT_EVENTS wait) and written together: their rows and the rollups they add, in one
   * transaction. The promise settles once this event's row is committed, or with the error if it
   * could not be stored (its site deleted a moment ago), which fails no other event of the batch.
   */
  insert(event: TNewAnalyticsEvent): Promise<void>;
  /**
   * Writes what is waiting now and answers once it (and any write under way) is committed: the
   * reads of this process that must count every event it took (the creator's panel, lists and
   * details) call it first, and so does `close()`.
   */
  flush(): Promise<void>;
  /**
   * Whether this visitor's view of the site (fileId null) or of one file was recorded after `since`
   * (`hasViewSince`). The questions asked in one turn of the event loop are asked together: on
   * PostgreSQL in one statement, so concurrent beacons share a round trip.
   */
  hasViewSince(view: TViewQuestion): Promise<boolean>;
}

export interface TViewQuestion {
  siteId: string;
  fileId: string | null;
  visitorId: string;
  since: number;
}

export function createAnalyticsBatcher(db: TDb, options: { flushEveryMs?: number; queries?: TQueryCache } = {}): TAnalyticsBatcher {
  const flushEveryMs = options.flushEveryMs ?? FLUSH_EVERY_MS;
  const askViews = createViewQuestions(db, options.queries);
  let pending: TPendingEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  /**
   * The writes, one after the other: each batch's rollup increments are added in one transaction,
   * and the next batch (gathered meanwhile) waits for it, so a process never deadlocks with itself.
   */
  let writing: Promise<void> = Promise.resolve();
  /** Whether a write is queued that has not taken its batch yet (it will take everything waiting then). */
  let isQueued = false;
  const flush = (): Promise<void> => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0 || isQueued) return writing;
    isQueued = true;
    // The batch is taken when its write starts, so it holds what arrived while the one before was written.
    writing = writing.then(() => {
      isQueued = false;
      const batch = pending;
      pending = [];
      return batch.length > 0 ? writeBatch(db, batch) : undefined;
    });
    return writing;
  };
  return {
    insert(event) {
      if (pending.length >= MAX_WAITING_EVENTS) return Promise.reject(new Error(`${MAX_WAITING_EVENTS} analytics events are waiting for the database: this one is dropped`));
      const written = new Promise<void>((resolve, reject) => pending.push({ event, resolve, reject }));
      if (pending.length >= FLUSH_AT_EVENTS) void flush();
      else timer ??= setTimeout(() => void flush(), flushEveryMs).unref();
      return written;
    },
    flush,
    hasViewSince: askViews,
  };
}

/** `hasViewSince`; on PostgreSQL with the questions of one turn of the event loop asked together. */
function createViewQuestions(db: TDb, queries: TQueryCache | undefined): (view: TViewQuestion) => Promise<boolean> {
  // SQLite has no round trip to share: each question asks the dedupe index at once.
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return (view) => hasViewSince(db, view, queries);
  return createTurnBatcher(async (views: readonly TViewQuestion[]) => {
    if (views.length === 1) return [await hasViewSince(db, views[0]!, queries)];
    const seen = await viewsSeenSince(db, views);
    return views.map((_, i) => seen.has(i));
  });
}

/**
 * PostgreSQL: which of the views (by their index in `views`) were recorded after their `since`, in
 * one statement; each row probes the dedupe index by visitor and site as `hasViewSince` does.
 */
async function viewsSeenSince(db: TDb, views: readonly TViewQuestion[]): Promise<Set<number>> {
  const { rows } = await sql<{ i: number | string }>`
    select q.i - 1 as i
    from unnest(${views.map((v) => v.visitorId)}::text[], ${views.map((v) => v.siteId)}::text[],
                ${views.map((v) => v.fileId)}::text[], ${views.map((v) => v.since)}::bigint[])
         with ordinality as q(visitor_id, project_id, file_id, since, i)
    where exists (
      select 1 from analytics_events e
      where e.visitor_id = q.visitor_id and e.project_id = q.project_id and e.file_id is not distinct from q.file_id
        and e.type = 'view' and e.created_at > q.since)`.execute(db);
  return new Set(rows.map((row) => Number(row.i)));
}

/** Writes a batch and settles each of its events; never throws. */
async function writeBatch(db: TDb, batch: TPendingEvent[]): Promise<void> {
  const events = batch.map((p) => p.event);
  try {
    await insertEvents(db, events);
    for (const p of batch) p.resolve();
    return;
  } catch (error) {
    // One bad row (its site or file deleted a moment ago) must not fail the others: those whose site
    // and file still exist are written again, together; the others fail with the error.
    const storable = await findStorableEvents(db, events).catch(() => null);
    if (storable === null || storable.size === batch.length) {
      // Every row could be stored: the write itself failed, for all of them.
      for (const p of batch) p.reject(error);
      return;
    }
    const kept: TPendingEvent[] = [];
    for (const p of batch) {
      if (storable.has(p.event)) kept.push(p);
      else p.reject(error);
    }
    if (kept.length === 0) return;
    try {
      await insertEvents(
        db,
        kept.map((p) => p.event),
      );
      for (const p of kept) p.resolve();
    } catch (retryError) {
      for (const p of kept) p.reject(retryError);
    }
  }
}

/** The events whose site and file (when they name one) exist. */
async function findStorableEvents(db: TDb, events: readonly TNewAnalyticsEvent[]): Promise<Set<TNewAnalyticsEvent>> {
  const siteIds = [...new Set(events.map((e) => e.siteId))];
  const fileIds = [...new Set(events.flatMap((e) => (e.fileId === null ? [] : [e.fileId])))];
  const sites = new Set<string>();
  const files = new Set<string>();
  for (const ids of chunked(siteIds, MAX_ROWS_PER_INSERT)) {
    for (const row of await db.selectFrom('projects').select('id').where('id', 'in', ids).execute()) sites.add(row.id);
  }
  for (const ids of chunked(fileIds, MAX_ROWS_PER_INSERT)) {
    for (const row of await db.selectFrom('files').select('id').where('id', 'in', ids).execute()) files.add(row.id);
  }
  return new Set(events.filter((e) => sites.has(e.siteId) && (e.fileId === null || files.has(e.fileId))));
}

/** `items` in runs of at most `size`. */
function chunked<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Records one event at once (in a transaction, inside it); hot paths go through the runtime's batcher. */
export function insertAnalyticsEvent(db: TDb, event: TNewAnalyticsEvent): Promise<void> {
  return insertEvents(db, [event]);
}

/** The scope of a site's own rollup rows (a file's are its id). */
export const SITE_SCOPE = '';

/** The UTC day (days since the epoch) of an instant. */
export function dayOf(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** Runs `work` in a transaction, or in the one `db` already is. */
function inTransaction<T>(db: TDb, work: (trx: TDb) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/** The events and their rollups in one transaction: the figures the panel reads never differ from the events. */
async function insertEvents(db: TDb, events: TNewAnalyticsEvent[]): Promise<void> {
  await inTransaction(db, async (trx) => {
    for (const chunk of chunked(events, MAX_ROWS_PER_INSERT)) {
      await trx
        .insertInto('analytics_events')
        .values(
          chunk.map((event) => ({
            id: event.id,
            project_id: event.siteId,
            file_id: event.fileId,
            visitor_id: event.visitorId,
            type: event.type,
            details: event.details,
            created_at: event.now,
          })),
        )
        .execute();
    }
    await rollUpEvents(trx, events);
  });
}

interface TDailyDelta {
  siteId: string;
  scope: string;
  day: number;
  views: number;
  downloads: number;
  uniqueVisitors: number;
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Adds events to the daily rollups. A site's scope takes every event of the site (its views are
 * page views, its downloads every download); a file's scope the events of that file. Visitors new to
 * a day are those whose (scope, day, visitor) row this insert created: exact even when several
 * processes write at once (PostgreSQL makes the second insert of a row wait for the first, then do
 * nothing). Rows go in key order, so two batches lock shared rows in the same order and never deadlock.
 */
async function rollUpEvents(db: TDb, events: readonly TNewAnalyticsEvent[]): Promise<void> {
  const deltas = new Map<string, TDailyDelta>();
  /** New all-time visitors by site and scope. */
  const newVisitors = new Map<string, number>();
  const visitorDays = new Map<string, { project_id: string; scope: string; day: number; visitor_id: string }>();
  const add = (event: TNewAnalyticsEvent, scope: string, views: number, downloads: number) => {
    const day = dayOf(event.now);
    const key = `${event.siteId}\u0000${scope}\u0000${day}`;
    const delta = deltas.get(key) ?? { siteId: event.siteId, scope, day, views: 0, downloads: 0, uniqueVisitors: 0 };
    delta.views += views;
    delta.downloads += downloads;
    deltas.set(key, delta);
    if (event.visitorId !== null) visitorDays.set(`${key}\u0000${event.visitorId}`, { project_id: event.siteId, scope, day, visitor_id: event.visitorId });
  };
  for (const event of events) {
    const isView = event.type === 'view' ? 1 : 0;
    const isDownload = event.type === 'download' ? 1 : 0;
    add(event, SITE_SCOPE, event.fileId === null ? isView : 0, isDownload);
    if (event.fileId !== null) add(event, event.fileId, isView, isDownload);
  }
  if (visitorDays.size > 0) {
    const rows = [...visitorDays.entries()].sort(([a], [b]) => compareText(a, b)).map(([, row]) => row);
    const created: typeof rows = [];
    for (const chunk of chunked(rows, MAX_ROWS_PER_INSERT)) {
      const inserted = await db
        .insertInto('analytics_visitor_days')
        .values(chunk)
        .onConflict((oc) => oc.columns(['project_id', 'scope', 'day', 'visitor_id']).doNothing())
        .returning(['project_id', 'scope', 'day', 'visitor_id'])
        .execute();
      created.push(...inserted);
    }
    if (created.length > 0) {
      const lastDays = new Map<string, { project_id: string; scope: string; visitor_id: string; last_day: number }>();
      for (const row of created) {
        deltas.get(`${row.project_id}\u0000${row.scope}\u0000${row.day}`)!.uniqueVisitors += 1;
        const key = `${row.project_id}\u0000${row.scope}\u0000${row.visitor_id}`;
        const seen = lastDays.get(key);
        if (!seen || seen.last_day < row.day) lastDays.set(key, { project_id: row.project_id, scope: row.scope, visitor_id: row.visitor_id, last_day: row.day });
      }
      const rows = [...lastDays.entries()].sort(([a], [b]) => compareText(a, b)).map(([, row]) => row);
      // Visitors the site (or file) never had: the rows this insert creates (exact under concurrent writers, as above).
      const firstSeen: Array<{ project_id: string; scope: string; visitor_id: string }> = [];
      for (const chunk of chunked(rows, MAX_ROWS_PER_INSERT)) {
        const inserted = await db
          .insertInto('analytics_visitors')
          .values(chunk)
          .onConflict((oc) => oc.columns(['project_id', 'scope', 'visitor_id']).doNothing())
          .returning(['project_id', 'scope', 'visitor_id'])
          .execute();
        firstSeen.push(...inserted);
      }
      const firstSeenKeys = new Set(firstSeen.map((row) => `${row.project_id}\u0000${row.scope}\u0000${row.visitor_id}`));
      for (const row of firstSeen) {
        const key = `${row.project_id}\u0000${row.scope}`;
        newVisitors.set(key, (newVisitors.get(key) ?? 0) + 1);
      }
      // The others' last day moves forward (never back: a late event of an earlier day leaves it).
      const seen = rows.filter((row) => !firstSeenKeys.has(`${row.project_id}\u0000${row.scope}\u0000${row.visitor_id}`));
      for (const chunk of chunked(seen, MAX_ROWS_PER_INSERT)) {
        await db
          .insertInto('analytics_visitors')
          .values(chunk)
          .onConflict((oc) =>
            oc
              .columns(['project_id', 'scope', 'visitor_id'])
              .doUpdateSet({ last_day: (eb) => eb.ref('excluded.last_day') })
              .where('analytics_visitors.last_day', '<', (eb) => eb.ref('excluded.last_day')),
          )
          .execute();
      }
    }
  }
  // Key order (site, scope, day) is also the totals' order (site, scope).
  const sorted = [...deltas.entries()].sort(([a], [b]) => compareText(a, b)).map(([, d]) => d);
  for (const chunk of chunked(sorted, MAX_ROWS_PER_INSERT)) {
    await db
      .insertInto('analytics_daily')
      .values(chunk.map((d) => ({ project_id: d.siteId, scope: d.scope, day: d.day, views: d.views, downloads: d.downloads, unique_visitors: d.uniqueVisitors })))
      .onConflict((oc) =>
        oc.columns(['project_id', 'scope', 'day']).doUpdateSet((eb) => ({
          views: eb('analytics_daily.views', '+', eb.ref('excluded.views')),
          downloads: eb('analytics_daily.downloads', '+', eb.ref('excluded.downloads')),
          unique_visitors: eb('analytics_daily.unique_visitors', '+', eb.ref('excluded.unique_visitors')),
        })),
      )
      .execute();
  }
  const totals = new Map<string, { project_id: string; scope: string; views: number; downloads: number; unique_visitors: number }>();
  for (const d of sorted) {
    const key = `${d.siteId}\u0000${d.scope}`;
    const total = totals.get(key) ?? { project_id: d.siteId, scope: d.scope, views: 0, downloads: 0, unique_visitors: newVisitors.get(key) ?? 0 };
    total.views += d.views;
    total.downloads += d.downloads;
    totals.set(key, total);
  }
  for (const chunk of chunked([...totals.values()], MAX_ROWS_PER_INSERT)) {
    await db
      .insertInto('analytics_totals')
      .values(chunk)
      .onConflict((oc) =>
        oc.columns(['project_id', 'scope']).doUpdateSet((eb) => ({
          views: eb('analytics_totals.views', '+', eb.ref('excluded.views')),
          downloads: eb('analytics_totals.downloads', '+', eb.ref('excluded.downloads')),
          unique_visitors: eb('analytics_totals.unique_visitors', '+', eb.ref('excluded.unique_visitors')),
        })),
      )
      .execute();
  }
}

const viewsSince = (db: TDb, visitorId: string, siteId: string, since: number) =>
  db
    .selectFrom('analytics_events')
    .select('id')
    .where('visitor_id', '=', visitorId)
    .where('project_id', '=', siteId)
    .where('type', '=', 'view')
    .where('created_at', '>', since)
    .limit(1);
// Every beacon asks one of these (the view dedupe index answers it): built and compiled once per runtime.
const siteViewSinceQuery = compiledQuery((db: TDb, visitorId: string, siteId: string, since: number) => viewsSince(db, visitorId, siteId, since).where('file_id', 'is', null));
const fileViewSinceQuery = compiledQuery((db: TDb, visitorId: string, siteId: string, since: number, fileId: string) =>
  viewsSince(db, visitorId, siteId, since).where('file_id', '=', fileId),
);

/** Whether this visitor's view of the site (fileId null) or of one file was recorded after `since`. */
export async function hasViewSince(db: TDb, view: { siteId: string; fileId: string | null; visitorId: string; since: number }, queries?: TQueryCache): Promise<boolean> {
  const { rows } =
    view.fileId === null
      ? await siteViewSinceQuery(db, queries, view.visitorId, view.siteId, view.since)
      : await fileViewSinceQuery(db, queries, view.visitorId, view.siteId, view.since, view.fileId);
  return rows.length > 0;
}

/**
 * The views counted after `since` (the latest of each site, file and visitor), at most `limit`:
 * what a runtime's view ledger starts from. Read site by site through the (site, time) index.
 */
export async function listViewsSince(db: TDb, since: number, limit: number): Promise<TCountedView[]> {
  const rows = await db
    .selectFrom('analytics_events')
    .select(['project_id', 'file_id', 'visitor_id', (eb) => eb.fn.max('created_at').as('at')])
    .where('project_id', 'in', db.selectFrom('projects').select('id'))
    .where('created_at', '>', since)
    .where('type', '=', 'view')
    .where('visitor_id', 'is not', null)
    .groupBy(['project_id', 'file_id', 'visitor_id'])
    .limit(limit)
    .execute();
  return rows.map((row) => ({ siteId: row.project_id, fileId: row.file_id, visitorId: row.visitor_id!, at: Number(row.at) }));
}

export interface TTrafficTotals {
  views: number;
  downloads: number;
  uniqueVisitors: number;
}

/**
 * Views, downloads and distinct visitors of a site or of one file, from the rollups (never the
 * events). A site's views are page views (events without a file); its downloads include every
 * file's and the ZIP of all. Given `sinceDay`, only the days from then on (distinct visitors of that
 * trailing range: those last seen in it).
 */
export async function countTraffic(db: TDb, scope: { siteId: string; fileId?: string | undefined; sinceDay?: number | undefined }): Promise<TTrafficTotals> {
  const key = scope.fileId ?? SITE_SCOPE;
  const sinceDay = scope.sinceDay;
  if (sinceDay === undefined) {
    // All time: the one totals row.
    const row = await db
      .selectFrom('analytics_totals')
      .select(['views', 'downloads', 'unique_visitors'])
      .where('project_id', '=', scope.siteId)
      .where('scope', '=', key)
      .executeTakeFirst();
    return { views: Number(row?.views ?? 0), downloads: Number(row?.downloads ?? 0), uniqueVisitors: Number(row?.unique_visitors ?? 0) };
  }
  // A trailing range: its days' rows, and the visitors last seen in it.
  const [t, u] = await Promise.all([
    db
      .selectFrom('analytics_daily')
      .select((eb) => [eb.fn.sum<number | null>('views').as('views'), eb.fn.sum<number | null>('downloads').as('downloads')])
      .where('project_id', '=', scope.siteId)
      .where('scope', '=', key)
      .where('day', '>=', sinceDay)
      .executeTakeFirst(),
    db
      .selectFrom('analytics_visitors')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', scope.siteId)
      .where('scope', '=', key)
      .where('last_day', '>=', sinceDay)
      .executeTakeFirstOrThrow(),
  ]);
  return { views: Number(t?.views ?? 0), downloads: Number(t?.downloads ?? 0), uniqueVisitors: Number(u.n) };
}

export interface TDailyTraffic {
  day: number;
  views: number;
  downloads: number;
  uniqueVisitors: number;
}

/** The rollup rows of a site (or file) from `fromDay` to `toDay`, oldest first; days without traffic are absent. */
export async function listDailyTraffic(db: TDb, scope: { siteId: string; fileId?: string | undefined }, fromDay: number, toDay: number): Promise<TDailyTraffic[]> {
  const rows = await db
    .selectFrom('analytics_daily')
    .select(['day', 'views', 'downloads', 'unique_visitors'])
    .where('project_id', '=', scope.siteId)
    .where('scope', '=', scope.fileId ?? SITE_SCOPE)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .orderBy('day')
    .execute();
  return rows.map((r) => ({ day: Number(r.day), views: Number(r.views), downloads: Number(r.downloads), uniqueVisitors: Number(r.unique_visitors) }));
}

/** Every rollup row of a site, all scopes, oldest day first (the engagement export). */
export async function listDailyTrafficOfSite(db: TDb, siteId: string): Promise<Array<TDailyTraffic & { scope: string }>> {
  const rows = await db
    .selectFrom('analytics_daily')
    .select(['scope', 'day', 'views', 'downloads', 'unique_visitors'])
    .where('project_id', '=', siteId)
    .orderBy('day')
    .orderBy('scope')
    .execute();
  return rows.map((r) => ({ scope: r.scope, day: Number(r.day), views: Number(r.views), downloads: Number(r.downloads), uniqueVisitors: Number(r.unique_visitors) }));
}

/** Views and downloads of every scope of a site (its own under SITE_SCOPE, each file's under its id). */
export async function countTrafficByScope(db: TDb, siteId: string): Promise<Map<string, { views: number; downloads: number }>> {
  const rows = await db.selectFrom('analytics_totals').select(['scope', 'views', 'downloads']).where('project_id', '=', siteId).execute();
  return new Map(rows.map((r) => [r.scope, { views: Number(r.views), downloads: Number(r.downloads) }]));
}

/** Page views and downloads per site, for lists of many sites. */
export async function countTrafficBySite(db: TDb, siteIds: readonly string[]): Promise<Map<string, { views: number; downloads: number }>> {
  const out = new Map<string, { views: number; downloads: number }>();
  if (siteIds.length === 0) return out;
  const rows = await db
    .selectFrom('analytics_totals')
    .select(['project_id', 'views', 'downloads'])
    .where('project_id', 'in', [...siteIds])
    .where('scope', '=', SITE_SCOPE)
    .execute();
  for (const r of rows) out.set(r.project_id, { views: Number(r.views), downloads: Number(r.downloads) });
  return out;
}

/** Page views per site, for lists of many sites. */
export async function countPageViewsBySite(db: TDb, siteIds: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const [id, traffic] of await countTrafficBySite(db, siteIds)) if (traffic.views > 0) out.set(id, traffic.views);
  return out;
}

export type TActivityRow = Pick<Selectable<AnalyticsEventsTable>, 'type' | 'details' | 'created_at' | 'file_id'>;

/** The newest events of a site or file (after `since` and up to `until`, when given), newest first. */
export async function listRecentActivity(
  db: TDb,
  scope: { siteId: string; fileId?: string | undefined; since?: number | undefined; until?: number | undefined },
  limit: number,
): Promise<TActivityRow[]> {
  let query = db.selectFrom('analytics_events').select(['type', 'details', 'created_at', 'file_id']).where('project_id', '=', scope.siteId);
  if (scope.fileId) query = query.where('file_id', '=', scope.fileId);
  if (scope.since !== undefined) query = query.where('created_at', '>', scope.since);
  if (scope.until !== undefined) query = query.where('created_at', '<=', scope.until);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

export interface TNewProductEvent {
  id: string;
  name: string;
  trigger: string | null;
  siteId: string | null;
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
      project_id: event.siteId,
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
