import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZAnalyticsResponseSchema, type TAnalytics } from '@dropsite/shared';
import { loadConfig } from '../config/config.ts';
import { createFakeClock, startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { buildUploadForm } from '@dropsite/testkit/control-api/fixtures';
import { createBrowser, seedSite, type TBrowser, type TSeededSite } from '@dropsite/testkit/control-api/site-fixtures';

const DEFAULTS = loadConfig({});

describe('analytics', () => {
  let app: TTestApp;
  const clock = createFakeClock();
  let owner: TBrowser;
  let site: TSeededSite;

  beforeAll(async () => {
    app = await startTestApp({ clock, startWorker: false, config: { rateLimits: { ...DEFAULTS.rateLimits, readsPerMinute: 10_000, writesPerMinute: 10_000 } } });
    owner = createBrowser(app);
    const form = buildUploadForm([{ name: 'a.txt', type: 'text/plain', bytes: new TextEncoder().encode('a') }]);
    expect((await owner.fetch('/api/upload', { method: 'POST', body: form })).status).toBe(201);
    const sessionId = owner.cookies.get('dropsite_anon')!.split('.')[0]!;
    site = await seedSite(app, { anonymousSessionId: sessionId, fileCount: 3 });
  });
  afterAll(async () => {
    await app.close();
  });

  const analytics = async (who: TBrowser, query = ''): Promise<{ status: number; analytics?: TAnalytics }> => {
    const res = await who.json(`/api/analytics?projectId=${site.project.id}&detailed=true${query}`);
    return { status: res.status, analytics: res.status === 200 ? ZAnalyticsResponseSchema.parse(res.body).analytics : undefined };
  };
  /** Downloads are counted after the response finished, off the request: polls the count until it is the one expected. */
  const downloadsSettled = async (expected: number, query = '') => {
    await expect.poll(async () => (await analytics(owner, query)).analytics!.downloads, { timeout: 1_000, interval: 20 }).toBe(expected);
    return expected;
  };

  it('counts a visitor’s page view once per window, and file views apart', async () => {
    const visitor = createBrowser(app);
    const view = (fileId?: string) => visitor.json('/api/analytics/view', { method: 'POST', json: { projectId: site.project.id, ...(fileId ? { fileId } : {}) } });
    expect((await view()).body).toEqual({ success: true, counted: true });
    expect((await view()).body).toEqual({ success: true, counted: false });
    expect((await view(site.files[0]!.id)).body).toEqual({ success: true, counted: true });
    expect((await view(site.files[0]!.id)).body).toEqual({ success: true, counted: false });
    clock.advance(30 * 60_000);
    expect((await view()).body).toEqual({ success: true, counted: true });
    expect((await createBrowser(app).json('/api/analytics/view', { method: 'POST', json: { projectId: site.project.id } })).body).toEqual({ success: true, counted: true });

    const totals = (await analytics(owner)).analytics!;
    expect(totals.views).toBe(3);
    expect(totals.uniqueVisitors).toBe(2);
    expect((await analytics(owner, `&fileId=${site.files[0]!.id}`)).analytics!.views).toBe(1);
    expect((await view('AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
  });

  it('counts one view when a visitor’s beacons for the same file arrive at once', async () => {
    const visitor = createBrowser(app);
    await visitor.json(`/api/engagement/state?projectId=${site.project.id}`); // the visitor cookie first
    const fileId = site.files[1]!.id;
    const before = (await analytics(owner, `&fileId=${fileId}`)).analytics!.views;
    const replies = await Promise.all(Array.from({ length: 6 }, () => visitor.json('/api/analytics/view', { method: 'POST', json: { projectId: site.project.id, fileId } })));
    expect(replies.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(replies.filter((r) => (r.body as { counted: boolean }).counted)).toHaveLength(1);
    expect((await analytics(owner, `&fileId=${fileId}`)).analytics!.views).toBe(before + 1);
  });

  it('refuses the beacon when the site’s analytics are off', async () => {
    const off = await seedSite(app, { settings: { enableAnalytics: false } });
    expect((await createBrowser(app).json('/api/analytics/view', { method: 'POST', json: { projectId: off.project.id } })).status).toBe(403);
  });

  it('counts completed downloads only: whole files, final ranges and the ZIP; not partials, HEAD or previews', async () => {
    const visitor = createBrowser(app);
    const file = site.files[1]!;
    const size = site.bytes.get(file.id)!.length;
    const url = `/api/files/${file.id}?mode=download`;
    const before = (await analytics(owner)).analytics!.downloads;

    const full = await visitor.fetch(url);
    expect(Buffer.from(await full.arrayBuffer()).equals(site.bytes.get(file.id)!)).toBe(true);
    expect(await downloadsSettled(before + 1)).toBe(before + 1);

    const partial = await visitor.fetch(url, { headers: { range: 'bytes=0-9' } });
    expect(partial.status).toBe(206);
    await partial.arrayBuffer();
    const head = await visitor.fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    await (await visitor.fetch(`/api/files/${file.id}?mode=preview`)).arrayBuffer();
    await (await visitor.fetch(`/api/files/${file.id}?mode=preview&size=300`)).arrayBuffer();
    clock.advance(1000);
    // A resumed download: the rest of the file from byte 10 counts, once.
    const rest = await visitor.fetch(url, { headers: { range: `bytes=10-${size - 1}` } });
    expect(rest.status).toBe(206);
    await rest.arrayBuffer();
    expect(await downloadsSettled(before + 2)).toBe(before + 2);

    clock.advance(1000);
    const zip = await visitor.fetch(`/api/sites/${site.slug}/download`);
    expect(zip.status).toBe(200);
    await zip.arrayBuffer();
    expect(await downloadsSettled(before + 3)).toBe(before + 3);
    expect(await downloadsSettled(2, `&fileId=${file.id}`)).toBe(2);
    const recent = (await analytics(owner)).analytics!.recentActivity;
    expect(recent[0]).toMatchObject({ type: 'download', details: 'Downloaded all files (ZIP)', fileId: null });
    expect(recent[1]).toMatchObject({ type: 'download', details: `Downloaded "${file.name}"`, fileId: file.id });

    // A Download All that lists every file (a gallery's) is all files too; part of them says how many.
    clock.advance(1000);
    const everyId = site.files.map((f) => f.id).join(',');
    await (await visitor.fetch(`/api/sites/${site.slug}/download?files=${everyId}`)).arrayBuffer();
    expect(await downloadsSettled(before + 4)).toBe(before + 4);
    expect((await analytics(owner)).analytics!.recentActivity[0]).toMatchObject({ type: 'download', details: 'Downloaded all files (ZIP)' });
    clock.advance(1000);
    await (await visitor.fetch(`/api/sites/${site.slug}/download?files=${site.files[0]!.id},${site.files[1]!.id}`)).arrayBuffer();
    expect(await downloadsSettled(before + 5)).toBe(before + 5);
    expect((await analytics(owner)).analytics!.recentActivity[0]).toMatchObject({ type: 'download', details: 'Downloaded 2 files (ZIP)' });
  });

  it('does not count a download the client abandons', async () => {
    const big = await seedSite(app, { anonymousSessionId: null, fileCount: 1 });
    const file = big.files[0]!;
    const bytes = Buffer.alloc(32 * 1024 * 1024, 7);
    await app.deps.storage.put(file.storage_key, bytes);
    await app.deps.db.updateTable('files').set({ size: bytes.length }).where('id', '=', file.id).execute();
    // The response is over on the server's side (closed, not finished) once the client is gone.
    const closed = new Promise<void>((resolve) => app.server.once('request', (_req, res: http.ServerResponse) => res.once('close', resolve)));
    await new Promise<void>((resolve) => {
      const req = http.get(`${app.url}/api/files/${file.id}?mode=download`, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => resolve());
    });
    await closed;
    const rows = await app.deps.db.selectFrom('analytics_events').select('id').where('project_id', '=', big.project.id).where('type', '=', 'download').execute();
    expect(rows).toHaveLength(0);
  });

  it('reports the companion spec’s shape with the 10 newest activities, to the owner only', async () => {
    const visitor = createBrowser(app);
    const json = { projectId: site.project.id, fileId: site.files[2]!.id };
    for (let i = 0; i < 6; i++) {
      clock.advance(1000);
      await visitor.json('/api/comments', { method: 'POST', json: { ...json, commentText: `Comment ${i}` } });
    }
    clock.advance(1000);
    await visitor.json('/api/favorites', { method: 'POST', json });
    clock.advance(1000);
    await visitor.json('/api/approvals', { method: 'POST', json: { ...json, status: 'approved' } });
    clock.advance(1000);
    await createBrowser(app).json('/api/approvals', { method: 'POST', json: { ...json, status: 'rejected' } });
    clock.advance(1000);
    await createBrowser(app).json('/api/approvals', { method: 'POST', json: { ...json, status: 'pending' } });

    const res = await owner.json(`/api/analytics?projectId=${site.project.id}&detailed=true`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const body = ZAnalyticsResponseSchema.parse(res.body);
    // Pending counts the files no one has decided on: here every file but the one approved and asked changes of.
    expect(body.analytics).toMatchObject({ favorites: 1, comments: 6, approvals: { approved: 1, rejected: 1, pending: site.files.length - 1 } });
    const ofFile = async (fileId: string) =>
      ZAnalyticsResponseSchema.parse((await owner.json(`/api/analytics?projectId=${site.project.id}&fileId=${fileId}`)).body).analytics.approvals;
    expect(await ofFile(site.files[2]!.id)).toEqual({ approved: 1, rejected: 1, pending: 0 });
    expect(await ofFile(site.files[0]!.id)).toEqual({ approved: 0, rejected: 0, pending: 1 });
    expect(body.analytics.recentActivity).toHaveLength(10);
    expect(body.analytics.recentActivity[0]).toMatchObject({ type: 'approval', timestamp: new Date(clock.now()).toISOString() });
    expect(body.analytics.recentActivity[0]!.details).toMatch(/set "photo-3.jpg" back to pending$/);
    expect(body.analytics.recentActivity[1]!.details).toMatch(/requested changes on "photo-3.jpg"$/);
    expect(body.analytics.recentActivity[3]!.details).toMatch(/favourited "photo-3.jpg"$/);
    const times = body.analytics.recentActivity.map((a) => a.timestamp);
    expect([...times].sort().reverse()).toEqual(times);

    const perFile = ZAnalyticsResponseSchema.parse((await owner.json(`/api/analytics?projectId=${site.project.id}&detailed=true&fileId=${json.fileId}`)).body);
    expect(perFile).toMatchObject({ fileId: json.fileId, analytics: { comments: 6, favorites: 1 } });
    const summary = ZAnalyticsResponseSchema.parse((await owner.json(`/api/analytics?projectId=${site.project.id}`)).body);
    expect(summary.analytics.recentActivity).toEqual([]);

    // Visitors, other creators and guessed ids learn nothing, not even that the site exists.
    expect((await visitor.json(`/api/analytics?projectId=${site.project.id}&detailed=true`)).status).toBe(404);
    const otherCreator = createBrowser(app);
    await otherCreator.fetch('/api/upload', { method: 'POST', body: buildUploadForm([{ name: 'b.txt', type: 'text/plain', bytes: new TextEncoder().encode('b') }]) });
    expect((await otherCreator.json(`/api/analytics?projectId=${site.project.id}&detailed=true`)).status).toBe(404);
    expect((await owner.json('/api/analytics?projectId=AAAAAAAAAAAAAAAAAAAAAA&detailed=true')).status).toBe(404);
    expect((await owner.json(`/api/analytics?projectId=${site.project.id}&fileId=AAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(404);
  });
});
