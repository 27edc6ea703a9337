import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as rollupsMigration from '../db/migrations/2026_11_26_0930_analytics_rollups.ts';
import * as totalsMigration from '../db/migrations/2026_11_26_1000_analytics_totals.ts';
import * as totalVisitorsMigration from '../db/migrations/2026_11_26_1200_analytics_total_visitors.ts';
import { newId } from '../db/ids.ts';
import { createTestDatabase, isDialectAvailable, makeFileRow, makeSiteRow, statementCounter, TEST_DIALECTS, type TTestDatabase } from '@dropsite/testkit/control-api/test-database';
import {
  countTraffic,
  countTrafficBySite,
  countTrafficByScope,
  createAnalyticsBatcher,
  dayOf,
  hasViewSince,
  insertAnalyticsEvent,
  listDailyTraffic,
  type TAnalyticsBatcher,
  type TNewAnalyticsEvent,
} from './analytics.repository.ts';

const DAY_MS = 86_400_000;
const DAY0 = Date.UTC(2026, 9, 1, 12);

/** What the rollups must say, counted from the raw events the way the panel counted them before rollups. */
async function countFromEvents(database: TTestDatabase, siteId: string, fileId?: string, sinceDay?: number) {
  let base = database.db.selectFrom('analytics_events').where('project_id', '=', siteId);
  if (sinceDay !== undefined) base = base.where('created_at', '>=', sinceDay * DAY_MS);
  const views = fileId ? base.where('type', '=', 'view').where('file_id', '=', fileId) : base.where('type', '=', 'view').where('file_id', 'is', null);
  const downloads = fileId ? base.where('type', '=', 'download').where('file_id', '=', fileId) : base.where('type', '=', 'download');
  const visitors = (fileId ? base.where('file_id', '=', fileId) : base).where('visitor_id', 'is not', null);
  const [v, d, u] = await Promise.all([
    views.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    downloads.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    visitors.select((eb) => eb.fn.count<number>('visitor_id').distinct().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { views: Number(v.n), downloads: Number(d.n), uniqueVisitors: Number(u.n) };
}

/** Distinct visitors per UTC day from the raw events. */
async function dailyVisitorsFromEvents(database: TTestDatabase, siteId: string, fileId?: string): Promise<Map<number, number>> {
  let query = database.db.selectFrom('analytics_events').select(['created_at', 'visitor_id']).where('project_id', '=', siteId).where('visitor_id', 'is not', null);
  if (fileId) query = query.where('file_id', '=', fileId);
  const byDay = new Map<number, Set<string>>();
  for (const row of await query.execute()) {
    const day = dayOf(row.created_at);
    byDay.set(day, (byDay.get(day) ?? new Set()).add(row.visitor_id!));
  }
  return new Map([...byDay].map(([day, set]) => [day, set.size]));
}

/** A mixed, seeded stream of views and downloads over `days` days, from `visitors` visitors. */
function mixedEvents(siteId: string, fileIds: readonly string[], count: number, days: number, visitors: number, seed = 7): TNewAnalyticsEvent[] {
  let x = seed;
  const next = (n: number) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x % n;
  };
  return Array.from({ length: count }, (_, i) => {
    const fileIndex = next(fileIds.length + 2);
    const fileId = fileIndex < fileIds.length ? fileIds[fileIndex]! : null;
    const type = next(3) === 0 ? 'download' : 'view';
    return {
      id: newId(),
      siteId: siteId,
      fileId,
      visitorId: next(10) === 0 ? null : `visitor-${next(visitors)}`,
      type,
      details: `${type} ${i}`,
      now: DAY0 + Math.floor((i / count) * days * DAY_MS),
    };
  });
}

for (const dialect of TEST_DIALECTS) {
  const available = await isDialectAvailable(dialect);

  describe.skipIf(!available)(`analytics events (${dialect})`, () => {
    let database: TTestDatabase;
    let events: TAnalyticsBatcher | undefined;
    /** The batcher a runtime on this database would hold. */
    const batcher = () => (events ??= createAnalyticsBatcher(database.db));
    const siteRow = makeSiteRow();
    const file = makeFileRow(siteRow.id, 0);

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      await database.db.insertInto('projects').values(siteRow).execute();
      await database.db.insertInto('files').values(file).execute();
    });

    afterAll(async () => {
      await database?.cleanup();
    });

    const view = (visitorId: string, overrides: Partial<TNewAnalyticsEvent> = {}): TNewAnalyticsEvent => ({
      id: newId(),
      siteId: siteRow.id,
      fileId: file.id,
      visitorId,
      type: 'view',
      details: `Viewed "${file.name}"`,
      now: Date.now(),
      ...overrides,
    });

    it('commits every event of a burst, each caller told once its own row is in', async () => {
      const before = await countTraffic(database.db, { siteId: siteRow.id });
      await Promise.all(Array.from({ length: 1200 }, (_, i) => batcher().insert(view(`burst-${i}`))));
      const after = await countTraffic(database.db, { siteId: siteRow.id, fileId: file.id });
      expect(after.views - before.views).toBe(1200);
      expect(after.uniqueVisitors).toBeGreaterThanOrEqual(1200);
    });

    it('fails only the event that cannot be stored, never the others of its burst', async () => {
      const results = await Promise.allSettled([
        batcher().insert(view('good-1')),
        batcher().insert(view('orphan', { siteId: 'no-such-project' })),
        batcher().insert(view('good-2')),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      const rows = await database.db.selectFrom('analytics_events').select('visitor_id').where('visitor_id', 'in', ['good-1', 'good-2', 'orphan']).orderBy('visitor_id').execute();
      expect(rows.map((r) => r.visitor_id)).toEqual(['good-1', 'good-2']);
    });

    it('writes a burst of views as one batch: a handful of statements, not one per view', async () => {
      const site = makeSiteRow();
      const files = [makeFileRow(site.id, 0), makeFileRow(site.id, 1), makeFileRow(site.id, 2)];
      await database.db.insertInto('projects').values(site).execute();
      await database.db.insertInto('files').values(files).execute();
      const counting = statementCounter();
      const writer = createAnalyticsBatcher(database.db.withPlugin(counting.plugin));
      const at = Date.now();
      const views = Array.from({ length: 300 }, (_, i) => view(`batch-${i % 120}`, { siteId: site.id, fileId: files[i % 3]!.id, now: at + i }));
      await Promise.all(views.map((v) => writer.insert(v)));
      // The events, the visitor-days, the visitors (new ones, then the last day of the others), the days and the totals.
      expect(counting.count()).toBeLessThanOrEqual(6);
      expect(await countTraffic(database.db, { siteId: site.id, fileId: files[1]!.id })).toEqual({ views: 100, downloads: 0, uniqueVisitors: 40 });
      expect(await countTraffic(database.db, { siteId: site.id })).toEqual({ views: 0, downloads: 0, uniqueVisitors: 120 });
    });

    it('answers view questions asked in one turn together, each as the dedupe index would alone', async () => {
      const site = makeSiteRow();
      const files = [makeFileRow(site.id, 0), makeFileRow(site.id, 1)];
      await database.db.insertInto('projects').values(site).execute();
      await database.db.insertInto('files').values(files).execute();
      const at = Date.now() - 60_000;
      await batcher().insert(view('asked-1', { siteId: site.id, fileId: null, now: at }));
      await batcher().insert(view('asked-1', { siteId: site.id, fileId: files[0]!.id, now: at }));
      await batcher().insert(view('asked-2', { siteId: site.id, fileId: files[1]!.id, now: at }));
      const counting = statementCounter();
      const asker = createAnalyticsBatcher(database.db.withPlugin(counting.plugin));
      const questions = [
        { visitorId: 'asked-1', fileId: null, since: at - 1 }, // the site view: seen
        { visitorId: 'asked-1', fileId: files[0]!.id, since: at - 1 }, // seen
        { visitorId: 'asked-1', fileId: files[1]!.id, since: at - 1 }, // another file: not seen
        { visitorId: 'asked-2', fileId: null, since: at - 1 }, // a file view is not a site view
        { visitorId: 'asked-2', fileId: files[1]!.id, since: at }, // seen, but not after since
        { visitorId: 'asked-3', fileId: files[1]!.id, since: 0 }, // nobody
      ].map((q) => ({ ...q, siteId: site.id }));
      const answers = await Promise.all(questions.map((q) => asker.hasViewSince(q)));
      expect(answers).toEqual([true, true, false, false, false, false]);
      expect(await Promise.all(questions.map((q) => hasViewSince(database.db, q)))).toEqual(answers);
      // PostgreSQL shares one round trip; SQLite, with none to share, asks each alone.
      expect(counting.count()).toBe(dialect === 'postgres' ? 1 : questions.length);
    });

    it('holds events until its cadence or a flush, then writes them with their rollups', async () => {
      const site = makeSiteRow();
      await database.db.insertInto('projects').values(site).execute();
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const writer = createAnalyticsBatcher(database.db, { flushEveryMs: 60_000 });
      const written = Promise.all([writer.insert(view('held-1', { siteId: site.id, fileId: null })), writer.insert(view('held-2', { siteId: site.id, fileId: null }))]);
      await vi.advanceTimersByTimeAsync(59_999); // just short of its cadence
      vi.useRealTimers();
      const stored = () => database.db.selectFrom('analytics_events').select('visitor_id').where('project_id', '=', site.id).execute();
      expect(await stored()).toEqual([]);
      expect((await countTraffic(database.db, { siteId: site.id })).views).toBe(0);
      await writer.flush();
      await written;
      expect(await stored()).toHaveLength(2);
      expect(await countTraffic(database.db, { siteId: site.id })).toEqual({ views: 2, downloads: 0, uniqueVisitors: 2 });
      // On its own cadence too, without a flush.
      const soon = createAnalyticsBatcher(database.db, { flushEveryMs: 20 });
      await soon.insert(view('held-3', { siteId: site.id, fileId: null }));
      expect((await countTraffic(database.db, { siteId: site.id })).views).toBe(3);
    });

    it('fails the events of a file deleted before the write, and stores the rest of the batch', async () => {
      const site = makeSiteRow();
      const kept = makeFileRow(site.id, 0);
      const gone = makeFileRow(site.id, 1);
      await database.db.insertInto('projects').values(site).execute();
      await database.db.insertInto('files').values([kept, gone]).execute();
      const writer = createAnalyticsBatcher(database.db, { flushEveryMs: 60_000 });
      const results = Promise.allSettled([
        writer.insert(view('late-1', { siteId: site.id, fileId: kept.id })),
        writer.insert(view('late-2', { siteId: site.id, fileId: gone.id })),
        writer.insert(view('late-3', { siteId: site.id, fileId: null })),
      ]);
      await database.db.deleteFrom('files').where('id', '=', gone.id).execute();
      await writer.flush();
      expect((await results).map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(await countTraffic(database.db, { siteId: site.id })).toEqual({ views: 1, downloads: 0, uniqueVisitors: 2 });
      expect(await countTraffic(database.db, { siteId: site.id, fileId: gone.id })).toEqual({ views: 0, downloads: 0, uniqueVisitors: 0 });
    });

    it('keeps daily rollups that answer exactly what the events say, per site, file, day and trailing range', async () => {
      const site = makeSiteRow();
      const files = [makeFileRow(site.id, 0), makeFileRow(site.id, 1)];
      await database.db.insertInto('projects').values(site).execute();
      await database.db.insertInto('files').values(files).execute();
      const fileIds = files.map((f) => f.id);
      const events = mixedEvents(site.id, fileIds, 3000, 40, 150);
      const writer = createAnalyticsBatcher(database.db);
      // Bursts written by several batches at once, as concurrent beacons are.
      for (let i = 0; i < events.length; i += 600) await Promise.all(events.slice(i, i + 600).map((e) => writer.insert(e)));

      for (const fileId of [undefined, ...fileIds]) {
        expect(await countTraffic(database.db, { siteId: site.id, fileId })).toEqual(await countFromEvents(database, site.id, fileId));
        for (const sinceDay of [dayOf(DAY0) + 10, dayOf(DAY0) + 33]) {
          expect(await countTraffic(database.db, { siteId: site.id, fileId, sinceDay })).toEqual(await countFromEvents(database, site.id, fileId, sinceDay));
        }
        const daily = await listDailyTraffic(database.db, { siteId: site.id, fileId }, dayOf(DAY0), dayOf(DAY0) + 45);
        expect(new Map(daily.filter((d) => d.uniqueVisitors > 0).map((d) => [d.day, d.uniqueVisitors]))).toEqual(await dailyVisitorsFromEvents(database, site.id, fileId));
        const totals = daily.reduce((sum, d) => ({ views: sum.views + d.views, downloads: sum.downloads + d.downloads }), { views: 0, downloads: 0 });
        const counted = await countFromEvents(database, site.id, fileId);
        expect(totals).toEqual({ views: counted.views, downloads: counted.downloads });
      }
      const byScope = await countTrafficByScope(database.db, site.id);
      expect(byScope.get(fileIds[0]!)).toEqual({
        views: (await countFromEvents(database, site.id, fileIds[0])).views,
        downloads: (await countFromEvents(database, site.id, fileIds[0])).downloads,
      });
      const siteCounts = await countFromEvents(database, site.id);
      expect((await countTrafficBySite(database.db, [site.id, siteRow.id])).get(site.id)).toEqual({ views: siteCounts.views, downloads: siteCounts.downloads });
    });

    it('counts a visitor once per day when the same visitor arrives in concurrent writes', async () => {
      const site = makeSiteRow();
      await database.db.insertInto('projects').values(site).execute();
      const at = DAY0 + 5 * DAY_MS;
      await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          insertAnalyticsEvent(database.db, { id: newId(), siteId: site.id, fileId: null, visitorId: 'same', type: 'view', details: 'v', now: at + i }),
        ),
      );
      expect(await listDailyTraffic(database.db, { siteId: site.id }, dayOf(at), dayOf(at))).toEqual([{ day: dayOf(at), views: 8, downloads: 0, uniqueVisitors: 1 }]);
      expect((await countTraffic(database.db, { siteId: site.id })).uniqueVisitors).toBe(1);
    });
  });

  describe.skipIf(!available)(`analytics events and rollups commit together (${dialect})`, () => {
    it('leaves no event without its rollups: a batch whose rollups cannot be written stores none of its events', async () => {
      const scratch = await createTestDatabase(dialect);
      try {
        const site = makeSiteRow();
        await scratch.db.insertInto('projects').values(site).execute();
        const writer = createAnalyticsBatcher(scratch.db);
        const event = (visitorId: string): TNewAnalyticsEvent => ({ id: newId(), siteId: site.id, fileId: null, visitorId, type: 'view', details: 'v', now: DAY0 });
        await writer.insert(event('before'));
        // The last rollup statement of the next batch fails (as a crash after the events would leave it).
        await sql`alter table analytics_totals rename to analytics_totals_away`.execute(scratch.db);
        const results = await Promise.allSettled([writer.insert(event('lost-1')), writer.insert(event('lost-2'))]);
        expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
        await sql`alter table analytics_totals_away rename to analytics_totals`.execute(scratch.db);
        const events = await scratch.db.selectFrom('analytics_events').select('visitor_id').execute();
        expect(events.map((e) => e.visitor_id)).toEqual(['before']);
        expect(await listDailyTraffic(scratch.db, { siteId: site.id }, dayOf(DAY0), dayOf(DAY0))).toEqual([{ day: dayOf(DAY0), views: 1, downloads: 0, uniqueVisitors: 1 }]);
        expect(await countTraffic(scratch.db, { siteId: site.id })).toEqual(await countFromEvents(scratch, site.id));
      } finally {
        await scratch.cleanup();
      }
    });
  });

  describe.skipIf(!available)(`analytics rollups migration (${dialect})`, () => {
    it('rolls up the events recorded before it, the same figures as the events', async () => {
      const scratch = await createTestDatabase(dialect);
      try {
        // Back to the schema before the rollups (its own tables and column gone), with events in it, then forward again.
        await sql`drop table analytics_totals`.execute(scratch.db);
        await sql`drop index projects_owner_created_idx`.execute(scratch.db);
        await sql`drop table analytics_visitors`.execute(scratch.db);
        await sql`drop table analytics_visitor_days`.execute(scratch.db);
        await sql`drop table analytics_daily`.execute(scratch.db);
        // The later comment indexes carry creator_id: they go with it.
        await sql`drop index comments_project_file_author_idx`.execute(scratch.db);
        await sql`drop index comments_file_author_idx`.execute(scratch.db);
        await sql`alter table comments drop column creator_id`.execute(scratch.db);
        const site = makeSiteRow();
        const files = [makeFileRow(site.id, 0), makeFileRow(site.id, 1)];
        await scratch.db.insertInto('projects').values(site).execute();
        await scratch.db.insertInto('files').values(files).execute();
        const events = mixedEvents(
          site.id,
          files.map((f) => f.id),
          2000,
          20,
          80,
          11,
        );
        await scratch.db
          .insertInto('analytics_events')
          .values(events.map((e) => ({ id: e.id, project_id: e.siteId, file_id: e.fileId, visitor_id: e.visitorId, type: e.type, details: e.details, created_at: e.now })))
          .execute();
        // The two migrations themselves, as an upgrade runs them (later ones of other areas stay as they are).
        // Migrations take a handle without table types, as the migrator gives them.
        const untyped = scratch.db as unknown as Kysely<unknown>;
        await rollupsMigration.up(untyped);
        await totalsMigration.up(untyped);
        await totalVisitorsMigration.up(untyped);
        for (const fileId of [undefined, files[0]!.id, files[1]!.id]) {
          expect(await countTraffic(scratch.db, { siteId: site.id, fileId })).toEqual(await countFromEvents(scratch, site.id, fileId));
          expect(await countTraffic(scratch.db, { siteId: site.id, fileId, sinceDay: dayOf(DAY0) + 12 })).toEqual(
            await countFromEvents(scratch, site.id, fileId, dayOf(DAY0) + 12),
          );
          const daily = await listDailyTraffic(scratch.db, { siteId: site.id, fileId }, dayOf(DAY0), dayOf(DAY0) + 25);
          expect(new Map(daily.filter((d) => d.uniqueVisitors > 0).map((d) => [d.day, d.uniqueVisitors]))).toEqual(await dailyVisitorsFromEvents(scratch, site.id, fileId));
        }
        // And the events written after it keep them current.
        await insertAnalyticsEvent(scratch.db, { id: newId(), siteId: site.id, fileId: null, visitorId: 'late', type: 'view', details: 'v', now: DAY0 + 30 * DAY_MS });
        expect(await countTraffic(scratch.db, { siteId: site.id })).toEqual(await countFromEvents(scratch, site.id));
      } finally {
        await scratch.cleanup();
      }
    });
  });
}
