/**
 * What the landing page, the wizard and the FAQ say about publishing without an account, held to the
 * server: the site stays online past the anonymous window (the sweeper leaves it, its files still
 * download), the browser's hold on it ends (no more activity updates; the warning says exactly that,
 * not that data is deleted), and a sign-up long after still claims it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANONYMOUS_WINDOW_DAYS, EXPIRED_SITE_GRACE_DAYS, ZEngagementUpdatesResponseSchema } from '@dropsite/shared';
import { sweepExpiredSites } from '../access/expired-sites.ts';
import { createSignedInCreator } from '@dropsite/testkit/control-api/accounts';
import { buildUploadForm } from '@dropsite/testkit/control-api/fixtures';
import { createBrowser } from '@dropsite/testkit/control-api/site-fixtures';
import { createFakeClock, startTestApp, UNREACHED_RATE_LIMITS, type TTestApp } from '@dropsite/testkit/control-api/test-app';

const DAY = 86_400_000;

describe('a site published without an account after its anonymous window', () => {
  let app: TTestApp;
  const start = Date.UTC(2026, 11, 1, 9, 0, 0);
  const clock = createFakeClock(start);

  beforeAll(async () => {
    app = await startTestApp({ clock, startWorker: false, config: { rateLimits: UNREACHED_RATE_LIMITS } });
  });
  afterAll(async () => {
    await app.close();
  });

  it('stays online and downloadable past the window and a sweep; the browser only loses its view, and a late sign-up still claims it', async () => {
    const creator = createBrowser(app);
    const bytes = new TextEncoder().encode('the final proofs');
    const form = buildUploadForm([{ name: 'proofs.txt', type: 'text/plain', bytes }], { title: 'Proofs' });
    const published = await creator.json<{ slug: string }>('/api/upload', { method: 'POST', body: form });
    expect(published.status).toBe(201);
    const sessionId = creator.cookies.get('dropsite_anon')!.split('.')[0]!;
    const site = await app.deps.db.selectFrom('projects').select(['id', 'expires_at']).where('slug', '=', published.body.slug).executeTakeFirstOrThrow();
    expect(site.expires_at).toBeNull();
    const file = await app.deps.db.selectFrom('files').select('id').where('project_id', '=', site.id).executeTakeFirstOrThrow();
    const updates = async () => ZEngagementUpdatesResponseSchema.parse((await creator.json(`/api/engagement/anonymous/${sessionId}/updates`)).body).updates;

    // The last day's warning says what ends: this browser's view, not the data.
    clock.set(start + ANONYMOUS_WINDOW_DAYS * DAY - 2 * 3_600_000);
    const [warning] = (await updates()).filter((u) => u.type === 'expiration_warning');
    expect(warning?.message).toBe('In less than 24 hours this browser stops showing your sites’ activity. Sign up free to keep following it.');
    expect(warning?.message).not.toMatch(/delete|expire/i);

    clock.set(start + (ANONYMOUS_WINDOW_DAYS + EXPIRED_SITE_GRACE_DAYS + 30) * DAY);
    expect(await updates()).toEqual([]);
    await sweepExpiredSites(app.deps);
    const download = await createBrowser(app).fetch(`/api/files/${file.id}?mode=download`);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);

    const account = await createSignedInCreator(app.deps, { email: 'late-sign-up@studio.example' });
    const eq = account.cookie.indexOf('=');
    // The same browser, now signed in too: its anonymous cookie names the session to claim.
    creator.cookies.set(account.cookie.slice(0, eq), account.cookie.slice(eq + 1));
    const claim = await creator.json<{ claimed: number }>('/api/creators/claim', { method: 'POST', json: {} });
    expect(claim.body.claimed).toBe(1);
  });
});
