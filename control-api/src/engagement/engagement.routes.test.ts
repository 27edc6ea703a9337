import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURE_DISABLED_MESSAGE, ZCommentsResponseSchema, ZEngagementStateResponseSchema, ZFavoriteResponseSchema, type TComment } from '@dropsite/shared';
import { loadConfig, type TConfig } from '../config/config.ts';
import { createFakeClock, startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { createBrowser, seedSite, type TBrowser, type TSeededSite } from '@dropsite/testkit/control-api/site-fixtures';

const DEFAULTS = loadConfig({});
export const GENEROUS_LIMITS: TConfig['rateLimits'] = {
  ...DEFAULTS.rateLimits,
  readsPerMinute: 100_000,
  writesPerMinute: 100_000,
  siteWritesPerMinute: 100_000,
};

describe('engagement calls', () => {
  let app: TTestApp;
  const clock = createFakeClock();
  let site: TSeededSite;
  let other: TSeededSite;
  let alice: TBrowser;
  let bob: TBrowser;
  let fileId = '';

  beforeAll(async () => {
    app = await startTestApp({ clock, startWorker: false, config: { rateLimits: GENEROUS_LIMITS } });
    site = await seedSite(app);
    other = await seedSite(app);
    fileId = site.files[0]!.id;
    alice = createBrowser(app);
    bob = createBrowser(app);
  });
  afterAll(async () => {
    await app.close();
  });

  const target = (extra: Record<string, unknown> = {}) => ({ projectId: site.project.id, fileId, userEmail: 'session_1_x', userName: 'Someone', ...extra });

  describe('favourites', () => {
    it('adds once per visitor, counts visitors, and removes idempotently', async () => {
      const first = await alice.json('/api/favorites', { method: 'POST', json: target() });
      expect(first.status).toBe(200);
      // The visitor's id is the server's, in a cookie no page script can read.
      const visitorCookie = first.headers.getSetCookie().find((c) => c.startsWith('dropsite_vid='))!;
      expect(visitorCookie).toMatch(/^dropsite_vid=[\w-]{22}\.[0-9a-z]+\.[\w-]{22};/);
      expect(visitorCookie).toMatch(/HttpOnly/i);
      expect(visitorCookie).toMatch(/SameSite=Lax/i);
      const visitorId = visitorCookie.slice('dropsite_vid='.length, 'dropsite_vid='.length + 22);
      expect(await app.deps.db.selectFrom('visitors').select('id').where('id', '=', visitorId).execute()).toHaveLength(1);
      expect(ZFavoriteResponseSchema.parse(first.body)).toEqual({ success: true, isFavorite: true, fileId, favoritesCount: 1 });
      expect((await alice.json('/api/favorites', { method: 'POST', json: target() })).body).toMatchObject({ isFavorite: true, favoritesCount: 1 });
      expect((await bob.json('/api/favorites', { method: 'POST', json: target() })).body).toMatchObject({ isFavorite: true, favoritesCount: 2 });
      const favoriteRows = () => app.deps.db.selectFrom('favorites').select('visitor_id').where('file_id', '=', fileId).execute();
      expect(await favoriteRows()).toHaveLength(2);

      const state = await alice.json(`/api/engagement/state?projectId=${site.project.id}`);
      expect(ZEngagementStateResponseSchema.parse(state.body).favorites).toEqual([fileId]);

      expect((await alice.json('/api/favorites', { method: 'DELETE', json: target() })).body).toMatchObject({ isFavorite: false, favoritesCount: 1 });
      expect(await favoriteRows()).toHaveLength(1);
      expect((await alice.json('/api/favorites', { method: 'DELETE', json: target() })).status).toBe(200);
      // DELETE with the fields in the query instead of a body.
      expect((await bob.json(`/api/favorites?projectId=${site.project.id}&fileId=${fileId}`, { method: 'DELETE' })).body).toMatchObject({ isFavorite: false, favoritesCount: 0 });
      const rows = await app.deps.db.selectFrom('favorites').selectAll().where('file_id', '=', fileId).execute();
      expect(rows).toHaveLength(0);
    });

    it('refuses when the creator has not turned favourites on', async () => {
      const off = await seedSite(app, { settings: { enableFavorites: false, enableComments: false, enableApprovals: false } });
      const json = { projectId: off.project.id, fileId: off.files[0]!.id };
      for (const [path, method, body] of [
        ['/api/favorites', 'POST', json],
        ['/api/approvals', 'POST', { ...json, status: 'approved' }],
        ['/api/comments', 'POST', { ...json, commentText: 'hi' }],
      ] as const) {
        const res = await alice.json(path, { method, json: body });
        expect(res.status, path).toBe(403);
        expect(res.body).toMatchObject({ success: false, error: FEATURE_DISABLED_MESSAGE });
      }
      const read = await alice.json(`/api/comments?projectId=${off.project.id}&fileId=${off.files[0]!.id}`);
      expect(read.status).toBe(403);
    });

    it('answers 404 for another site’s file, an unknown site, and 400 for a malformed id', async () => {
      expect((await alice.json('/api/favorites', { method: 'POST', json: target({ fileId: other.files[0]!.id }) })).status).toBe(404);
      expect((await alice.json('/api/favorites', { method: 'POST', json: target({ projectId: 'AAAAAAAAAAAAAAAAAAAAAA' }) })).status).toBe(404);
      expect((await alice.json('/api/favorites', { method: 'POST', json: target({ fileId: '../../etc/passwd' }) })).status).toBe(400);
      expect((await alice.json('/api/favorites', { method: 'POST', json: { fileId } })).status).toBe(400);
    });
  });

  describe('approvals', () => {
    it('moves between any two states, one row per visitor and file', async () => {
      for (const status of ['approved', 'rejected', 'pending', 'rejected', 'approved'] as const) {
        const res = await alice.json('/api/approvals', { method: 'POST', json: target({ status }) });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ success: true, fileId, status });
      }
      const state = ZEngagementStateResponseSchema.parse((await alice.json(`/api/engagement/state?projectId=${site.project.id}`)).body);
      expect(state.approvals).toEqual([{ fileId, status: 'approved' }]);
      expect((await alice.json('/api/approvals', { method: 'POST', json: target({ status: 'maybe' }) })).status).toBe(400);
    });

    it('keeps one row each when two visitors approve at once, and the last write when one toggles 50 times', async () => {
      const file = site.files[1]!.id;
      const carol = createBrowser(app);
      const dave = createBrowser(app);
      // Each gets a visitor id first, so the concurrent calls below are all from known visitors.
      await carol.json(`/api/engagement/state?projectId=${site.project.id}`);
      await dave.json(`/api/engagement/state?projectId=${site.project.id}`);
      const burst = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? carol : dave).json('/api/approvals', { method: 'POST', json: target({ fileId: file, status: i % 4 < 2 ? 'approved' : 'rejected' }) }),
        ),
      );
      expect(burst.map((r) => r.status)).toEqual(Array(20).fill(200));

      const statuses = ['approved', 'rejected', 'pending'] as const;
      let last: (typeof statuses)[number] = 'pending';
      for (let i = 0; i < 50; i++) {
        last = statuses[(i * 7) % 3]!;
        expect((await carol.json('/api/approvals', { method: 'POST', json: target({ fileId: file, status: last }) })).status).toBe(200);
      }
      const concurrent = await Promise.all(
        Array.from({ length: 50 }, (_, i) => dave.json('/api/approvals', { method: 'POST', json: target({ fileId: file, status: statuses[i % 3] }) })),
      );
      expect(concurrent.every((r) => r.status === 200)).toBe(true);

      const rows = await app.deps.db.selectFrom('approvals').select(['visitor_id', 'status']).where('file_id', '=', file).execute();
      expect(rows).toHaveLength(2);
      const carolId = carol.cookies.get('dropsite_vid')!.slice(0, 22);
      expect(rows.find((r) => r.visitor_id === carolId)?.status).toBe(last);
    });

    it('never lets one visitor act as another: the ids in the payload are ignored', async () => {
      const victim = createBrowser(app);
      await victim.json('/api/approvals', { method: 'POST', json: target({ status: 'approved' }) });
      const victimId = victim.cookies.get('dropsite_vid')!.slice(0, 22);

      const attacker = createBrowser(app);
      const res = await attacker.json('/api/approvals', { method: 'POST', json: target({ status: 'rejected', userEmail: victimId, userName: `User ${victimId.slice(-4)}` }) });
      expect(res.status).toBe(200);
      const victimState = ZEngagementStateResponseSchema.parse((await victim.json(`/api/engagement/state?projectId=${site.project.id}`)).body);
      expect(victimState.approvals).toEqual([{ fileId, status: 'approved' }]);

      // A cookie naming the victim's id without the server's signature is not the victim: a new id is issued.
      const forger = createBrowser(app);
      forger.cookies.set('dropsite_vid', `${victimId}.${'A'.repeat(22)}`);
      await forger.json('/api/approvals', { method: 'POST', json: target({ status: 'rejected' }) });
      expect(forger.cookies.get('dropsite_vid')!.slice(0, 22)).not.toBe(victimId);
      const again = ZEngagementStateResponseSchema.parse((await victim.json(`/api/engagement/state?projectId=${site.project.id}`)).body);
      expect(again.approvals).toEqual([{ fileId, status: 'approved' }]);
      expect(again.visitor.name).toBe(`User ${victimId.slice(-4)}`);
    });
  });

  describe('comments', () => {
    const post = (who: TBrowser, commentText: string, extra: Record<string, unknown> = {}) =>
      who.json<{ success: boolean; comment: TComment; error?: string }>('/api/comments', { method: 'POST', json: target({ commentText, threadId: null, ...extra }) });
    const list = async (who: TBrowser, file = fileId) => ZCommentsResponseSchema.parse((await who.json(`/api/comments?projectId=${site.project.id}&fileId=${file}`)).body);

    it('stores comments and threaded replies, oldest first, each marked as the reader’s own or not', async () => {
      const first = await post(alice, 'Love the light in this one');
      expect(first.status).toBe(201);
      expect(first.body.comment).toMatchObject({ commentText: 'Love the light in this one', parentId: null, isOwn: true, replies: [] });
      clock.advance(1000);
      const reply = await post(bob, 'Agreed!', { threadId: first.body.comment.id });
      clock.advance(1000);
      // Replying to a reply joins the thread.
      const nested = await post(alice, 'Thanks both', { parentId: reply.body.comment.id });
      expect(nested.body.comment.parentId).toBe(first.body.comment.id);
      clock.advance(1000);
      await post(bob, 'Second thread');

      const forBob = await list(bob);
      expect(forBob.total).toBe(4);
      expect(forBob.comments.map((c) => c.commentText)).toEqual(['Love the light in this one', 'Second thread']);
      expect(forBob.comments[0]!.replies.map((r) => [r.commentText, r.isOwn])).toEqual([
        ['Agreed!', true],
        ['Thanks both', false],
      ]);
      expect(forBob.comments[0]!.isOwn).toBe(false);
      expect(forBob.comments[0]!.userName).toMatch(/^User [\w-]{4}$/);
      expect(forBob.comments[1]!.createdAt).toBe(new Date(clock.now()).toISOString());
      // The same threads (answered from memory) for the other visitor: each comment marked for the one asking.
      const forAlice = await list(alice);
      expect(forAlice.comments[0]!.isOwn).toBe(true);
      expect(forAlice.comments[0]!.replies.map((r) => r.isOwn)).toEqual([false, true]);
      expect(forAlice.comments[1]!.isOwn).toBe(false);

      const state = ZEngagementStateResponseSchema.parse((await bob.json(`/api/engagement/state?projectId=${site.project.id}`)).body);
      expect(state.commentCounts[fileId]).toBe(4);
    });

    it('returns HTML and tricky Unicode exactly as typed, as text', async () => {
      const texts = [
        '<img src=x onerror=alert(1)> <a href="javascript:alert(2)">click</a> <script>alert(3)</script>',
        '👩‍👩‍👧‍👦 family, ‏مرحبا بالعالم‏, e\u0301\u0301 combining, \u202Eright-to-left override',
      ];
      for (const text of texts) {
        const res = await post(alice, text);
        expect(res.status).toBe(201);
        expect(res.body.comment.commentText).toBe(text);
      }
      const all = await list(alice);
      for (const text of texts) expect(all.comments.some((c) => c.commentText === text)).toBe(true);
      const raw = await (await alice.fetch(`/api/comments?projectId=${site.project.id}&fileId=${fileId}`)).text();
      expect(raw).not.toContain('&lt;img');
      expect(JSON.parse(raw).comments.some((c: TComment) => c.commentText.includes('<img src=x onerror=alert(1)>'))).toBe(true);
    });

    it('refuses blank (400), too long (413), a 1 MB body (413), NUL (400) and invalid UTF-8 (400)', async () => {
      for (const blank of ['', '   ', '\n\t  \n']) expect((await post(alice, blank)).status, JSON.stringify(blank)).toBe(400);
      expect((await post(alice, 'x'.repeat(5000))).status).toBe(201);
      // 5,000 emoji are 5,000 characters.
      expect((await post(alice, '😀'.repeat(5000))).status).toBe(201);
      const tooLong = await post(alice, 'x'.repeat(5001));
      expect(tooLong.status).toBe(413);
      expect(tooLong.body.error).toBe('Comments can be at most 5,000 characters');
      expect((await post(alice, 'x'.repeat(1024 * 1024))).status).toBe(413);
      expect((await post(alice, 'before\u0000after')).status).toBe(400);
      expect((await post(alice, 'lone \ud800 surrogate')).status).toBe(400);

      const json = JSON.stringify(target({ commentText: 'PLACEHOLDER' }));
      const [head, tail] = json.split('PLACEHOLDER') as [string, string];
      const invalidUtf8 = Buffer.concat([Buffer.from(head), Buffer.from([0x61, 0xff, 0xfe, 0x62]), Buffer.from(tail)]);
      const res = await alice.fetch('/api/comments', { method: 'POST', headers: { 'content-type': 'application/json' }, body: invalidUtf8 });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ success: false, code: 'bad_request' });
    });

    it('refuses a reply to a comment of another file', async () => {
      const elsewhere = await alice.json<{ comment: TComment }>('/api/comments', {
        method: 'POST',
        json: { projectId: site.project.id, fileId: site.files[1]!.id, commentText: 'On the other file' },
      });
      expect((await post(alice, 'reply', { threadId: elsewhere.body.comment.id })).status).toBe(404);
    });
  });

  it('refuses cross-site writes by their Origin', async () => {
    const res = await alice.json('/api/favorites', { method: 'POST', json: target(), headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expect((await alice.json('/api/comments', { method: 'POST', json: target({ commentText: 'x' }), headers: { origin: 'https://evil.example' } })).status).toBe(403);
  });

  it('refuses engagement on a locked (401), expired (410, at the instant) or deleted (404) site', async () => {
    const locked = await seedSite(app, { password: 'hunter2' });
    const expired = await seedSite(app, { expiresAt: clock.now() });
    const deleted = await seedSite(app);
    await app.deps.db.updateTable('projects').set({ deleted_at: clock.now() }).where('id', '=', deleted.project.id).execute();
    const cases = [
      [locked, 401],
      [expired, 410],
      [deleted, 404],
    ] as const;
    for (const [s, status] of cases) {
      const json = { projectId: s.project.id, fileId: s.files[0]!.id };
      expect((await alice.json('/api/favorites', { method: 'POST', json })).status).toBe(status);
      expect((await alice.json('/api/approvals', { method: 'POST', json: { ...json, status: 'approved' } })).status).toBe(status);
      expect((await alice.json('/api/comments', { method: 'POST', json: { ...json, commentText: 'hi' } })).status).toBe(status);
      const read = await alice.json(`/api/comments?projectId=${s.project.id}&fileId=${s.files[0]!.id}`);
      expect(read.status).toBe(status);
      if (status !== 404) expect(read.headers.get('cache-control')).toBe('private, no-store');
      expect((await alice.json(`/api/engagement/state?projectId=${s.project.id}`)).status).toBe(status);
    }
  });
});

describe('engagement rate limits (in memory, no Redis)', () => {
  let app: TTestApp;
  const clock = createFakeClock();
  let site: TSeededSite;

  beforeAll(async () => {
    app = await startTestApp({
      clock,
      startWorker: false,
      config: { trustProxy: 1, rateLimits: { ...DEFAULTS.rateLimits, writesPerMinute: 5, readsPerMinute: 8, siteWritesPerMinute: 12 } },
    });
    site = await seedSite(app);
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers 429 with Retry-After per address, even to fresh sessions, and recovers as tokens refill', async () => {
    const visitor = createBrowser(app, { address: '203.0.113.1' });
    const json = { projectId: site.project.id, fileId: site.files[0]!.id };
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let i = 0; i < 7; i++) {
      // A new visitor (no cookie) each time: new sessions do not buy new tokens.
      const res = await createBrowser(app, { address: '203.0.113.1' }).fetch('/api/favorites', { method: i % 2 ? 'DELETE' : 'POST', json });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
      await res.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(Number(limited!.headers.get('retry-after'))).toBe(12);
    const reads = await Promise.all(Array.from({ length: 9 }, () => visitor.fetch(`/api/comments?projectId=${site.project.id}&fileId=${site.files[0]!.id}`)));
    expect(reads.map((r) => r.status).filter((s) => s === 429)).toHaveLength(1);
    clock.advance(12_000);
    expect((await visitor.fetch('/api/favorites', { method: 'POST', json })).status).toBe(200);
  });

  it('limits one site across many addresses', async () => {
    const json = { projectId: site.project.id, fileId: site.files[1]!.id };
    clock.advance(120_000);
    const statuses: number[] = [];
    for (let i = 0; i < 14; i++) {
      const visitor = createBrowser(app, { address: `198.51.100.${i + 1}` });
      statuses.push((await visitor.fetch('/api/favorites', { method: 'POST', json })).status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(12);
    expect(statuses.slice(12)).toEqual([429, 429]);
  });
});
