import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../db/ids.ts';
import { createTestDatabase, isDialectAvailable, makeFileRow, makeProjectRow, TEST_DIALECTS, type TTestDatabase } from '../test-support/test-database.ts';
import { countTraffic, createAnalyticsBatcher, type TAnalyticsBatcher, type TNewAnalyticsEvent } from './analytics.repository.ts';

for (const dialect of TEST_DIALECTS) {
  const available = await isDialectAvailable(dialect);

  describe.skipIf(!available)(`analytics events (${dialect})`, () => {
    let database: TTestDatabase;
    let events: TAnalyticsBatcher | undefined;
    /** The batcher a runtime on this database would hold. */
    const batcher = () => (events ??= createAnalyticsBatcher(database.db));
    const project = makeProjectRow();
    const file = makeFileRow(project.id, 0);

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      await database.db.insertInto('projects').values(project).execute();
      await database.db.insertInto('files').values(file).execute();
    });

    afterAll(async () => {
      await database?.cleanup();
    });

    const view = (visitorId: string, overrides: Partial<TNewAnalyticsEvent> = {}): TNewAnalyticsEvent => ({
      id: newId(),
      projectId: project.id,
      fileId: file.id,
      visitorId,
      type: 'view',
      details: `Viewed "${file.name}"`,
      now: Date.now(),
      ...overrides,
    });

    it('commits every event of a burst, each caller told once its own row is in', async () => {
      const before = await countTraffic(database.db, { projectId: project.id });
      await Promise.all(Array.from({ length: 1200 }, (_, i) => batcher().insert(view(`burst-${i}`))));
      const after = await countTraffic(database.db, { projectId: project.id, fileId: file.id });
      expect(after.views - before.views).toBe(1200);
      expect(after.uniqueVisitors).toBeGreaterThanOrEqual(1200);
    });

    it('fails only the event that cannot be stored, never the others of its burst', async () => {
      const results = await Promise.allSettled([
        batcher().insert(view('good-1')),
        batcher().insert(view('orphan', { projectId: 'no-such-project' })),
        batcher().insert(view('good-2')),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      const rows = await database.db.selectFrom('analytics_events').select('visitor_id').where('visitor_id', 'in', ['good-1', 'good-2', 'orphan']).orderBy('visitor_id').execute();
      expect(rows.map((r) => r.visitor_id)).toEqual(['good-1', 'good-2']);
    });
  });
}
