/**
 * The process state lives in the runtime: two runtimes built from different configs in one
 * process share no limiter, key or cache, and close() writes the analytics events still waiting.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from './db/ids.ts';
import { createDatabase } from './db/database.ts';
import { createRuntime, type TRuntime } from './runtime.ts';
import { testConfig } from '@dropsite/testkit/control-api/test-app';
import { makeSiteRow } from '@dropsite/testkit/control-api/test-database';

describe('createRuntime', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'dropsite-runtime-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  async function runtimeIn(name: string, overrides: Parameters<typeof testConfig>[1] = {}): Promise<TRuntime> {
    const dataDir = path.join(root, name);
    return createRuntime(testConfig(dataDir, overrides), { runBuilder: false });
  }

  it('gives two runtimes of different configs their own limits, keys and caches', async () => {
    const base = testConfig(path.join(root, 'unused'));
    const strict = await runtimeIn('strict', { rateLimits: { ...base.rateLimits, writesPerMinute: 1 }, sessionSecret: 'a'.repeat(40) });
    const loose = await runtimeIn('loose', { rateLimits: { ...base.rateLimits, writesPerMinute: 1000 }, sessionSecret: 'b'.repeat(40) });
    try {
      const a = strict.deps;
      const b = loose.deps;
      expect(a.limits.requests.writes).not.toBe(b.limits.requests.writes);
      expect((await a.limits.requests.writes.take('203.0.113.7')).allowed).toBe(true);
      expect((await a.limits.requests.writes.take('203.0.113.7')).allowed).toBe(false);
      // The other runtime counted nothing for that address.
      expect((await b.limits.requests.writes.take('203.0.113.7')).allowed).toBe(true);
      expect((await b.limits.requests.writes.take('203.0.113.7')).allowed).toBe(true);

      for (const key of ['limits', 'keys', 'mailer', 'caches', 'analytics'] as const) expect(a[key]).not.toBe(b[key]);
      expect(a.limits.archives).not.toBe(b.limits.archives);
      expect(a.limits.publish).not.toBe(b.limits.publish);
      expect(a.caches.reads).toBeDefined();
      expect(a.caches.reads).not.toBe(b.caches.reads);
      expect(a.caches.queries).not.toBe(b.caches.queries);
      expect(a.caches.visitorCookies).not.toBe(b.caches.visitorCookies);
      expect(a.caches.knownVisitors).not.toBe(b.caches.knownVisitors);
      // Keys come from each runtime's own secret, loaded before any request.
      expect(a.keys?.cookie.visitor.export().equals(b.keys!.cookie.visitor.export())).toBe(false);

      a.caches.views.note({ siteId: 'site', fileId: null, visitorId: 'visitor' }, 1);
      a.caches.knownVisitors.add('visitor');
      expect(b.caches.views.size()).toBe(0);
      expect(b.caches.knownVisitors.size).toBe(0);
    } finally {
      await strict.close();
      await loose.close();
    }
  });

  it('writes the analytics events still waiting in its batch when it closes', async () => {
    const runtime = await runtimeIn('flush');
    const site = makeSiteRow();
    await runtime.deps.db.insertInto('projects').values(site).execute();
    const event = { siteId: site.id, fileId: null, visitorId: 'visitor-1', type: 'view' as const, details: 'Viewed the site', now: Date.now() };
    // Held for the batcher's next write (50 ms on); close() runs before that comes.
    const written = runtime.deps.analytics.insert({ ...event, id: newId() });
    await runtime.close();
    await written;

    const reopened = await createDatabase(runtime.deps.config.databaseUrl);
    try {
      const rows = await reopened.db.selectFrom('analytics_events').select(['project_id', 'visitor_id']).execute();
      expect(rows).toEqual([{ project_id: site.id, visitor_id: 'visitor-1' }]);
    } finally {
      await reopened.close();
    }
  });

  it('starts knowing the views counted within the window before a restart, and vouches for the others on SQLite', async () => {
    const first = await runtimeIn('views');
    const site = makeSiteRow();
    await first.deps.db.insertInto('projects').values(site).execute();
    const now = Date.now();
    const windowMs = first.deps.config.viewDedupeMinutes * 60_000;
    await first.deps.analytics.insert({ id: newId(), siteId: site.id, fileId: null, visitorId: 'visitor-1', type: 'view', details: 'Viewed the site', now });
    // Outside the window: forgotten.
    await first.deps.analytics.insert({
      id: newId(),
      siteId: site.id,
      fileId: null,
      visitorId: 'visitor-2',
      type: 'view',
      details: 'Viewed the site',
      now: now - windowMs - 1,
    });
    await first.close();

    const second = await runtimeIn('views');
    try {
      const since = Date.now() - windowMs;
      expect(second.deps.caches.views.countedSince({ siteId: site.id, fileId: null, visitorId: 'visitor-1' }, since)).toBe(true);
      expect(second.deps.caches.views.countedSince({ siteId: site.id, fileId: null, visitorId: 'visitor-2' }, since)).toBe(false);
      expect(second.deps.caches.views.size()).toBe(1);
    } finally {
      await second.close();
    }
  });

  it('closes once, however often close() is called', async () => {
    const runtime = await runtimeIn('close-twice');
    await Promise.all([runtime.close(), runtime.close()]);
    await runtime.close();
  });
});
