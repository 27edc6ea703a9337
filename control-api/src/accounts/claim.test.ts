import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.ts';
import { createFakeClock, startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { createBrowser, seedSite, type TBrowser } from '@dropsite/testkit/control-api/site-fixtures';
import { createSignedInCreator } from '@dropsite/testkit/control-api/accounts';
import { buildUploadForm } from '@dropsite/testkit/control-api/fixtures';
import { isDialectAvailable, TEST_DIALECTS, testAppDatabase } from '@dropsite/testkit/control-api/test-database';

const DAY = 86_400_000;
const DEFAULTS = loadConfig({});

async function publish(browser: TBrowser, title: string): Promise<string[]> {
  const form = buildUploadForm([{ name: 'notes.txt', type: 'text/plain', bytes: new TextEncoder().encode('hello') }], { title });
  const res = await browser.fetch('/api/upload', { method: 'POST', body: form });
  expect(res.status).toBe(201);
  return res.headers.getSetCookie();
}

function signedInAs(browser: TBrowser, cookie: string): TBrowser {
  browser.cookies.set('dropsite_session', cookie.slice(cookie.indexOf('=') + 1));
  return browser;
}

describe.each(TEST_DIALECTS)('claiming an anonymous session’s sites (%s)', async (dialect) => {
  const available = await isDialectAvailable(dialect);
  let app: TTestApp;
  const clock = createFakeClock();
  const database = testAppDatabase(dialect, 'claim');

  beforeAll(async () => {
    if (!available) return;
    app = await startTestApp({
      clock,
      startWorker: false,
      config: {
        rateLimits: { ...DEFAULTS.rateLimits, lookupMissesPerMinute: 3 },
        ...database.config,
      },
    });
  });
  afterAll(async () => {
    if (!available) return;
    await app.close();
    await database.drop();
  });

  it.skipIf(!available)('needs a signed-in creator', async () => {
    const browser = createBrowser(app);
    await publish(browser, 'Unclaimed');
    const res = await browser.json('/api/creators/claim', { method: 'POST', json: {} });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: 'Authentication required. Please sign in and try again.', code: 'unauthorized' });
  });

  it.skipIf(!available)('moves every site of the session once, keeps their engagement, and clears the anonymous cookie', async () => {
    const browser = createBrowser(app);
    await publish(browser, 'First');
    await publish(browser, 'Second');
    const sessionId = browser.cookies.get('dropsite_anon')!.split('.')[0]!;
    const site = await seedSite(app, { anonymousSessionId: sessionId, title: 'With engagement' });
    const visitor = createBrowser(app);
    await visitor.json('/api/favorites', { method: 'POST', json: { projectId: site.project.id, fileId: site.files[0]!.id } });
    await visitor.json('/api/analytics/view', { method: 'POST', json: { projectId: site.project.id } });

    const now = clock.now();
    const address = (email: string, status: 'confirmed' | 'unsubscribed') => ({
      id: `${status}-${dialect}`,
      email,
      owner_key: `anon:${sessionId}`,
      status,
      token_hash: null,
      token_expires_at: null,
      confirm_requested_at: null,
      confirm_sent_at: now,
      confirmed_at: now,
      unsubscribed_at: status === 'unsubscribed' ? now : null,
      created_at: now,
      updated_at: now,
    });
    await app.deps.db
      .insertInto('email_addresses')
      .values([address('notify@studio.example', 'confirmed'), address('quiet@studio.example', 'unsubscribed')])
      .execute();

    const creator = await createSignedInCreator(app.deps, { email: `claimer-${dialect}@studio.example` });
    signedInAs(browser, creator.cookie);
    const res = await browser.json<{ claimed: number; projects: Array<{ title: string; favorites_count: number; views_count: number }> }>('/api/creators/claim', {
      method: 'POST',
      json: { anonymousSessionId: sessionId },
    });
    expect(res.status).toBe(200);
    expect(res.body.claimed).toBe(3);
    expect(res.body.projects.map((p) => p.title).sort()).toEqual(['First', 'Second', 'With engagement']);
    expect(res.body.projects.find((p) => p.title === 'With engagement')).toMatchObject({ favorites_count: 1, views_count: 1 });
    expect(browser.cookies.has('dropsite_anon')).toBe(false);
    const owners = await app.deps.db.selectFrom('projects').select('owner_creator_id').where('anonymous_session_id', '=', sessionId).execute();
    expect(owners.map((o) => o.owner_creator_id)).toEqual([creator.id, creator.id, creator.id]);
    const favorites = await app.deps.db.selectFrom('favorites').select('id').where('project_id', '=', site.project.id).execute();
    expect(favorites).toHaveLength(1);
    // Notifications keep going to the address the session confirmed, and not to the one that unsubscribed.
    const carried = await app.deps.db.selectFrom('email_addresses').select(['email', 'status']).where('owner_key', '=', `creator:${creator.id}`).orderBy('email').execute();
    expect(carried).toEqual([
      { email: 'notify@studio.example', status: 'confirmed' },
      { email: 'quiet@studio.example', status: 'unsubscribed' },
    ]);
  });

  it.skipIf(!available)('under concurrent claims exactly one wins, even between two accounts', async () => {
    const browser = createBrowser(app);
    await publish(browser, 'Raced');
    await publish(browser, 'Raced too');
    const anon = browser.cookies.get('dropsite_anon')!;
    const sessionId = anon.split('.')[0]!;
    const creators = await Promise.all([1, 2].map((n) => createSignedInCreator(app.deps, { email: `racer${n}-${dialect}@studio.example` })));
    const attempts = Array.from({ length: 8 }, (_, i) => {
      const tab = createBrowser(app);
      tab.cookies.set('dropsite_anon', anon);
      return signedInAs(tab, creators[i % 2]!.cookie);
    });
    const results = await Promise.all(attempts.map((tab) => tab.json<{ claimed: number }>('/api/creators/claim', { method: 'POST', json: {} })));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    const claimed = results.map((r) => r.body.claimed).sort((a, b) => b - a);
    expect(claimed).toEqual([2, 0, 0, 0, 0, 0, 0, 0]);
    const owners = new Set(
      (await app.deps.db.selectFrom('projects').select('owner_creator_id').where('anonymous_session_id', '=', sessionId).execute()).map((o) => o.owner_creator_id),
    );
    expect(owners.size).toBe(1);
  });

  it.skipIf(!available)('still claims long after the 7-day window, while the sites themselves live', async () => {
    const browser = createBrowser(app);
    const cookies = await publish(browser, 'Late');
    // The anonymous cookie lasts as long as a browser keeps one, so the creator can come back for a late claim.
    const maxAge = Number(/Max-Age=(\d+)/i.exec(cookies.find((c) => c.startsWith('dropsite_anon=')) ?? '')?.[1]);
    expect(maxAge).toBe(400 * 86_400);
    clock.advance(60 * DAY);
    const creator = await createSignedInCreator(app.deps, { email: `late-${dialect}@studio.example` });
    const res = await signedInAs(browser, creator.cookie).json<{ claimed: number; projects: Array<{ title: string }> }>('/api/creators/claim', { method: 'POST', json: {} });
    expect(res.body.claimed).toBe(1);
    expect(res.body.projects.map((p) => p.title)).toEqual(['Late']);
  });

  it.skipIf(!available)('refuses to name a session that is not the caller’s: 404, and guessing is rate limited', async () => {
    const owner = createBrowser(app);
    await publish(owner, 'Someone else’s');
    const othersId = owner.cookies.get('dropsite_anon')!.split('.')[0]!;
    const thief = createBrowser(app);
    await publish(thief, 'Mine');
    const creator = await createSignedInCreator(app.deps, { email: `thief-${dialect}@studio.example` });
    signedInAs(thief, creator.cookie);
    const statuses: number[] = [];
    for (const id of [othersId, 'guessed-1', 'guessed-2', othersId]) {
      statuses.push((await thief.json('/api/creators/claim', { method: 'POST', json: { anonymousSessionId: id } })).status);
    }
    expect(statuses).toEqual([404, 404, 404, 429]);
    const row = await app.deps.db.selectFrom('projects').select('owner_creator_id').where('anonymous_session_id', '=', othersId).executeTakeFirstOrThrow();
    expect(row.owner_creator_id).toBeNull();
  });
});
