import { describe, expect, it } from 'vitest';
import { derivedPrefix, projectUploadsPrefix, sitePrefix } from '@dropsite/shared';
import { createFakeClock, testAppForSuite, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { createBrowser, seedSite } from '@dropsite/testkit/control-api/site-fixtures';
import { sweepExpiredSites } from './expired-sites.ts';

const DAY = 86_400_000;

async function listKeys(app: TTestApp, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of app.deps.storage.list(prefix)) keys.push(object.key);
  return keys;
}

describe('the expired-site sweeper', () => {
  const clock = createFakeClock();

  const app = testAppForSuite({ clock, startWorker: false });

  it('removes an expired site’s objects and rows after the grace period, and keeps what others share', async () => {
    const expiresAt = clock.now() + DAY;
    const expired = await seedSite(app, { expiresAt });
    const live = await seedSite(app);
    // The live site holds the same content as the expired one's first file: its derived images stay.
    const shared = expired.files[0]!;
    await app.deps.db.updateTable('files').set({ sha256: shared.sha256 }).where('id', '=', live.files[0]!.id).execute();
    const visitor = createBrowser(app);
    await visitor.json('/api/comments', { method: 'POST', json: { projectId: expired.project.id, fileId: shared.id, commentText: 'Before it expired' } });

    clock.set(expiresAt);
    expect((await visitor.fetch(`/${expired.slug}`)).status).toBe(410);
    expect(await sweepExpiredSites(app.deps)).toEqual({ removed: [], failed: [] });

    clock.set(expiresAt + 7 * DAY - 1);
    expect((await sweepExpiredSites(app.deps)).removed).toEqual([]);
    expect(await sweepExpiredSites(app.deps, { graceDays: 7, dryRun: false })).toEqual({ removed: [], failed: [] });

    clock.set(expiresAt + 7 * DAY);
    expect(await sweepExpiredSites(app.deps, { dryRun: true })).toEqual({ removed: [expired.slug], failed: [] });
    expect(await listKeys(app, projectUploadsPrefix(expired.project.id))).toHaveLength(2);
    expect(await sweepExpiredSites(app.deps)).toEqual({ removed: [expired.slug], failed: [] });

    expect(await listKeys(app, projectUploadsPrefix(expired.project.id))).toEqual([]);
    expect(await listKeys(app, sitePrefix(expired.slug))).toEqual([]);
    expect(await listKeys(app, derivedPrefix(expired.files[1]!.sha256))).toEqual([]);
    expect(await listKeys(app, derivedPrefix(shared.sha256))).toHaveLength(1);
    expect(await app.deps.db.selectFrom('projects').select('id').where('id', '=', expired.project.id).execute()).toEqual([]);
    expect(await app.deps.db.selectFrom('files').select('id').where('project_id', '=', expired.project.id).execute()).toEqual([]);
    expect(await app.deps.db.selectFrom('comments').select('id').where('project_id', '=', expired.project.id).execute()).toEqual([]);
    // Only why it went is kept at its address: the link still says it expired, with nothing of the site.
    const gone = await visitor.fetch(`/${expired.slug}`);
    expect(gone.status).toBe(410);
    const goneHtml = await gone.text();
    expect(goneHtml).toContain('This site has expired');
    expect(goneHtml).not.toContain(expired.project.title);
    expect(await app.deps.db.selectFrom('removed_sites').selectAll().where('slug', '=', expired.slug).execute()).toEqual([
      { slug: expired.slug, reason: 'expired', removed_at: expect.any(Number) },
    ]);

    // The live site is untouched.
    expect(await listKeys(app, projectUploadsPrefix(live.project.id))).toHaveLength(2);
    expect((await visitor.fetch(`/${live.slug}`)).status).toBe(200);
    expect(await sweepExpiredSites(app.deps)).toEqual({ removed: [], failed: [] });
  });
});
