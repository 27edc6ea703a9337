/**
 * Per-address limits behind a proxy: the key is the address the trusted proxy appended, never one
 * the client wrote; IPv6 clients are keyed by their /64, IPv4-mapped IPv6 as the IPv4.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.ts';
import { createFakeClock, startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { seedSite, type TSeededSite } from '@dropsite/testkit/control-api/site-fixtures';

const PER_ADDRESS = 5;

/** The proxy setting exactly as an operator writes it in the environment. */
function configFor(trustProxy: string) {
  const config = loadConfig({ TRUST_PROXY: trustProxy });
  return {
    trustProxy: config.trustProxy,
    // Only the per-address limit is under test here.
    rateLimits: { ...config.rateLimits, readsPerMinute: PER_ADDRESS },
  };
}

async function beacon(app: TTestApp, site: TSeededSite, forwardedFor: string | undefined): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', origin: app.url };
  if (forwardedFor !== undefined) headers['x-forwarded-for'] = forwardedFor;
  const res = await fetch(`${app.url}/api/analytics/view`, { method: 'POST', headers, body: JSON.stringify({ projectId: site.project.id }) });
  await res.arrayBuffer();
  return res;
}

describe('rate-limit keys behind a proxy (TRUST_PROXY=1)', () => {
  let app: TTestApp;
  let site: TSeededSite;
  const clock = createFakeClock();

  beforeAll(async () => {
    app = await startTestApp({ clock, startWorker: false, config: configFor('1') });
    site = await seedSite(app);
  });
  afterAll(async () => {
    await app.close();
  });

  it('keys a client by the address the proxy appended: rotating a forged left part never resets the limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      // The client wrote "10.9.x.y"; the edge appended the real peer, 203.0.113.50.
      const res = await beacon(app, site, `10.9.${i}.${i + 1}, 203.0.113.50`);
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s !== 429)).toHaveLength(PER_ADDRESS);
    expect(statuses.slice(PER_ADDRESS).every((s) => s === 429)).toBe(true);
    // Another real client is not affected.
    expect((await beacon(app, site, 'forged, 203.0.113.51')).status).not.toBe(429);
  });

  it('puts IPv6 addresses of one /64 in one bucket, and another /64 in its own', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < PER_ADDRESS + 3; i++) {
      const res = await beacon(app, site, `2001:db8:aa:bb:${(i + 1).toString(16)}:0:${i}:1`);
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s !== 429)).toHaveLength(PER_ADDRESS);
    // Written differently, still the same /64.
    expect((await beacon(app, site, '2001:0db8:00aa:00bb::ffff')).status).toBe(429);
    expect((await beacon(app, site, '2001:db8:aa:bc::1')).status).not.toBe(429);
  });

  it('keys IPv4-mapped IPv6 as the IPv4 address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < PER_ADDRESS; i++) statuses.push((await beacon(app, site, '198.51.100.77')).status);
    expect(statuses).not.toContain(429);
    expect((await beacon(app, site, '::ffff:198.51.100.77')).status).toBe(429);
    expect((await beacon(app, site, '::FFFF:c633:644d')).status).toBe(429);
  });
});

describe('rate-limit keys without a proxy (TRUST_PROXY=false)', () => {
  let app: TTestApp;
  let site: TSeededSite;

  beforeAll(async () => {
    app = await startTestApp({ clock: createFakeClock(), startWorker: false, config: configFor('false') });
    site = await seedSite(app);
  });
  afterAll(async () => {
    await app.close();
  });

  it('ignores X-Forwarded-For entirely: a forged header cannot reset the limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < PER_ADDRESS + 5; i++) statuses.push((await beacon(app, site, `192.0.2.${i}`)).status);
    expect(statuses.filter((s) => s !== 429)).toHaveLength(PER_ADDRESS);
  });
});

describe('TRUST_PROXY values', () => {
  it('accepts false, a hop count and a list of proxy addresses or ranges', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 172.18.0.2,loopback, fd00::/8' }).trustProxy).toEqual(['10.0.0.0/8', '172.18.0.2', 'loopback', 'fd00::/8']);
  });

  it('refuses "true" (it trusted whatever the client wrote) and anything that is not an address', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY.*number of proxies/s);
    expect(() => loadConfig({ TRUST_PROXY: 'example.com' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '-1' })).toThrow(/TRUST_PROXY/);
  });
});

describe('TRUST_PROXY as a list of proxy addresses', () => {
  let app: TTestApp;
  let site: TSeededSite;

  beforeAll(async () => {
    app = await startTestApp({ clock: createFakeClock(), startWorker: false, config: configFor('127.0.0.1') });
    site = await seedSite(app);
  });
  afterAll(async () => {
    await app.close();
  });

  it('takes the right-most address not in the list, whatever the client prepended', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < PER_ADDRESS + 5; i++) statuses.push((await beacon(app, site, `10.1.1.${i}, 203.0.113.80`)).status);
    expect(statuses.filter((s) => s !== 429)).toHaveLength(PER_ADDRESS);
  });
});
