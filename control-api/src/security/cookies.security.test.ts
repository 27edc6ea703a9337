/**
 * Unlock and visitor cookies (security checklist 23, 24, 31; Lychee CVE-2026-22784, Nextcloud
 * CVE-2018-16465): an unlock opens one site, for one password version, for one visitor; a forged,
 * tampered or borrowed cookie opens nothing, and a visitor id the client made up is replaced.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.ts';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { createBrowser, seedSite, SITE_HTML_MARKER, type TBrowser, type TSeededSite } from '@dropsite/testkit/control-api/site-fixtures';
import { changeSitePassword } from '../sites/site-password.service.ts';

const DEFAULTS = loadConfig({});
const PASSWORD = 'correct horse battery';
const UNLOCK = 'dropsite_unlock_';
const VISITOR = 'dropsite_vid';

/** The statuses of a site's page, a file and its engagement state for this browser. */
async function probe(browser: TBrowser, site: TSeededSite): Promise<number[]> {
  const paths = [`/${site.slug}`, `/api/files/${site.files[0]!.id}?mode=download`, `/api/engagement/state?projectId=${site.project.id}`];
  const statuses: number[] = [];
  for (const path of paths) {
    const res = await browser.fetch(path);
    const text = await res.text();
    if (res.status !== 200) expect(text).not.toContain(SITE_HTML_MARKER);
    statuses.push(res.status);
  }
  return statuses;
}

const OPEN = [200, 200, 200];
const LOCKED = [401, 401, 401];

/** The same value with one character changed (still base64url, same length). */
function flipOne(value: string, at = Math.floor(value.length / 2)): string {
  const c = value[at]!;
  return value.slice(0, at) + (c === 'A' ? 'B' : 'A') + value.slice(at + 1);
}

describe('unlock and visitor cookies', () => {
  let app: TTestApp;

  beforeAll(async () => {
    app = await startTestApp({
      startWorker: false,
      config: { rateLimits: { ...DEFAULTS.rateLimits, readsPerMinute: 100_000, writesPerMinute: 100_000, unlockPerMinute: 100_000, unlockSitePerMinute: 100_000 } },
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  const unlock = async (browser: TBrowser, site: TSeededSite, password = PASSWORD) => {
    const res = await browser.json(`/api/sites/${site.slug}/unlock`, { method: 'POST', json: { password } });
    return res.status;
  };

  it('binds an unlock to its site, its password version and its visitor', async () => {
    const a = await seedSite(app, { password: PASSWORD });
    const b = await seedSite(app, { password: PASSWORD });
    const visitor = createBrowser(app);
    expect(await unlock(visitor, a)).toBe(200);
    expect(await probe(visitor, a)).toEqual(OPEN);
    const tokenOfA = visitor.cookies.get(`${UNLOCK}${a.project.id}`)!;

    // Site A's unlock on site B with the same password, under either name.
    expect(await probe(visitor, b)).toEqual(LOCKED);
    visitor.cookies.set(`${UNLOCK}${b.project.id}`, tokenOfA);
    expect(await probe(visitor, b)).toEqual(LOCKED);
    visitor.cookies.delete(`${UNLOCK}${b.project.id}`);

    // Another visitor carrying A's unlock (a copied cookie, with that visitor's own id).
    const other = createBrowser(app);
    await other.fetch(`/api/engagement/state?projectId=${b.project.id}`);
    other.cookies.set(`${UNLOCK}${a.project.id}`, tokenOfA);
    expect(await probe(other, a)).toEqual(LOCKED);

    // A new password, the same password set again, and a password removed then set again: all revoke.
    await changeSitePassword(app.deps, a.project.id, 'another long secret');
    expect(await probe(visitor, a)).toEqual(LOCKED);
    expect(await unlock(visitor, a, 'another long secret')).toBe(200);
    const second = visitor.cookies.get(`${UNLOCK}${a.project.id}`)!;
    await changeSitePassword(app.deps, a.project.id, 'another long secret');
    expect(await probe(visitor, a)).toEqual(LOCKED);
    await changeSitePassword(app.deps, a.project.id, null);
    await changeSitePassword(app.deps, a.project.id, 'another long secret');
    for (const old of [tokenOfA, second]) {
      visitor.cookies.set(`${UNLOCK}${a.project.id}`, old);
      expect(await probe(visitor, a)).toEqual(LOCKED);
    }
  });

  it('refuses forged and tampered unlock cookies', async () => {
    const site = await seedSite(app, { password: PASSWORD });
    const visitor = createBrowser(app);
    expect(await unlock(visitor, site)).toBe(200);
    const name = `${UNLOCK}${site.project.id}`;
    const real = visitor.cookies.get(name)!;
    const visitorId = visitor.cookies.get(VISITOR)!.split('.')[0]!;
    const forgeries = [
      flipOne(real),
      flipOne(real, 0),
      flipOne(real, real.length - 1),
      real.slice(0, -1),
      `${real}A`,
      `${real}.${real}`,
      real.toUpperCase(),
      randomBytes(32).toString('base64url'),
      'A'.repeat(real.length),
      '',
      '""',
      `"${flipOne(real)}"`,
      // HMACs over the site, version and visitor with keys an attacker might guess.
      createHmac('sha256', '').update(`${site.project.id}\u00001\u0000${site.project.password_hash}\u0000${visitorId}`).digest('base64url'),
      createHmac('sha256', 'secret').update(`${site.project.id}\u00001\u0000${site.project.password_hash}\u0000${visitorId}`).digest('base64url'),
      createHmac('sha256', site.project.password_hash!).update(`${site.project.id}\u00001\u0000${visitorId}`).digest('base64url'),
    ];
    for (const forged of forgeries) {
      visitor.cookies.set(name, forged);
      expect(await probe(visitor, site), forged).toEqual(LOCKED);
    }
    // A forged cookie placed before the real one: the first of duplicates is read, and it opens nothing.
    visitor.cookies.delete(name);
    const res = await visitor.fetch(`/${site.slug}`, { headers: { cookie: `${name}=${flipOne(real)}; ${visitor.cookieHeader()}; ${name}=${real}` } });
    expect(res.status).toBe(401);
    // The real one still works, so the refusals above were the forgeries'.
    visitor.cookies.set(name, real);
    expect(await probe(visitor, site)).toEqual(OPEN);
  });

  it('never accepts a visitor id the client made up: a forged or tampered one is replaced by a new signed id', async () => {
    const site = await seedSite(app, { password: PASSWORD });
    const visitor = createBrowser(app);
    expect(await unlock(visitor, site)).toBe(200);
    const real = visitor.cookies.get(VISITOR)!;
    const [id, tag] = real.split('.') as [string, string];
    const unlockToken = visitor.cookies.get(`${UNLOCK}${site.project.id}`)!;
    for (const forged of [`${id}.${flipOne(tag)}`, `${flipOne(id)}.${tag}`, `${id}.`, id, `${'A'.repeat(22)}.${'A'.repeat(22)}`, `${id}.${tag}.${tag}`, `../${id}.${tag}`]) {
      const thief = createBrowser(app);
      thief.cookies.set(VISITOR, forged);
      thief.cookies.set(`${UNLOCK}${site.project.id}`, unlockToken);
      expect(await probe(thief, site), forged).toEqual(LOCKED);
      // The server answered with an id of its own making.
      const issued = thief.cookies.get(VISITOR)!;
      expect(issued, forged).not.toBe(forged);
      expect(issued.split('.')[0], forged).not.toBe(id);
    }
  });

  it('writes its cookies HttpOnly and SameSite=Lax, and Secure with the __Host- prefix behind https', async () => {
    const site = await seedSite(app, { password: PASSWORD });
    const plain = await fetch(`${app.url}/api/sites/${site.slug}/unlock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.url },
      body: JSON.stringify({ password: PASSWORD }),
    });
    expect(plain.status).toBe(200);
    // The same API behind https: an app of its own whose public URL says so (a config is never changed in place).
    const secureApp = await startTestApp({ startWorker: false, config: { publicUrl: 'https://drop.example', rateLimits: app.deps.config.rateLimits } });
    try {
      const secureSite = await seedSite(secureApp, { password: PASSWORD });
      const secure = await fetch(`${secureApp.url}/api/sites/${secureSite.slug}/unlock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://drop.example' },
        body: JSON.stringify({ password: PASSWORD }),
      });
      expect(secure.status).toBe(200);
      const lines = secure.headers.getSetCookie();
      expect(lines.length).toBeGreaterThanOrEqual(2);
      for (const line of lines) {
        expect(line).toMatch(/^__Host-dropsite_/);
        expect(line).toMatch(/;\s*Secure/i);
        expect(line).not.toMatch(/;\s*Domain=/i);
      }
    } finally {
      await secureApp.close();
    }
    for (const line of plain.headers.getSetCookie()) {
      expect(line).toMatch(/;\s*HttpOnly/i);
      expect(line).toMatch(/;\s*SameSite=Lax/i);
      expect(line).toMatch(/;\s*Path=\//);
      expect(line).not.toMatch(/;\s*Domain=/i);
    }
    // The unlock answer names no token in its body: only the cookie carries it.
    const body = (await plain.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['redirectTo', 'success']);
  });
});
