import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ZAnalyticsResponseSchema,
  ZCommentsResponseSchema,
  ZCreatorProjectsResponseSchema,
  ZEngagementStateResponseSchema,
  ZProjectDetailsResponseSchema,
  ZVisitorProfileResponseSchema,
} from '@dropsite/shared';
import { loadConfig } from '../config/config.ts';
import { browserSignedInAs, createSignedInCreator } from '@dropsite/testkit/control-api/accounts';
import { createBrowser, seedSite, type TBrowser, type TSeededSite } from '@dropsite/testkit/control-api/site-fixtures';
import { createFakeClock, startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { TEST_DIALECTS, isDialectAvailable, testAppDatabase } from '@dropsite/testkit/control-api/test-database';

const DEFAULTS = loadConfig({});

const available = new Map(await Promise.all(TEST_DIALECTS.map(async (d) => [d, await isDialectAvailable(d)] as const)));

for (const dialect of TEST_DIALECTS)
  describe.skipIf(!available.get(dialect))(`visitors name themselves; creators see the names (${dialect})`, () => {
    const database = testAppDatabase(dialect, 'visitor_profiles');
    let app: TTestApp;
    const clock = createFakeClock();
    let owner: TBrowser;
    let site: TSeededSite;

    beforeAll(async () => {
      app = await startTestApp({
        clock,
        startWorker: false,
        config: { ...database.config, rateLimits: { ...DEFAULTS.rateLimits, readsPerMinute: 100_000, writesPerMinute: 100_000, siteWritesPerMinute: 100_000 } },
      });
      const creator = await createSignedInCreator(app.deps, { email: 'maker@example.com', name: 'maker' });
      owner = browserSignedInAs(app, creator);
      site = await seedSite(app, { title: 'Named visitors', fileCount: 2 });
      await app.deps.db.updateTable('projects').set({ owner_creator_id: creator.id, workspace_id: creator.id }).where('id', '=', site.project.id).execute();
    });
    afterAll(async () => {
      await app?.close();
      await database.drop();
    });

    const target = (fileIndex = 0) => ({ projectId: site.project.id, fileId: site.files[fileIndex]!.id });
    const state = async (who: TBrowser) => ZEngagementStateResponseSchema.parse((await who.json(`/api/engagement/state?projectId=${site.project.id}`)).body).visitor;
    const setProfile = (who: TBrowser, json: unknown) => who.json('/api/visitor/profile', { method: 'PUT', json });

    it('stores a trimmed name and optional address per visitor cookie, and answers them in the visitor’s state', async () => {
      const anna = createBrowser(app);
      const before = await state(anna);
      expect(before).toMatchObject({ hasName: false, email: null });
      expect(before.name).toMatch(/^User \S{4}$/);

      const saved = await setProfile(anna, { name: '  Anna Berg ', email: ' anna@example.com ' });
      expect(saved.status).toBe(200);
      expect(saved.headers.get('cache-control')).toBe('no-store');
      expect(ZVisitorProfileResponseSchema.parse(saved.body).visitor).toEqual({ name: 'Anna Berg', hasName: true, email: 'anna@example.com' });
      expect(await state(anna)).toEqual({ name: 'Anna Berg', hasName: true, email: 'anna@example.com' });

      // Editable: a new name, and the address taken away.
      expect((await setProfile(anna, { name: 'Anna B.', email: '' })).body).toMatchObject({ visitor: { name: 'Anna B.', hasName: true, email: null } });
      expect(await state(anna)).toEqual({ name: 'Anna B.', hasName: true, email: null });
      // Another browser is another visitor.
      expect((await state(createBrowser(app))).hasName).toBe(false);
    });

    it('refuses blank, overlong and disguised names and malformed addresses, storing nothing', async () => {
      const eve = createBrowser(app);
      const refused = [
        { name: '' },
        { name: '   ' },
        { name: 'x'.repeat(61) },
        { name: 'Eve\r\nBcc: all@example.com' },
        { name: 'Eve\u0000' },
        { name: 'Eve\u202Egnp.exe' },
        { name: 'Eve', email: 'not-an-address' },
        { name: 'Eve', email: 'eve@example.com\r\nBcc: all@example.com' },
        { name: 'Eve', email: 'eve\u0007@example.com' },
        { email: 'eve@example.com' },
        'Eve',
      ];
      for (const body of refused) {
        const res = await setProfile(eve, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body).toMatchObject({ success: false });
      }
      expect((await setProfile(eve, { name: '😀'.repeat(60) })).status).toBe(200);
      expect((await setProfile(eve, { name: 'Zoë Ørsted-李' })).status).toBe(200);
      expect(await state(eve)).toEqual({ name: 'Zoë Ørsted-李', hasName: true, email: null });
    });

    it('refuses a profile sent from another site’s page (cross-site write)', async () => {
      const mallory = createBrowser(app);
      const res = await mallory.json('/api/visitor/profile', { method: 'PUT', json: { name: 'Mallory' }, headers: { Origin: 'https://evil.example' } });
      expect(res.status).toBe(403);
    });

    it('stores the name (and address) given at the time with each favourite, comment and review; the payload’s userName is ignored', async () => {
      const ben = createBrowser(app);
      // Before naming themselves: the generated name, as before.
      await ben.json('/api/favorites', { method: 'POST', json: { ...target(1), userName: 'The Boss' } });
      const unnamed = await app.deps.db.selectFrom('favorites').select(['user_name', 'user_email']).where('file_id', '=', target(1).fileId).executeTakeFirstOrThrow();
      expect(unnamed.user_name).toMatch(/^User \S{4}$/);
      expect(unnamed.user_email).toBeNull();

      await setProfile(ben, { name: 'Ben Ode', email: 'ben@example.com' });
      await ben.json('/api/favorites', { method: 'POST', json: { ...target(), userName: 'The Boss', userEmail: 'boss@example.com' } });
      await ben.json('/api/approvals', { method: 'POST', json: { ...target(), status: 'rejected', userName: 'The Boss' } });
      const posted = await ben.json('/api/comments', { method: 'POST', json: { ...target(), commentText: 'Warmer, please', userName: 'The Boss' } });
      expect(posted.status).toBe(201);
      expect(posted.body).toMatchObject({ comment: { userName: 'Ben Ode', isOwn: true } });

      for (const table of ['favorites', 'comments', 'approvals'] as const) {
        const row = await app.deps.db.selectFrom(table).select(['user_name', 'user_email']).where('file_id', '=', target().fileId).executeTakeFirstOrThrow();
        expect(row, table).toEqual({ user_name: 'Ben Ode', user_email: 'ben@example.com' });
      }
      // The favourite made before the name keeps the name it was made with.
      expect((await app.deps.db.selectFrom('favorites').select('user_name').where('file_id', '=', target(1).fileId).executeTakeFirstOrThrow()).user_name).toBe(unnamed.user_name);

      // Other visitors see the name, never the address.
      const list = await createBrowser(app).json(`/api/comments?projectId=${site.project.id}&fileId=${target().fileId}`);
      const comments = ZCommentsResponseSchema.parse(list.body).comments;
      expect(comments.map((c) => c.userName)).toContain('Ben Ode');
      expect(JSON.stringify(list.body)).not.toContain('ben@example.com');
    });

    it('shows the creator the names and addresses in the details, the activity and the CSV, markup and formulas as plain text', async () => {
      const zed = createBrowser(app);
      await setProfile(zed, { name: '=HYPERLINK("http://evil")<img src=x onerror=alert(1)>', email: 'zed@example.com' });
      await zed.json('/api/approvals', { method: 'POST', json: { ...target(), status: 'approved' } });

      const details = ZProjectDetailsResponseSchema.parse((await owner.json(`/api/projects/${site.project.id}/details`)).body).project;
      const file = details.files.find((f) => f.id === target().fileId)!;
      expect(file.favorites).toContainEqual(expect.objectContaining({ userName: 'Ben Ode', userEmail: 'ben@example.com' }));
      expect(file.comments).toContainEqual(expect.objectContaining({ userName: 'Ben Ode', userEmail: 'ben@example.com', commentText: 'Warmer, please' }));
      expect(file.approvals).toContainEqual(expect.objectContaining({ userName: 'Ben Ode', userEmail: 'ben@example.com', status: 'rejected' }));
      expect(file.approvals).toContainEqual(expect.objectContaining({ userName: '=HYPERLINK("http://evil")<img src=x onerror=alert(1)>', status: 'approved' }));

      const analytics = ZAnalyticsResponseSchema.parse((await owner.json(`/api/analytics?projectId=${site.project.id}&detailed=true`)).body).analytics;
      expect(analytics.recentActivity.map((a) => a.details)).toContain('Ben Ode requested changes on "photo-1.jpg"');

      const csv = await (await owner.fetch(`/api/projects/${site.project.id}/engagement.csv`)).text();
      const lines = csv.trimEnd().split('\r\n');
      expect(lines.find((l) => l.startsWith('"comment",') && l.includes('Warmer, please'))).toContain('"Ben Ode","ben@example.com","Warmer, please"');
      // A name that starts a formula is defused like any other cell.
      expect(lines.find((l) => l.startsWith('"approval",') && l.includes('HYPERLINK'))).toContain(`"'=HYPERLINK(""http://evil"")<img src=x onerror=alert(1)>","zed@example.com"`);
    });

    it('leaves the creator’s own replies out of every client comment count, the activity and the alerts', async () => {
      const fileId = target(1).fileId;
      const cleo = createBrowser(app);
      await setProfile(cleo, { name: 'Cleo' });
      const posted = await cleo.json('/api/comments', { method: 'POST', json: { ...target(1), commentText: 'Is there a larger size?' } });
      const commentId = (posted.body as { comment: { id: string } }).comment.id;
      const counts = async () => {
        const sites = ZCreatorProjectsResponseSchema.parse((await owner.json('/api/creators/me/projects')).body).projects;
        const details = ZProjectDetailsResponseSchema.parse((await owner.json(`/api/projects/${site.project.id}/details`)).body).project;
        const analytics = ZAnalyticsResponseSchema.parse((await owner.json(`/api/analytics?projectId=${site.project.id}&detailed=true`)).body).analytics;
        const fileAnalytics = ZAnalyticsResponseSchema.parse((await owner.json(`/api/analytics?projectId=${site.project.id}&fileId=${fileId}`)).body).analytics;
        return {
          list: sites.find((p) => p.id === site.project.id)!.comments_count,
          total: details.totals.totalComments,
          file: details.files.find((f) => f.id === fileId)!.totals.comments,
          analytics: analytics.comments,
          fileAnalytics: fileAnalytics.comments,
          activity: analytics.recentActivity.filter((a) => a.type === 'comment').length,
        };
      };
      const before = await counts();
      clock.advance(1000);
      const reply = await owner.json(`/api/projects/${site.project.id}/comments/${commentId}/replies`, { method: 'POST', json: { text: 'Yes: up to A2.' } });
      expect(reply.status).toBe(201);
      expect(await counts()).toEqual(before);
      expect(before.file).toBe(1);

      // Still shown in the thread, as the creator's.
      const thread = ZCommentsResponseSchema.parse((await cleo.json(`/api/comments?projectId=${site.project.id}&fileId=${fileId}`)).body).comments.find((c) => c.id === commentId)!;
      expect(thread.replies).toEqual([expect.objectContaining({ commentText: 'Yes: up to A2.', isCreator: true })]);
      // The CSV marks it as the creator's, not a client's comment.
      const csv = await (await owner.fetch(`/api/projects/${site.project.id}/engagement.csv`)).text();
      expect(csv.split('\r\n').find((l) => l.includes('Yes: up to A2.'))).toMatch(/^"creator_reply",/);
    });
  });
