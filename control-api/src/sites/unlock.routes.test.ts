import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { loadConfig } from '../config/config.ts';
import { createFakeClock, startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { createBrowser, seedSite, SITE_HTML_MARKER, type TBrowser, type TSeededSite } from '@dropsite/testkit/control-api/site-fixtures';
import { changeSitePassword } from './site-password.service.ts';

const DEFAULTS = loadConfig({});
const PASSWORD = 'correct horse';
/** An 8x6 PNG, standing in for a site's first thumbnail. */
const GATE_PICTURE_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAGCAIAAABxZ0isAAAAK0lEQVR4nGM4YaOBFTGcCNDAihhOpGhgRQwnKjSwIoYTPRpYEcOJBRpYEQBIFEGhyXPIpAAAAABJRU5ErkJggg==';

/** Every way a site's content is reached: HTML, a file, a thumbnail, the ZIP of all, engagement. */
async function probeSite(browser: TBrowser, site: TSeededSite): Promise<Record<string, { status: number; cacheControl: string | null }>> {
  const file = site.files[0]!.id;
  const requests: Record<string, () => Promise<Response>> = {
    html: () => browser.fetch(`/${site.slug}`),
    file: () => browser.fetch(`/api/files/${file}?mode=download`),
    preview: () => browser.fetch(`/api/files/${file}?mode=preview`),
    thumbnail: () => browser.fetch(`/api/files/${file}?mode=preview&size=300`),
    zip: () => browser.fetch(`/api/sites/${site.slug}/download`),
    state: () => browser.fetch(`/api/engagement/state?projectId=${site.project.id}`),
    favorite: () => browser.fetch('/api/favorites', { method: 'POST', json: { projectId: site.project.id, fileId: file } }),
  };
  const out: Record<string, { status: number; cacheControl: string | null }> = {};
  for (const [name, request] of Object.entries(requests)) {
    const res = await request();
    await res.arrayBuffer();
    out[name] = { status: res.status, cacheControl: res.headers.get('cache-control') };
  }
  return out;
}

function statuses(probe: Record<string, { status: number }>): Record<string, number> {
  return Object.fromEntries(Object.entries(probe).map(([k, v]) => [k, v.status]));
}

const ALL_OK = { html: 200, file: 200, preview: 200, thumbnail: 200, zip: 200, state: 200, favorite: 200 };
const ALL_LOCKED = { html: 401, file: 401, preview: 401, thumbnail: 401, zip: 401, state: 401, favorite: 401 };

describe('site access: passwords and expiry', () => {
  let app: TTestApp;
  const clock = createFakeClock();

  beforeAll(async () => {
    app = await startTestApp({ clock, startWorker: false, config: { trustProxy: 1, rateLimits: { ...DEFAULTS.rateLimits, readsPerMinute: 10_000, writesPerMinute: 10_000 } } });
  });
  afterAll(async () => {
    await app.close();
  });

  const unlock = (browser: TBrowser, slug: string, password: string) => browser.json(`/api/sites/${slug}/unlock`, { method: 'POST', json: { password } });

  it('serves a public site and everything of it', async () => {
    const site = await seedSite(app);
    const probe = await probeSite(createBrowser(app), site);
    expect(statuses(probe)).toEqual(ALL_OK);
  });

  it('refuses every part of a protected site without its unlock, with the password page and no-store', async () => {
    const site = await seedSite(app, { password: PASSWORD, theme: 'professional-dark' });
    const visitor = createBrowser(app);
    const probe = await probeSite(visitor, site);
    expect(statuses(probe)).toEqual(ALL_LOCKED);
    for (const [name, { cacheControl }] of Object.entries(probe)) expect(cacheControl, name).toBe('private, no-store');

    // What builds on a file (its PDF rendering and first page, a video poster, an archive entry) and the site's preview picture refuse too.
    for (const path of [
      `/api/files/${site.files[0]!.id}/pdf`,
      `/api/files/${site.files[0]!.id}/first-page`,
      `/api/files/${site.files[0]!.id}/poster`,
      `/api/files/${site.files[0]!.id}/entry?path=a.txt`,
      `/${site.slug}/og.png`,
    ]) {
      const res = await visitor.fetch(path);
      expect(res.status, path).toBe(401);
      expect(res.headers.get('cache-control'), path).toBe('private, no-store');
    }

    const page = await (await visitor.fetch(`/${site.slug}`)).text();
    expect(page).not.toContain(SITE_HTML_MARKER);
    expect(page).toContain('This site is password protected');
    expect(page).toContain(`<form method="post" action="/api/sites/${site.slug}/unlock">`);
    expect(page).toContain('type="password"');
    expect(page).toContain('#0c0e12'); // the site's dark theme
    // A password in the URL is never looked at.
    expect((await visitor.fetch(`/${site.slug}?password=${encodeURIComponent(PASSWORD)}`)).status).toBe(401);
    expect((await visitor.json(`/api/sites/${site.slug}/unlock?password=${encodeURIComponent(PASSWORD)}`, { method: 'POST', json: {} })).status).toBe(400);
  });

  it("the gate shows the site's title, author and a cover of a few pixels in the site's mode, and nothing else of it", async () => {
    const site = await seedSite(app, { password: PASSWORD, title: 'Harbour <Lights>', theme: 'nature-light' });
    await app.deps.db.updateTable('projects').set({ author_name: 'Mira Solberg', color_mode: 'auto' }).where('id', '=', site.project.id).execute();
    const thumbnailKey = (JSON.parse(site.files[0]!.metadata ?? '{}') as { thumbnail: { key: string } }).thumbnail.key;
    await app.deps.storage.put(thumbnailKey, Buffer.from(GATE_PICTURE_PNG, 'base64'));
    const visitor = createBrowser(app);
    const res = await visitor.fetch(`/${site.slug}`);
    expect(res.status).toBe(401);
    const page = await res.text();
    expect(page).toContain('<h1>Harbour &lt;Lights&gt;</h1>');
    expect(page).toContain('<p class="by">By Mira Solberg</p>');
    expect(page).toContain('This site is password protected');
    // The cover: a JPEG of at most 16 px across, inline (no URL of the site's files), blurred by the page.
    const cover = /<img src="data:image\/jpeg;base64,([A-Za-z0-9+/=]+)"/.exec(page)?.[1];
    expect(cover).toBeDefined();
    const jpeg = Buffer.from(cover!, 'base64');
    const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    expect(jpeg.readUInt16BE(sof + 7)).toBeLessThanOrEqual(16);
    expect(page).not.toContain('/api/files/');
    expect(page).not.toContain('photo-1.jpg');
    // Following the visitor's colour scheme ('auto'): both palettes, dark by media query.
    expect(page).toContain('@media (prefers-color-scheme:dark)');
    // A wrong guess shows the same gate again, with the error.
    const form = await visitor.fetch(`/api/sites/${site.slug}/unlock`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ password: 'wrong guess' }).toString(),
    });
    expect(form.status).toBe(401);
    const again = await form.text();
    expect(again).toContain('<h1>Harbour &lt;Lights&gt;</h1>');
    expect(again).toContain('Incorrect password. Please try again.');
  });

  it('unlocks with the right password (JSON and form), for that visitor only', async () => {
    const site = await seedSite(app, { password: PASSWORD });
    const visitor = createBrowser(app);
    const wrong = await unlock(visitor, site.slug, 'nope');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ success: false, error: 'Incorrect password. Please try again.' });
    const right = await unlock(visitor, site.slug, PASSWORD);
    expect(right.status).toBe(200);
    expect(right.body).toEqual({ success: true, redirectTo: `/${site.slug}` });
    const cookie = [...visitor.cookies.keys()].find((k) => k.startsWith('dropsite_unlock_'));
    expect(cookie).toBe(`dropsite_unlock_${site.project.id}`);
    const setCookie = right.headers.getSetCookie().find((c) => c.startsWith('dropsite_unlock_'))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\//);
    const probe = await probeSite(visitor, site);
    expect(statuses(probe)).toEqual(ALL_OK);
    // Unlocked content is never for shared caches.
    expect(probe.html!.cacheControl).toMatch(/^private/);
    expect(probe.file!.cacheControl).toMatch(/^private/);
    expect(await (await visitor.fetch(`/${site.slug}`)).text()).toContain(SITE_HTML_MARKER);

    // The unlock cookie alone, in another browser (another visitor), opens nothing.
    const thief = createBrowser(app);
    thief.cookies.set(cookie!, visitor.cookies.get(cookie!)!);
    expect(statuses(await probeSite(thief, site))).toEqual(ALL_LOCKED);

    // The password page's form: 303 to the site, or the page again with the error.
    const formVisitor = createBrowser(app);
    const form = (password: string) =>
      formVisitor.fetch(`/api/sites/${site.slug}/unlock`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ password }).toString(),
      });
    const bad = await form('wrong');
    expect(bad.status).toBe(401);
    const badPage = await bad.text();
    expect(badPage).toContain('Incorrect password. Please try again.');
    expect(badPage).toContain('aria-invalid="true"');
    const good = await form(PASSWORD);
    expect(good.status).toBe(303);
    expect(good.headers.get('location')).toBe(`/${site.slug}`);
    expect((await formVisitor.fetch(`/${site.slug}`)).status).toBe(200);
  });

  it('never accepts one site’s unlock on another site with the same password', async () => {
    const a = await seedSite(app, { password: PASSWORD });
    const b = await seedSite(app, { password: PASSWORD });
    const visitor = createBrowser(app);
    expect((await unlock(visitor, a.slug, PASSWORD)).status).toBe(200);
    expect(statuses(await probeSite(visitor, b))).toEqual(ALL_LOCKED);
    // Even carried over under site B's cookie name.
    visitor.cookies.set(`dropsite_unlock_${b.project.id}`, visitor.cookies.get(`dropsite_unlock_${a.project.id}`)!);
    expect(statuses(await probeSite(visitor, b))).toEqual(ALL_LOCKED);
    expect(statuses(await probeSite(visitor, a))).toEqual(ALL_OK);
  });

  it('revokes earlier unlocks when the password changes, and opens the site when it is removed', async () => {
    const site = await seedSite(app, { password: PASSWORD });
    const visitor = createBrowser(app);
    await unlock(visitor, site.slug, PASSWORD);
    expect(statuses(await probeSite(visitor, site))).toEqual(ALL_OK);

    await changeSitePassword(app.deps, site.project.id, 'a new secret');
    expect(statuses(await probeSite(visitor, site))).toEqual(ALL_LOCKED);
    expect((await unlock(visitor, site.slug, PASSWORD)).status).toBe(401);
    expect((await unlock(visitor, site.slug, 'a new secret')).status).toBe(200);
    expect(statuses(await probeSite(visitor, site))).toEqual(ALL_OK);

    // Setting the same password again still bumps the version: unlocks from before do not survive.
    await changeSitePassword(app.deps, site.project.id, 'a new secret');
    expect(statuses(await probeSite(visitor, site))).toEqual(ALL_LOCKED);

    await changeSitePassword(app.deps, site.project.id, null);
    expect(statuses(await probeSite(createBrowser(app), site))).toEqual(ALL_OK);
    const row = await app.deps.db.selectFrom('projects').select(['password_hash', 'password_version']).where('id', '=', site.project.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ password_hash: null, password_version: 4 });
  });

  it('answers 410 for everything from the exact instant of expiry, no-store', async () => {
    const expiresAt = clock.now() + 60_000;
    const site = await seedSite(app, { expiresAt, password: PASSWORD });
    const visitor = createBrowser(app);
    await unlock(visitor, site.slug, PASSWORD);
    clock.set(expiresAt - 1);
    expect(statuses(await probeSite(visitor, site))).toEqual(ALL_OK);
    clock.set(expiresAt);
    const probe = await probeSite(visitor, site);
    expect(statuses(probe)).toEqual({ html: 410, file: 410, preview: 410, thumbnail: 410, zip: 410, state: 410, favorite: 410 });
    for (const [name, { cacheControl }] of Object.entries(probe)) expect(cacheControl, name).toBe('private, no-store');
    expect(await (await visitor.fetch(`/${site.slug}`)).text()).toContain('This site has expired');
    for (const path of [`/api/files/${site.files[0]!.id}/pdf`, `/api/files/${site.files[0]!.id}/first-page`, `/api/files/${site.files[0]!.id}/poster`, `/${site.slug}/og.png`]) {
      expect((await visitor.fetch(path)).status, path).toBe(410);
    }
    expect((await unlock(visitor, site.slug, PASSWORD)).status).toBe(410);
    clock.set(Date.UTC(2026, 10, 22, 12, 0, 0));
  });

  it('answers an unknown site like any missing one, after the same password work', async () => {
    const visitor = createBrowser(app, { address: '192.0.2.200' });
    expect((await unlock(visitor, 'zzzzzzzzzz', 'guess')).status).toBe(404);
  });

  it('takes about as long for a missing site, a public site and a wrong password', async () => {
    const locked = await seedSite(app, { password: PASSWORD });
    const open = await seedSite(app);
    const time = async (slug: string, i: number) => {
      const visitor = createBrowser(app, { address: `192.0.2.${100 + i}` });
      const started = performance.now();
      await unlock(visitor, slug, 'not it');
      return performance.now() - started;
    };
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // Rounds of one attempt each, one after another and in turn, so a busy moment of the machine falls on
    // all three alike rather than on one group.
    const samples: Record<'wrong' | 'missing' | 'publicSite', number[]> = { wrong: [], missing: [], publicSite: [] };
    for (let round = 0; round < 7; round++) {
      const order = (['wrong', 'missing', 'publicSite'] as const).map((_, i, all) => all[(i + round) % all.length]!);
      for (const kind of order) {
        const slug = kind === 'wrong' ? locked.slug : kind === 'missing' ? 'qqqqqqqqqq' : open.slug;
        samples[kind].push(await time(slug, round * 3 + order.indexOf(kind)));
      }
    }
    const wrong = median(samples.wrong);
    const missing = median(samples.missing);
    const publicSite = median(samples.publicSite);
    expect(missing).toBeGreaterThan(wrong * 0.4);
    expect(publicSite).toBeGreaterThan(wrong * 0.4);
  });

  it('never writes the password to the log', async () => {
    const lines: string[] = [];
    // An app of its own whose log keeps every line (a runtime's logger is never swapped under it).
    const log = pino(
      { level: 'trace' },
      new Writable({
        write: (chunk, _enc, done) => {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const logged = await startTestApp({
      clock,
      startWorker: false,
      log,
      config: { trustProxy: 1, rateLimits: { ...DEFAULTS.rateLimits, readsPerMinute: 10_000, writesPerMinute: 10_000 } },
    });
    try {
      const site = await seedSite(logged, { password: 'pa55-in-logs?' });
      const visitor = createBrowser(logged, { address: '192.0.2.50' });
      await unlock(visitor, site.slug, 'wrong-pa55-in-logs?');
      await unlock(visitor, site.slug, 'pa55-in-logs?');
      await visitor.fetch(`/api/sites/${site.slug}/unlock`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'password=pa55-in-logs%3F' });
    } finally {
      await logged.close();
    }
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain('pa55-in-logs');
  });
});

describe('password guessing limits (in memory, no Redis)', () => {
  let app: TTestApp;
  const clock = createFakeClock();

  beforeAll(async () => {
    app = await startTestApp({ clock, startWorker: false, config: { trustProxy: 1, rateLimits: { ...DEFAULTS.rateLimits, unlockPerMinute: 5, unlockSitePerMinute: 8 } } });
  });
  afterAll(async () => {
    await app.close();
  });

  it('limits guesses per address with 429 and Retry-After, then per site across addresses', async () => {
    const site = await seedSite(app, { password: PASSWORD });
    const guesser = createBrowser(app, { address: '203.0.113.9' });
    const results: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 7; i++) {
      const res = await guesser.fetch(`/api/sites/${site.slug}/unlock`, { method: 'POST', json: { password: `guess ${i}` } });
      results.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get('retry-after');
      await res.arrayBuffer();
    }
    expect(results).toEqual([401, 401, 401, 401, 401, 429, 429]);
    expect(Number(retryAfter)).toBe(12);
    // Even the right password waits: the limit is on guessing, whatever the guess.
    expect((await guesser.fetch(`/api/sites/${site.slug}/unlock`, { method: 'POST', json: { password: PASSWORD } })).status).toBe(429);

    // Spread over many addresses, the site's own limit (8 a minute) holds; 5 were spent above.
    const spread: number[] = [];
    for (let i = 0; i < 5; i++) {
      const other = createBrowser(app, { address: `198.51.100.${i + 10}` });
      spread.push((await other.fetch(`/api/sites/${site.slug}/unlock`, { method: 'POST', json: { password: `guess ${i}` } })).status);
    }
    expect(spread).toEqual([401, 401, 401, 429, 429]);

    // The form gets the password page with the reason.
    const formRes = await createBrowser(app, { address: '198.51.100.99' }).fetch(`/api/sites/${site.slug}/unlock`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'password=x',
    });
    expect(formRes.status).toBe(429);
    expect(formRes.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await formRes.text()).toContain('Too many attempts');

    clock.advance(60_000);
    const later = createBrowser(app, { address: '203.0.113.9' });
    expect((await later.fetch(`/api/sites/${site.slug}/unlock`, { method: 'POST', json: { password: PASSWORD } })).status).toBe(200);
  });
});
