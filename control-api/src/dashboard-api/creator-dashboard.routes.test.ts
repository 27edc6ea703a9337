import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DETAILS_COMMENT_THREADS_PER_FILE,
  ZActivityResponseSchema,
  ZAnalyticsResponseSchema,
  ZCommentsResponseSchema,
  ZCreatorProjectsResponseSchema,
  ZCreatorReplyResponseSchema,
  ZDailyAnalyticsResponseSchema,
  ZEngagementUpdatesResponseSchema,
  ZFileCommentsResponseSchema,
  ZProjectDetailsResponseSchema,
} from '@dropsite/shared';
import { loadConfig } from '../config/config.ts';
import { newId } from '../db/ids.ts';
import { browserSignedInAs, createSignedInCreator } from '@dropsite/testkit/control-api/accounts';
import { ACTIVITY_SETTLE_MS } from './creator-dashboard.service.ts';
import { buildUploadForm } from '@dropsite/testkit/control-api/fixtures';
import { createBrowser, seedSite, type TBrowser, type TSeededSite } from '@dropsite/testkit/control-api/site-fixtures';
import { createFakeClock, startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';

const DEFAULTS = loadConfig({});
const DAY_MS = 86_400_000;

/** A browser signed in as a new creator. */
async function signedInBrowser(app: TTestApp, email: string): Promise<{ browser: TBrowser; id: string }> {
  const creator = await createSignedInCreator(app.deps, { email, name: email.split('@')[0] });
  return { browser: browserSignedInAs(app, creator), id: creator.id };
}

async function seedOwnedSite(app: TTestApp, ownerId: string, options: Parameters<typeof seedSite>[1] = {}): Promise<TSeededSite> {
  const site = await seedSite(app, options);
  await app.deps.db.updateTable('projects').set({ owner_creator_id: ownerId, workspace_id: ownerId }).where('id', '=', site.project.id).execute();
  return site;
}

describe('the creator dashboard', () => {
  let app: TTestApp;
  const clock = createFakeClock();
  let owner: { browser: TBrowser; id: string };
  let other: { browser: TBrowser; id: string };
  let site: TSeededSite;
  let locked: TSeededSite;

  beforeAll(async () => {
    app = await startTestApp({ clock, startWorker: false, config: { rateLimits: { ...DEFAULTS.rateLimits, readsPerMinute: 100_000, writesPerMinute: 100_000 } } });
    owner = await signedInBrowser(app, 'owner@example.com');
    other = await signedInBrowser(app, 'other@example.com');
    locked = await seedOwnedSite(app, owner.id, { title: 'Locked one', password: 'open sesame' });
    clock.advance(1000);
    site = await seedOwnedSite(app, owner.id, { title: 'Autumn Wedding', fileCount: 3 });
    await seedOwnedSite(app, other.id, { title: 'Not yours' });
  });
  afterAll(async () => {
    await app.close();
  });

  const visit = async (who: TBrowser, fileId?: string) => who.json('/api/analytics/view', { method: 'POST', json: { projectId: site.project.id, ...(fileId ? { fileId } : {}) } });

  it('lists the creator’s own sites, newest first, with their counts, files and first thumbnail', async () => {
    const visitor = createBrowser(app);
    await visit(visitor);
    const target = { projectId: site.project.id, fileId: site.files[0]!.id };
    await visitor.json('/api/favorites', { method: 'POST', json: target });
    await visitor.json('/api/comments', { method: 'POST', json: { ...target, commentText: 'Lovely' } });
    await visitor.json('/api/approvals', { method: 'POST', json: { ...target, status: 'approved' } });

    const res = await owner.browser.json('/api/creators/me/projects');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const body = ZCreatorProjectsResponseSchema.parse(res.body);
    expect(body.creator).toMatchObject({ id: owner.id, email: 'owner@example.com', name: 'owner' });
    expect(body.projects.map((p) => p.title)).toEqual(['Autumn Wedding', 'Locked one']);
    expect(body.projects[0]).toMatchObject({
      id: site.project.id,
      url: `${app.url}/${site.slug}`,
      favorites_count: 1,
      comments_count: 1,
      approvals_count: 1,
      approved_count: 1,
      changes_requested_count: 0,
      unreviewed_files_count: 2,
      views_count: 1,
      downloads_count: 0,
      file_count: 3,
      has_password: false,
      thumbnail_url: `/api/files/${site.files[0]!.id}?mode=preview&size=300`,
      settings: { enable_favorites: true, enable_comments: true, enable_approvals: true },
    });
    // A locked site's cover comes through the owner's own route: the public file route keeps refusing it.
    const cover = `/api/projects/${locked.project.id}/files/${locked.files[0]!.id}/thumbnail`;
    expect(body.projects[1]).toMatchObject({ has_password: true, thumbnail_url: cover });
    const picture = await owner.browser.fetch(cover);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toMatch(/^image\//);
    expect(picture.headers.get('cache-control')).toBe('private, no-cache');
    expect((await other.browser.fetch(cover)).status).toBe(404);
    expect((await createBrowser(app).fetch(cover)).status).toBe(401);
    expect((await createBrowser(app).fetch(`/api/files/${locked.files[0]!.id}?mode=preview&size=300`)).status).toBe(401);

    const byId = await owner.browser.json(`/api/creators/projects/${owner.id}`);
    expect(ZCreatorProjectsResponseSchema.parse(byId.body).projects).toEqual(body.projects);
    expect((await owner.browser.json(`/api/creators/projects/${other.id}`)).status).toBe(404);
    const empty = ZCreatorProjectsResponseSchema.parse((await (await signedInBrowser(app, 'new@example.com')).browser.json('/api/creators/me/projects')).body);
    expect(empty.projects).toEqual([]);
  });

  it('answers a site’s details with totals, per-file entries and threads, bounded per file', async () => {
    const fileId = site.files[1]!.id;
    const visitors = Array.from({ length: 3 }, () => createBrowser(app));
    for (const [i, v] of visitors.entries()) {
      await visit(v, fileId);
      await v.json('/api/favorites', { method: 'POST', json: { projectId: site.project.id, fileId } });
      await v.json('/api/approvals', { method: 'POST', json: { projectId: site.project.id, fileId, status: i === 0 ? 'rejected' : 'approved' } });
    }
    const threads = DETAILS_COMMENT_THREADS_PER_FILE + 5;
    for (let i = 0; i < threads; i++) {
      clock.advance(1000);
      await visitors[0]!.json('/api/comments', { method: 'POST', json: { projectId: site.project.id, fileId, commentText: `Thread ${i}` } });
    }
    clock.advance(1000);
    const newest = (await visitors[1]!.json<{ comment: { id: string } }>('/api/comments', { method: 'POST', json: { projectId: site.project.id, fileId, commentText: 'Newest' } }))
      .body.comment.id;
    clock.advance(1000);
    await visitors[2]!.json('/api/comments', { method: 'POST', json: { projectId: site.project.id, fileId, commentText: 'A reply', threadId: newest } });

    const res = await owner.browser.json(`/api/projects/${site.project.id}/details`);
    expect(res.status).toBe(200);
    const { project: details } = ZProjectDetailsResponseSchema.parse(res.body);
    expect(details).toMatchObject({ id: site.project.id, title: 'Autumn Wedding', slug: site.slug, url: `${app.url}/${site.slug}` });
    expect(details.totals).toEqual({
      totalFiles: 3,
      uniqueUsers: 4,
      totalFavorites: 4,
      totalComments: threads + 3,
      totalViews: 1,
      totalDownloads: 0,
      // Two files have decisions (the first was approved earlier); the third waits for anyone's.
      totalApprovals: { approved: 3, rejected: 1, pending: 1 },
    });
    const file = details.files.find((f) => f.id === fileId)!;
    expect(file).toMatchObject({ name: 'photo-2.jpg', kind: 'image', thumbnailUrl: `/api/files/${fileId}?mode=preview&size=300`, analytics: { views: 3, downloads: 0 } });
    expect(file.totals).toEqual({ favorites: 3, comments: threads + 2, approvals: { approved: 2, rejected: 1, pending: 0 } });
    expect(file.favorites).toHaveLength(3);
    expect(file.approvals.map((a) => a.status).sort()).toEqual(['approved', 'approved', 'rejected']);
    // The newest threads only, oldest first, each with its replies.
    expect(file.comments).toHaveLength(DETAILS_COMMENT_THREADS_PER_FILE);
    expect(file.comments.at(-1)).toMatchObject({ commentText: 'Newest', isCreator: false, userEmail: '', replies: [{ commentText: 'A reply', isCreator: false }] });
    expect(file.comments[0]!.commentText).toBe(`Thread ${threads - DETAILS_COMMENT_THREADS_PER_FILE + 1}`);

    // The rest, page by page, from the thread details started with.
    const seen = [...file.comments.map((c) => c.commentText)];
    let before = file.comments[0]!.id;
    for (let page = 0; page < 10; page++) {
      const older = ZFileCommentsResponseSchema.parse((await owner.browser.json(`/api/projects/${site.project.id}/files/${fileId}/comments?before=${before}`)).body);
      seen.unshift(...older.comments.map((c) => c.commentText));
      if (!older.hasMore) break;
      before = older.comments[0]!.id;
    }
    expect(seen).toEqual([...Array.from({ length: threads }, (_, i) => `Thread ${i}`), 'Newest']);
    const first = ZFileCommentsResponseSchema.parse((await owner.browser.json(`/api/projects/${site.project.id}/files/${fileId}/comments`)).body);
    expect(first.comments.map((c) => c.id)).toEqual(file.comments.map((c) => c.id));
    expect(first.hasMore).toBe(true);
    expect((await owner.browser.json(`/api/projects/${site.project.id}/files/${fileId}/comments?before=${file.comments.at(-1)!.replies[0]!.id}`)).status).toBe(404);
    expect((await owner.browser.json(`/api/projects/${site.project.id}/files/${site.files[0]!.id}/comments?before=${before}`)).status).toBe(404);
  });

  it('names a replaced file’s version in its thumbnail URL, so a browser never shows the replaced picture', async () => {
    const replaced = await seedOwnedSite(app, owner.id, { title: 'Replaced cover' });
    const file = replaced.files[0]!;
    await app.deps.db.updateTable('files').set({ version: 2 }).where('id', '=', file.id).execute();
    const details = await owner.browser.json(`/api/projects/${replaced.project.id}/details`);
    expect(details.status).toBe(200);
    const files = (details.body as { project: { files: Array<{ id: string; thumbnailUrl: string | null }> } }).project.files;
    expect(files.find((f) => f.id === file.id)?.thumbnailUrl).toBe(`/api/files/${file.id}?mode=preview&size=300&v=2`);
    const list = await owner.browser.json('/api/creators/me/projects');
    const sites = (list.body as { projects: Array<{ id: string; thumbnail_url: string | null }> }).projects;
    expect(sites.find((p) => p.id === replaced.project.id)?.thumbnail_url).toBe(`/api/files/${file.id}?mode=preview&size=300&v=2`);
  });

  it('charts views, distinct visitors and downloads per UTC day over 7, 30 and 90 days, zero-filled', async () => {
    const chart = await seedOwnedSite(app, owner.id, { title: 'Chart' });
    const fileId = chart.files[0]!.id;
    const start = clock.now();
    const a = createBrowser(app);
    const b = createBrowser(app);
    const view = (who: TBrowser, file?: string) => who.json('/api/analytics/view', { method: 'POST', json: { projectId: chart.project.id, ...(file ? { fileId: file } : {}) } });
    await view(a);
    await view(b);
    await view(a, fileId);
    await app.deps.analytics.insert({ id: newId(), siteId: chart.project.id, fileId, visitorId: null, type: 'download', details: 'd', now: clock.now() });
    clock.advance(3 * DAY_MS);
    await view(a);

    const daily = async (query: string) => ZDailyAnalyticsResponseSchema.parse((await owner.browser.json(`/api/projects/${chart.project.id}/analytics/daily?${query}`)).body);
    const week = await daily('days=7');
    expect(week.days).toHaveLength(7);
    const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    expect(week.days.at(-1)!.date).toBe(dayOf(clock.now()));
    expect(week.days.find((d) => d.date === dayOf(start))).toEqual({ date: dayOf(start), views: 2, uniqueVisitors: 2, downloads: 1 });
    expect(week.days.at(-1)).toEqual({ date: dayOf(clock.now()), views: 1, uniqueVisitors: 1, downloads: 0 });
    expect(week.days.filter((d) => d.views === 0)).toHaveLength(5);
    expect(week.totals).toEqual({ views: 3, uniqueVisitors: 2, downloads: 1 });
    expect((await daily('days=30')).days).toHaveLength(30);
    expect((await daily('days=90')).days).toHaveLength(90);
    expect((await daily('')).days).toHaveLength(30);
    const perFile = await daily(`days=7&fileId=${fileId}`);
    expect(perFile.totals).toEqual({ views: 1, uniqueVisitors: 1, downloads: 1 });
    expect((await owner.browser.json(`/api/projects/${chart.project.id}/analytics/daily?days=14`)).status).toBe(400);
    expect((await owner.browser.json(`/api/projects/${chart.project.id}/analytics/daily?days=7&fileId=${site.files[0]!.id}`)).status).toBe(404);
  });

  it('keeps the analytics panel for the signed-in owner after the anonymous 7-day window', async () => {
    const publisher = createBrowser(app);
    const form = buildUploadForm([{ name: 'a.txt', type: 'text/plain', bytes: new TextEncoder().encode('a') }]);
    const published = await publisher.json<{ slug: string }>('/api/upload', { method: 'POST', body: form });
    expect(published.status).toBe(201);
    const { id: siteId } = await app.deps.db.selectFrom('projects').select('id').where('slug', '=', published.body.slug).executeTakeFirstOrThrow();
    const panel = (who: TBrowser) => who.json(`/api/analytics?projectId=${siteId}&detailed=true`);
    expect((await panel(publisher)).status).toBe(200);
    clock.advance(8 * DAY_MS);
    // The anonymous creator's window has ended: as before, the panel is gone for them.
    expect((await panel(publisher)).status).toBe(404);
    await app.deps.db.updateTable('projects').set({ owner_creator_id: owner.id, workspace_id: owner.id }).where('id', '=', siteId).execute();
    const res = await panel(owner.browser);
    expect(res.status).toBe(200);
    expect(ZAnalyticsResponseSchema.parse(res.body).analytics.views).toBe(0);
    expect((await panel(other.browser)).status).toBe(404);
  });

  it('answers the activity after a time, for live updates, settled a moment so none is missed or repeated', async () => {
    clock.advance(ACTIVITY_SETTLE_MS);
    const first = ZActivityResponseSchema.parse((await owner.browser.json(`/api/projects/${site.project.id}/activity`)).body);
    expect(first.activity.length).toBeGreaterThan(0);
    expect(first.now).toBe(new Date(clock.now() - ACTIVITY_SETTLE_MS).toISOString());
    const none = ZActivityResponseSchema.parse((await owner.browser.json(`/api/projects/${site.project.id}/activity?since=${encodeURIComponent(first.now)}`)).body);
    expect(none.activity).toEqual([]);
    clock.advance(1000);
    const visitor = createBrowser(app);
    await visitor.json('/api/favorites', { method: 'POST', json: { projectId: site.project.id, fileId: site.files[2]!.id } });
    // Not yet: it is younger than the settling moment.
    const early = ZActivityResponseSchema.parse((await owner.browser.json(`/api/projects/${site.project.id}/activity?since=${encodeURIComponent(first.now)}`)).body);
    expect(early.activity).toEqual([]);
    clock.advance(ACTIVITY_SETTLE_MS);
    const next = ZActivityResponseSchema.parse((await owner.browser.json(`/api/projects/${site.project.id}/activity?since=${encodeURIComponent(early.now)}`)).body);
    expect(next.activity).toHaveLength(1);
    expect(next.activity[0]).toMatchObject({ type: 'favorite', fileId: site.files[2]!.id });
    expect(next.activity[0]!.details).toMatch(/favourited "photo-3.jpg"$/);
    expect((await owner.browser.json(`/api/projects/${site.project.id}/activity?since=yesterday`)).status).toBe(400);
  });

  it('replies as the creator: shown on the site as the creator’s, under the author name', async () => {
    const visitor = createBrowser(app);
    const target = { projectId: site.project.id, fileId: site.files[2]!.id };
    const posted = await visitor.json<{ comment: { id: string } }>('/api/comments', { method: 'POST', json: { ...target, commentText: 'Can we get this in colour?' } });
    const commentId = posted.body.comment.id;
    const reply = await owner.browser.json(`/api/projects/${site.project.id}/comments/${commentId}/replies`, { method: 'POST', json: { text: 'Yes, tomorrow.' } });
    expect(reply.status).toBe(201);
    expect(ZCreatorReplyResponseSchema.parse(reply.body).comment).toMatchObject({ commentText: 'Yes, tomorrow.', isCreator: true, userName: 'Creator', replies: [] });

    const thread = ZCommentsResponseSchema.parse((await visitor.json(`/api/comments?projectId=${target.projectId}&fileId=${target.fileId}`)).body).comments.find(
      (c) => c.id === commentId,
    )!;
    expect(thread.replies).toEqual([expect.objectContaining({ commentText: 'Yes, tomorrow.', isCreator: true, isOwn: false, userName: 'Creator', parentId: commentId })]);
    expect(thread).toMatchObject({ isCreator: false, isOwn: true });

    // Under the site's author name when it has one; a reply to a reply joins the thread.
    await app.deps.db.updateTable('projects').set({ author_name: 'Mara Lind' }).where('id', '=', site.project.id).execute();
    const replyId = ZCreatorReplyResponseSchema.parse(reply.body).comment.id;
    clock.advance(1000);
    const second = await owner.browser.json(`/api/projects/${site.project.id}/comments/${replyId}/replies`, { method: 'POST', json: { text: 'And the prints.' } });
    expect(ZCreatorReplyResponseSchema.parse(second.body).comment).toMatchObject({ userName: 'Mara Lind', isCreator: true });
    const details = ZProjectDetailsResponseSchema.parse((await owner.browser.json(`/api/projects/${site.project.id}/details`)).body).project;
    const shown = details.files.find((f) => f.id === target.fileId)!.comments.find((c) => c.id === commentId)!;
    expect(shown.replies.map((r) => [r.userName, r.isCreator])).toEqual([
      ['Creator', true],
      ['Mara Lind', true],
    ]);

    const post = (id: string, text: string) => owner.browser.json(`/api/projects/${site.project.id}/comments/${id}/replies`, { method: 'POST', json: { text } });
    expect((await post(commentId, '   ')).status).toBe(400);
    expect((await post(commentId, 'x'.repeat(5001))).status).toBe(413);
    expect((await post('AAAAAAAAAAAAAAAAAAAAAA', 'Hello')).status).toBe(404);
    const quiet = await seedOwnedSite(app, owner.id, { settings: { enableComments: false } });
    await app.deps.db
      .insertInto('comments')
      .values({
        id: 'c'.repeat(22),
        project_id: quiet.project.id,
        file_id: quiet.files[0]!.id,
        parent_id: null,
        visitor_id: 'v',
        user_name: 'User v',
        body: 'old',
        created_at: clock.now(),
      })
      .execute();
    expect((await owner.browser.json(`/api/projects/${quiet.project.id}/comments/${'c'.repeat(22)}/replies`, { method: 'POST', json: { text: 'Hi' } })).status).toBe(403);
  });

  it('exports a site’s engagement as CSV, formulas defused', async () => {
    const visitor = createBrowser(app);
    await visitor.json('/api/comments', { method: 'POST', json: { projectId: site.project.id, fileId: site.files[0]!.id, commentText: '=HYPERLINK("http://evil")' } });
    const res = await owner.browser.fetch(`/api/projects/${site.project.id}/engagement.csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toContain(`${site.slug}-engagement.csv`);
    const lines = (await res.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('type,date,file,visitor,visitor_email,text,status,views,unique_visitors,downloads');
    expect(lines.some((l) => l.startsWith('"favorite",') && l.includes('"photo-1.jpg"'))).toBe(true);
    expect(lines.some((l) => l.startsWith('"approval",') && l.includes('"approved"'))).toBe(true);
    // A request for changes is worded as the dashboard words it, never 'rejected'.
    expect(lines.some((l) => l.startsWith('"approval",') && l.includes('"changes requested"'))).toBe(true);
    expect(lines.some((l) => l.includes('"rejected"'))).toBe(false);
    expect(lines.some((l) => l.startsWith('"creator_reply",') && l.includes('"Yes, tomorrow."'))).toBe(true);
    expect(lines.some((l) => l.startsWith('"traffic",') && l.includes(',"",'))).toBe(true);
    expect(lines.find((l) => l.includes('HYPERLINK'))).toContain(`"'=HYPERLINK(""http://evil"")"`);
  });

  it('answers a locked site’s owner too (the dashboard never needs the site’s password)', async () => {
    expect((await owner.browser.json(`/api/projects/${locked.project.id}/details`)).status).toBe(200);
    expect((await owner.browser.json(`/api/projects/${locked.project.id}/analytics/daily?days=7`)).status).toBe(200);
  });

  it('answers the account’s bell: what visitors did on its own sites after a time, newest first, and 401 signed out', async () => {
    const before = new Date(clock.now()).toISOString();
    clock.advance(1000);
    const visitor = createBrowser(app);
    await visitor.json('/api/comments', { method: 'POST', json: { projectId: site.project.id, fileId: site.files[0]!.id, commentText: 'Bell news' } });
    const mine = ZEngagementUpdatesResponseSchema.parse((await owner.browser.json(`/api/creators/me/updates?since=${encodeURIComponent(before)}`)).body).updates;
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ type: 'comment', project_id: site.project.id });
    expect(mine[0]!.message).toContain('Autumn Wedding');
    // Another account's bell knows nothing of it.
    const theirs = ZEngagementUpdatesResponseSchema.parse((await other.browser.json(`/api/creators/me/updates?since=${encodeURIComponent(before)}`)).body).updates;
    expect(theirs).toEqual([]);
    expect((await createBrowser(app).json('/api/creators/me/updates')).status).toBe(401);
  });
});
