/**
 * The password wall of a site: a few addresses guessing wrong must not lock everyone else out.
 * Only failed guesses count; each (site, address) backs off on its own; the per-address limit stays.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.ts';
import { createFakeClock, startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { createBrowser, seedSite } from '@dropsite/testkit/control-api/site-fixtures';

const DEFAULTS = loadConfig({ TRUST_PROXY: '1' });
const PASSWORD = 'correct horse battery';

async function guess(app: TTestApp, slug: string, address: string, password: string): Promise<{ status: number; retryAfter: number }> {
  const res = await createBrowser(app, { address }).fetch(`/api/sites/${slug}/unlock`, { method: 'POST', json: { password } });
  await res.arrayBuffer();
  return { status: res.status, retryAfter: Number(res.headers.get('retry-after') ?? 0) };
}

describe('password wall (default limits)', () => {
  let app: TTestApp;
  const clock = createFakeClock();

  beforeAll(async () => {
    app = await startTestApp({ clock, startWorker: false, config: { trustProxy: DEFAULTS.trustProxy, rateLimits: DEFAULTS.rateLimits } });
  });
  afterAll(async () => {
    await app.close();
  });

  it('lets a visitor with the right password in while three addresses hammer the site', async () => {
    const site = await seedSite(app, { password: PASSWORD });
    const attackers = ['203.0.113.1', '203.0.113.2', '203.0.113.3'];
    let refused = 0;
    // Two minutes of guessing as fast as the wall allows.
    for (let round = 0; round < 60; round++) {
      for (const address of attackers) {
        const { status } = await guess(app, site.slug, address, `wrong ${round}`);
        expect([401, 429]).toContain(status);
        if (status === 429) refused++;
      }
      clock.advance(2_000);
    }
    expect(refused).toBeGreaterThan(0);

    // Visitors from other addresses still get in with the right password...
    for (let i = 0; i < 5; i++) expect((await guess(app, site.slug, `198.51.100.${i + 1}`, PASSWORD)).status).toBe(200);
    // ...even one who mistyped first, once it waited as told.
    const typo = await guess(app, site.slug, '198.51.100.50', 'correct horse');
    expect([401, 429]).toContain(typo.status);
    clock.advance(typo.retryAfter * 1000);
    expect((await guess(app, site.slug, '198.51.100.50', PASSWORD)).status).toBe(200);
    // The hammering addresses are still held back, whatever they send.
    expect((await guess(app, site.slug, attackers[0]!, PASSWORD)).status).toBe(429);
  });

  it('counts only failed guesses: many visitors (or one office behind one address) unlocking never hit the wall', async () => {
    const site = await seedSite(app, { password: PASSWORD });
    for (let i = 0; i < 40; i++) expect((await guess(app, site.slug, `192.0.2.${i + 1}`, PASSWORD)).status).toBe(200);
    for (let i = 0; i < 15; i++) expect((await guess(app, site.slug, '192.0.2.200', PASSWORD)).status).toBe(200);
  });

  it('backs off per (site, address): each further failure waits longer, other sites and addresses are not held', async () => {
    const site = await seedSite(app, { password: PASSWORD });
    const other = await seedSite(app, { password: PASSWORD });
    const address = '203.0.113.77';
    const first: number[] = [];
    for (let i = 0; i < 6; i++) first.push((await guess(app, site.slug, address, `nope ${i}`)).status);
    expect(first.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    const held = await guess(app, site.slug, address, PASSWORD);
    expect(held.status).toBe(429);
    expect(held.retryAfter).toBeGreaterThan(0);

    // The same address on another site, and another address on this site, are not held by it.
    expect((await guess(app, other.slug, address, PASSWORD)).status).toBe(200);
    expect((await guess(app, site.slug, '203.0.113.78', PASSWORD)).status).toBe(200);

    // Waiting as told allows one more guess; failing again doubles the wait.
    clock.advance(held.retryAfter * 1000);
    expect((await guess(app, site.slug, address, 'nope again')).status).toBe(401);
    const longer = await guess(app, site.slug, address, PASSWORD);
    expect(longer.status).toBe(429);
    expect(longer.retryAfter).toBeGreaterThan(held.retryAfter);
    clock.advance(longer.retryAfter * 1000);
    expect((await guess(app, site.slug, address, PASSWORD)).status).toBe(200);
  });

  it('checks parallel guesses of one address one at a time, so they cannot outrun the wall', async () => {
    const site = await seedSite(app, { password: PASSWORD });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => guess(app, site.slug, '203.0.113.99', `parallel ${i}`)));
    const checked = results.filter((r) => r.status === 401).length;
    expect(checked).toBeGreaterThanOrEqual(1);
    expect(checked).toBeLessThanOrEqual(5);
    expect(results.filter((r) => r.status === 429).every((r) => r.retryAfter >= 1)).toBe(true);
  });
});
