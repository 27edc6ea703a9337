import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZAnonymousProjectsResponseSchema, ZAnonymousSessionResponseSchema, ZEngagementSummaryResponseSchema, ZEngagementUpdatesResponseSchema } from '@dropsite/shared';
import { loadConfig } from '../config/config.ts';
import { createFakeClock, startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { buildUploadForm } from '@dropsite/testkit/control-api/fixtures';
import { createBrowser, seedSite, type TBrowser } from '@dropsite/testkit/control-api/site-fixtures';
import { countProductEvents } from '../analytics/analytics.repository.ts';
import { listEmailCollections } from './anonymous-sessions.repository.ts';

const DEFAULTS = loadConfig({});
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function publish(browser: TBrowser, title = 'Brand kit'): Promise<{ status: number; slug: string; setCookies: string[] }> {
  const form = buildUploadForm([{ name: 'notes.txt', type: 'text/plain', bytes: new TextEncoder().encode('hello') }], {
    title,
    anonymousSessionId: 'anon_1700000000000_forged',
    settings: JSON.stringify({ enableFavorites: true, enableComments: true, enableApprovals: true }),
  });
  const res = await browser.fetch('/api/upload', { method: 'POST', body: form });
  const body = (await res.json()) as { slug: string };
  return { status: res.status, slug: body.slug, setCookies: res.headers.getSetCookie() };
}

async function sessionOf(browser: TBrowser): Promise<string> {
  const res = await browser.json('/api/creators/anonymous/session');
  return ZAnonymousSessionResponseSchema.parse(res.body).sessionId;
}

describe('the anonymous creator', () => {
  let app: TTestApp;
  const start = Date.UTC(2026, 10, 22, 12, 0, 0);
  const clock = createFakeClock(start);

  beforeAll(async () => {
    app = await startTestApp({
      clock,
      startWorker: false,
      config: { trustProxy: 1, rateLimits: { ...DEFAULTS.rateLimits, readsPerMinute: 10_000, writesPerMinute: 10_000, lookupMissesPerMinute: 4 } },
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it('gets a server-issued token on the first publish, kept for later publishes; only its hash is stored', async () => {
    const creator = createBrowser(app);
    expect((await creator.json('/api/creators/anonymous/session')).status).toBe(404);
    const first = await publish(creator);
    expect(first.status).toBe(201);
    const token = creator.cookies.get('dropsite_anon')!;
    expect(token).toMatch(/^[\w-]{22}\.[\w-]{43}$/);
    // No page script (a published site's included) can read the token: HttpOnly.
    const anonCookie = first.setCookies.find((c) => c.startsWith('dropsite_anon='))!;
    expect(anonCookie).toMatch(/HttpOnly/i);
    expect(anonCookie).toMatch(/SameSite=Lax/i);
    expect(anonCookie).toMatch(/Path=\//);

    const session = ZAnonymousSessionResponseSchema.parse((await creator.json('/api/creators/anonymous/session')).body);
    expect(session.sessionId).toBe(token.split('.')[0]);
    expect(JSON.stringify(session)).not.toContain(token.split('.')[1]);
    expect(session.createdAt).toBe(new Date(start).toISOString());
    expect(session.expiresAt).toBe(new Date(start + 7 * DAY).toISOString());

    const second = await publish(creator, 'Second delivery');
    expect(second.setCookies.some((c) => c.startsWith('dropsite_anon='))).toBe(false);
    expect(creator.cookies.get('dropsite_anon')).toBe(token);
    const rows = await app.deps.db.selectFrom('projects').select(['anonymous_session_id']).where('anonymous_session_id', '=', session.sessionId).execute();
    expect(rows).toHaveLength(2);

    const stored = await app.deps.db.selectFrom('anonymous_sessions').selectAll().where('id', '=', session.sessionId).executeTakeFirstOrThrow();
    expect(stored.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(token.split('.')[1]);
    // The id the payload carried is never used.
    expect(await app.deps.db.selectFrom('projects').select('id').where('anonymous_session_id', '=', 'anon_1700000000000_forged').execute()).toHaveLength(0);
  });

  it('lists the creator’s projects with engagement counts, and only to the token’s holder', async () => {
    const creator = createBrowser(app);
    await publish(creator, 'Logo options');
    const sessionId = await sessionOf(creator);
    clock.advance(1000);
    const site = await seedSite(app, { anonymousSessionId: sessionId, title: 'Seeded for counts' });
    const visitor = createBrowser(app);
    const json = { projectId: site.project.id, fileId: site.files[0]!.id };
    await visitor.json('/api/favorites', { method: 'POST', json });
    await visitor.json('/api/comments', { method: 'POST', json: { ...json, commentText: 'Nice' } });
    await visitor.json('/api/approvals', { method: 'POST', json: { ...json, status: 'approved' } });
    await visitor.json('/api/analytics/view', { method: 'POST', json: { projectId: site.project.id } });

    const res = await creator.json(`/api/projects/anonymous/${sessionId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const { projects: sites } = ZAnonymousProjectsResponseSchema.parse(res.body);
    expect(sites.map((p) => p.title)).toEqual(['Seeded for counts', 'Logo options']);
    expect(sites[0]).toMatchObject({
      favorites_count: 1,
      comments_count: 1,
      approvals_count: 1,
      views_count: 1,
      has_password: false,
      url: `${app.url}/${site.slug}`,
      settings: { enable_favorites: true, enable_comments: true, enable_approvals: true },
    });

    const stranger = createBrowser(app, { address: '203.0.113.77' });
    await publish(stranger, 'Someone else');
    for (const path of [`/api/projects/anonymous/${sessionId}`, `/api/engagement/anonymous/${sessionId}`, `/api/engagement/anonymous/${sessionId}/updates`]) {
      expect((await stranger.json(path)).status, path).toBe(404);
    }
    // A forged token with the right id and a made-up secret proves nothing.
    const forger = createBrowser(app, { address: '203.0.113.78' });
    forger.cookies.set('dropsite_anon', `${sessionId}.${'x'.repeat(43)}`);
    expect((await forger.json(`/api/projects/anonymous/${sessionId}`)).status).toBe(404);
    expect((await forger.json('/api/creators/anonymous/session')).status).toBe(404);
  });

  it('rate limits lookups of sessions that are not the caller’s', async () => {
    const prober = createBrowser(app, { address: '203.0.113.200' });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await prober.fetch(`/api/engagement/anonymous/guess${String(i).padStart(17, '0')}`);
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      await res.arrayBuffer();
    }
    expect(statuses).toEqual([404, 404, 404, 404, 429, 429]);
  });

  it('summarises engagement over the 7-day window and warns under 24 hours', async () => {
    clock.set(start);
    const creator = createBrowser(app);
    await publish(creator, 'Window test');
    const sessionId = await sessionOf(creator);
    const summary = async () => ZEngagementSummaryResponseSchema.parse((await creator.json(`/api/engagement/anonymous/${sessionId}`)).body);
    const updates = async (since?: string) =>
      ZEngagementUpdatesResponseSchema.parse((await creator.json(`/api/engagement/anonymous/${sessionId}/updates${since ? `?since=${encodeURIComponent(since)}` : ''}`)).body)
        .updates;

    expect(await summary()).toMatchObject({ total_interactions: 0, has_comments: false, has_favorites: false, has_approvals: false, days_remaining: 7, expired: false });
    expect(await updates()).toEqual([]);

    const site = await seedSite(app, { anonymousSessionId: sessionId });
    const visitor = createBrowser(app);
    const json = { projectId: site.project.id, fileId: site.files[0]!.id };
    await visitor.json('/api/favorites', { method: 'POST', json });
    clock.advance(1000);
    await visitor.json('/api/comments', { method: 'POST', json: { ...json, commentText: 'Can we see <b>this</b> in blue?' } });
    clock.advance(1000);
    await visitor.json('/api/approvals', { method: 'POST', json: { ...json, status: 'rejected' } });

    expect(await summary()).toMatchObject({ total_interactions: 3, has_comments: true, has_favorites: true, has_approvals: true, days_remaining: 7 });
    const list = await updates();
    expect(list.map((u) => [u.type, u.urgency_level, u.cta_text])).toEqual([
      ['approval', 'high', 'Sign Up Free'],
      ['comment', 'medium', 'Sign Up Free'],
      ['favorite', 'low', 'Sign Up Free'],
    ]);
    expect(list[1]!.message).toMatch(/^User [\w-]{4} commented on "photo-1.jpg": "Can we see <b>this<\/b> in blue\?" in "Autumn Wedding"$/);
    expect(list[0]!.message).toMatch(/^User [\w-]{4} requested changes on "photo-1.jpg" in "Autumn Wedding"$/);
    expect(list.every((u) => u.project_id === site.project.id)).toBe(true);
    expect(await updates(list[1]!.created_at)).toHaveLength(1);

    clock.set(start + 6 * DAY - 1);
    expect((await summary()).days_remaining).toBe(2);
    expect((await updates()).some((u) => u.type === 'expiration_warning')).toBe(false);
    clock.set(start + 6 * DAY + HOUR);
    expect((await summary()).days_remaining).toBe(1);
    const warned = await updates();
    expect(warned[0]).toMatchObject({ type: 'expiration_warning', urgency_level: 'high', cta_text: 'Sign Up Free', expires_at: new Date(start + 7 * DAY).toISOString() });

    clock.set(start + 7 * DAY);
    expect(await summary()).toMatchObject({ days_remaining: 0, expired: true, total_interactions: 3 });
    expect(await updates()).toEqual([]);

    // Publishing after the window starts a new session.
    await publish(creator, 'After the window');
    expect(await sessionOf(creator)).not.toBe(sessionId);
    clock.set(start);
  });

  it('collects the email of the modal (spec 5 rule) with the caller’s session, and the modal’s events', async () => {
    const creator = createBrowser(app);
    await publish(creator, 'Email test');
    const sessionId = await sessionOf(creator);
    const ok = await creator.json('/api/email-collection', {
      method: 'POST',
      json: { email: ' maker@studio.example ', trigger: 'success_page', projectId: null, anonymousSessionId: 'anon_1_forged', timestamp: Date.now() },
    });
    expect(ok.status).toBe(201);
    // The address is not confirmed for this session yet: its confirmation is what was mailed.
    expect(ok.body).toEqual({ success: true, sent: 'confirmation' });
    const rows = await listEmailCollections(app.deps.db);
    expect(rows.at(-1)).toEqual({ email: 'maker@studio.example', trigger: 'success_page', project_id: null, anonymous_session_id: sessionId });

    for (const bad of ['', 'a@b', 'a b@c.de', 'no-at.example', '@x.y', 'x@.', 'a@b.c d']) {
      expect((await creator.json('/api/email-collection', { method: 'POST', json: { email: bad, trigger: 'high_views' } })).status, bad).toBe(400);
    }
    expect((await creator.json('/api/email-collection', { method: 'POST', json: { email: 'a@b.co', trigger: 'sometimes' } })).status).toBe(400);
    for (const trigger of ['first_engagement', 'high_views', 'return_visit']) {
      expect((await creator.json('/api/email-collection', { method: 'POST', json: { email: 'a@b.co', trigger } })).status).toBe(201);
    }

    for (const event of ['email_collection_skipped', 'email_collected', 'email_modal_dismissed']) {
      expect((await creator.json('/api/analytics/events', { method: 'POST', json: { event, trigger: 'return_visit' } })).status, event).toBe(201);
    }
    expect((await creator.json('/api/analytics/events', { method: 'POST', json: { event: 'page_hijacked' } })).status).toBe(400);
    expect(await countProductEvents(app.deps.db, 'email_collected')).toBe(1);
  });
});
