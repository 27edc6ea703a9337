/**
 * Unlock and visitor cookies carry their issue time inside the MAC: the server stops honouring
 * them on its own (an unlock after 12 hours or at the site's expiry, a visitor id after 400 days),
 * whatever the browser keeps or an attacker replays. Values of the earlier format (no time) are
 * treated as absent: a fresh visitor id, the site locked again; never an error.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.ts';
import { createFakeClock, testAppForSuite } from '@dropsite/testkit/control-api/test-app';
import { createBrowser, seedSite, type TBrowser } from '@dropsite/testkit/control-api/site-fixtures';

const DEFAULTS = loadConfig({});
const PASSWORD = 'correct horse battery';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('cookie lifetimes enforced by the server', () => {
  const clock = createFakeClock();

  const app = testAppForSuite({
    clock,
    startWorker: false,
    config: { rateLimits: { ...DEFAULTS.rateLimits, readsPerMinute: 10_000, writesPerMinute: 10_000, unlockPerMinute: 10_000, unlockSitePerMinute: 10_000 } },
  });

  const unlock = (browser: TBrowser, slug: string) => browser.json(`/api/sites/${slug}/unlock`, { method: 'POST', json: { password: PASSWORD } });
  const visitorIdIn = (browser: TBrowser) => browser.cookies.get('dropsite_vid')?.split('.')[0];

  it('an unlock stops opening the site after 12 hours, even when the browser still sends it', async () => {
    const site = await seedSite(app, { password: PASSWORD });
    const visitor = createBrowser(app);
    const res = await unlock(visitor, site.slug);
    expect(res.status).toBe(200);
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('dropsite_unlock_'))!;
    expect(Number(/Max-Age=(\d+)/i.exec(setCookie)?.[1])).toBeLessThanOrEqual(12 * 3600);
    clock.advance(11 * HOUR);
    expect((await visitor.fetch(`/${site.slug}`)).status).toBe(200);
    clock.advance(HOUR + 1000);
    expect((await visitor.fetch(`/${site.slug}`)).status).toBe(401);
    // A fresh unlock works again.
    expect((await unlock(visitor, site.slug)).status).toBe(200);
    expect((await visitor.fetch(`/${site.slug}`)).status).toBe(200);
  });

  it('an unlock lasts no longer than the site: its cookie ends at the expiry', async () => {
    const site = await seedSite(app, { password: PASSWORD, expiresAt: clock.now() + 2 * HOUR });
    const visitor = createBrowser(app);
    const res = await unlock(visitor, site.slug);
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('dropsite_unlock_'))!;
    expect(Number(/Max-Age=(\d+)/i.exec(setCookie)?.[1])).toBeLessThanOrEqual(2 * 3600);
  });

  it('an unlock whose time was edited, or of the earlier format without one, opens nothing', async () => {
    const site = await seedSite(app, { password: PASSWORD });
    const visitor = createBrowser(app);
    expect((await unlock(visitor, site.slug)).status).toBe(200);
    const name = `dropsite_unlock_${site.project.id}`;
    const value = visitor.cookies.get(name)!;
    const dot = value.indexOf('.');
    expect(dot).toBeGreaterThan(0);
    visitor.cookies.set(name, `${(Number.parseInt(value.slice(0, dot), 36) + 30 * 86_400).toString(36)}${value.slice(dot)}`);
    expect((await visitor.fetch(`/${site.slug}`)).status).toBe(401);

    // The earlier format: an HMAC over site, password version, hash and visitor, valid forever.
    const keys = app.deps.keys!.cookie;
    const visitorId = visitorIdIn(visitor)!;
    const legacy = createHmac('sha256', keys.unlock)
      .update(`${site.project.id}\u0000${site.project.password_version}\u0000${site.project.password_hash ?? ''}\u0000${visitorId}`)
      .digest('base64url');
    visitor.cookies.set(name, legacy);
    expect((await visitor.fetch(`/${site.slug}`)).status).toBe(401);
  });

  it('a visitor id is honoured for 400 days, renewed along the way, and replaced after', async () => {
    const site = await seedSite(app);
    const state = `/api/engagement/state?projectId=${site.project.id}`;
    const visitor = createBrowser(app);
    expect((await visitor.fetch(state)).status).toBe(200);
    const first = visitorIdIn(visitor)!;
    const issued = visitor.cookies.get('dropsite_vid')!;
    expect(first).toMatch(/^[A-Za-z0-9_-]{22}$/);

    // Old but valid: the same id, in a cookie issued again.
    clock.advance(60 * DAY);
    const renewedRes = await visitor.fetch(state);
    expect(renewedRes.status).toBe(200);
    expect(renewedRes.headers.getSetCookie().some((c) => c.startsWith('dropsite_vid='))).toBe(true);
    expect(visitorIdIn(visitor)).toBe(first);
    expect(visitor.cookies.get('dropsite_vid')).not.toBe(issued);

    // A value 400 days old is not a visitor any more: a new id, no error.
    const stale = createBrowser(app);
    stale.cookies.set('dropsite_vid', issued);
    clock.advance(341 * DAY);
    const res = await stale.fetch(state);
    expect(res.status).toBe(200);
    expect(visitorIdIn(stale)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(visitorIdIn(stale)).not.toBe(first);
  });

  it('a visitor cookie of the earlier format (id and tag only) counts as none: a fresh id, not an error', async () => {
    const site = await seedSite(app);
    const keys = app.deps.keys!.cookie;
    const id = 'AAAAAAAAAAAAAAAAAAAAAA';
    const legacy = `${id}.${createHmac('sha256', keys.visitor).update(id).digest('base64url').slice(0, 22)}`;
    const visitor = createBrowser(app);
    visitor.cookies.set('dropsite_vid', legacy);
    const state = await visitor.json(`/api/engagement/state?projectId=${site.project.id}`);
    expect(state.status).toBe(200);
    expect(visitorIdIn(visitor)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(visitorIdIn(visitor)).not.toBe(id);
  });
});
