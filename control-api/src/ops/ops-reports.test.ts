/**
 * The operator's reports (npm run stats, npm run sites) on both databases, over sites made the way
 * the service makes them: publishes by an account and by an anonymous creator, seeded sites that
 * are live, expired, deleted and taken down, and visitors' views, downloads, favourites and comments.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { derivedKeys } from '@dropsite/shared';
import { isDialectAvailable, TEST_DIALECTS, testAppDatabase } from '@dropsite/testkit/control-api/test-database';
import { createSignedInCreator, type TTestCreator } from '@dropsite/testkit/control-api/accounts';
import { buildUploadForm, postUpload } from '@dropsite/testkit/control-api/fixtures';
import { createBrowser, seedSite, type TSeededSite } from '@dropsite/testkit/control-api/site-fixtures';
import { createFakeClock, startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { markSiteDeleted } from '../site-records/site-records.repository.ts';
import { recountUsage } from '../billing/usage.service.ts';
import { takeDownSite } from '../site-management/takedown.ts';
import { findSiteDetail, listSites } from './site-directory.ts';
import { readSiteStats } from './site-stats.ts';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

describe.each(TEST_DIALECTS)('the operator reports (%s)', async (dialect) => {
  const available = await isDialectAvailable(dialect);
  const database = testAppDatabase(dialect, 'opsreports');
  const clock = createFakeClock(Date.UTC(2026, 10, 22, 12, 0, 0));
  let app: TTestApp;
  let owner: TTestCreator;
  let owned: { slug: string; bytes: number };
  let anonymous: { slug: string; bytes: number };
  let live: TSeededSite;
  let expired: TSeededSite;
  let deleted: TSeededSite;
  let takenDown: TSeededSite;
  const derivedBytes = 777;
  let removableFrom = 0;

  const publish = async (title: string, text: string, headers: Record<string, string> = {}) => {
    const bytes = new TextEncoder().encode(text);
    const { status, body } = await postUpload(app.url, buildUploadForm([{ name: 'notes.txt', type: 'text/plain', bytes }], { title }), headers);
    expect(status).toBe(201);
    return { slug: String(body.slug), bytes: bytes.byteLength };
  };
  const sizeOf = (site: TSeededSite) => site.files.reduce((sum, f) => sum + f.size, 0);
  const later = () => clock.advance(MINUTE_MS);

  beforeAll(async () => {
    if (!available) return;
    app = await startTestApp({ clock, startWorker: false, config: database.config });
    owner = await createSignedInCreator(app.deps, { email: 'Owner@Example.com' });
    await createSignedInCreator(app.deps, { email: 'unproven@example.com', verified: false });

    // Oldest first, a minute apart.
    owned = await publish('Owned by an account', 'the account’s notes', { cookie: owner.cookie });
    later();
    anonymous = await publish('Published anonymously', 'anonymous notes, a little longer');
    later();
    live = await seedSite(app, { title: 'Live and visited', fileCount: 2 });
    later();
    expired = await seedSite(app, { title: 'Expired', fileCount: 1, expiresAt: clock.now() - MINUTE_MS });
    later();
    deleted = await seedSite(app, { title: 'Deleted', fileCount: 1, password: 'a long secret' });
    removableFrom = clock.now() + 7 * DAY_MS;
    await markSiteDeleted(app.deps.db, deleted.project.id, { deletedAt: clock.now(), purgeFrom: removableFrom });
    later();
    takenDown = await seedSite(app, { title: 'Disputed', fileCount: 1 });
    await takeDownSite(app.deps, takenDown.slug, 'Court order 2026-118');

    // What the builder derived from the account's file, found by the usage recount.
    const ownedFile = await app.deps.db
      .selectFrom('files')
      .innerJoin('projects', 'projects.id', 'files.project_id')
      .select('files.sha256')
      .where('projects.slug', '=', owned.slug)
      .executeTakeFirstOrThrow();
    await app.deps.storage.put(derivedKeys(ownedFile.sha256).thumbnail, Buffer.alloc(derivedBytes));
    await recountUsage(app.deps);

    // Yesterday two visitors see the live site (one favourites a file and comments on it, one downloads it); today one more.
    const fileId = live.files[0]!.id;
    const first = createBrowser(app);
    const second = createBrowser(app);
    expect((await first.json('/api/analytics/view', { method: 'POST', json: { projectId: live.project.id } })).body).toMatchObject({ counted: true });
    expect((await second.json('/api/analytics/view', { method: 'POST', json: { projectId: live.project.id } })).body).toMatchObject({ counted: true });
    expect((await first.json('/api/favorites', { method: 'POST', json: { projectId: live.project.id, fileId } })).status).toBe(200);
    expect((await first.json('/api/comments', { method: 'POST', json: { projectId: live.project.id, fileId, commentText: 'Lovely light', threadId: null } })).status).toBe(201);
    const download = await second.fetch(`/api/files/${fileId}?mode=download`);
    expect(download.status).toBe(200);
    await download.arrayBuffer();
    // A download is counted once its response has finished, off the request.
    await vi.waitFor(
      async () => {
        await app.deps.analytics.flush();
        expect((await findSiteDetail(app.deps.db, live.slug, clock.now()))?.downloads).toBe(1);
      },
      { timeout: 2_000, interval: 20 },
    );
    clock.advance(DAY_MS);
    expect((await createBrowser(app).json('/api/analytics/view', { method: 'POST', json: { projectId: live.project.id } })).body).toMatchObject({ counted: true });
    await app.deps.analytics.flush();
  });
  afterAll(async () => {
    if (!available) return;
    await app.close();
    await database.drop();
  });

  it.skipIf(!available)('counts the sites by state, their files and bytes, the creators, and the views per day', async () => {
    const stats = await readSiteStats(app.deps.db, { now: clock.now(), days: 3 });
    expect(stats.sites).toEqual({ total: 6, live: 1, building: 2, failed: 0, expired: 1, deleted: 1, taken_down: 1 });
    expect(stats.files).toEqual({
      count: 7,
      originalBytes: owned.bytes + anonymous.bytes + sizeOf(live) + sizeOf(expired) + sizeOf(deleted) + sizeOf(takenDown),
      derivedBytes,
    });
    expect(stats.creators).toEqual({ accounts: 2, verifiedAccounts: 1, anonymousSessions: 1, activeAnonymousSessions: 1 });
    expect(stats.traffic).toEqual({
      days: 3,
      views: 3,
      downloads: 1,
      perDay: [
        { date: '2026-11-21', views: 0, downloads: 0 },
        { date: '2026-11-22', views: 2, downloads: 1 },
        { date: '2026-11-23', views: 1, downloads: 0 },
      ],
    });
    // A window that ends before the views: none counted.
    expect((await readSiteStats(app.deps.db, { now: Date.UTC(2026, 10, 21, 23, 0, 0), days: 1 })).traffic.views).toBe(0);
  });

  it.skipIf(!available)('lists the sites newest first with owner, state, files and bytes; filters by owner and limits the count', async () => {
    const all = await listSites(app.deps.db, { now: clock.now(), limit: 50 });
    expect(all.map((s) => [s.slug, s.state, s.files])).toEqual([
      [takenDown.slug, 'taken_down', 1],
      [deleted.slug, 'deleted', 1],
      [expired.slug, 'expired', 1],
      [live.slug, 'live', 2],
      [anonymous.slug, 'building', 1],
      [owned.slug, 'building', 1],
    ]);
    expect(all.find((s) => s.slug === owned.slug)).toMatchObject({
      title: 'Owned by an account',
      owner: { kind: 'account', creatorId: owner.id, email: 'owner@example.com' },
      bytes: owned.bytes,
    });
    expect(all.find((s) => s.slug === anonymous.slug)?.owner.kind).toBe('anonymous');
    expect(all.find((s) => s.slug === live.slug)).toMatchObject({ owner: { kind: 'none' }, bytes: sizeOf(live) });

    expect((await listSites(app.deps.db, { now: clock.now(), limit: 2 })).map((s) => s.slug)).toEqual([takenDown.slug, deleted.slug]);
    for (const who of ['OWNER@example.com', owner.id]) {
      expect((await listSites(app.deps.db, { now: clock.now(), limit: 50, owner: who })).map((s) => s.slug)).toEqual([owned.slug]);
    }
    expect(await listSites(app.deps.db, { now: clock.now(), limit: 50, owner: 'nobody@example.com' })).toEqual([]);
  });

  it.skipIf(!available)('finds one site in detail: files, engagement counts, password set or not (never its hash)', async () => {
    const detail = await findSiteDetail(app.deps.db, live.slug, clock.now());
    expect(detail).toMatchObject({
      slug: live.slug,
      title: 'Live and visited',
      state: 'live',
      hasPassword: false,
      expiresAt: null,
      views: 3,
      downloads: 1,
      favorites: 1,
      comments: 1,
    });
    expect(detail?.fileList).toEqual(live.files.map((f) => ({ name: f.name, type: f.type, kind: f.kind, size: f.size, version: 1 })));

    const locked = await findSiteDetail(app.deps.db, deleted.slug, clock.now());
    expect(locked).toMatchObject({ state: 'deleted', hasPassword: true, expiresAt: removableFrom });
    expect(JSON.stringify(locked)).not.toContain(deleted.project.password_hash!);
  });

  it.skipIf(!available)('finds a taken-down site with its reason, an expired one with its expiry, and nothing for an unknown slug', async () => {
    expect(await findSiteDetail(app.deps.db, takenDown.slug, clock.now())).toMatchObject({
      state: 'taken_down',
      takedownReason: 'Court order 2026-118',
      takenDownAt: expect.any(Number),
    });
    expect(await findSiteDetail(app.deps.db, expired.slug, clock.now())).toMatchObject({ state: 'expired', expiresAt: expired.project.expires_at });
    expect(await findSiteDetail(app.deps.db, 'no-such-site', clock.now())).toBeNull();
  });
});
