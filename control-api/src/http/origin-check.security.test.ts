/**
 * The Origin check compares against PUBLIC_URL (and ALLOWED_ORIGINS), never against the request's
 * own Host header: a page on another host that reaches the API (DNS rebinding, a second hostname
 * of the same server, a proxy passing Host through) must not count as our own origin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { loadConfig } from '../config/config.ts';
import { rawRequest } from '@dropsite/testkit/control-api/raw-request';

const JSON_HEADERS = { 'content-type': 'application/json' };
const body = JSON.stringify({ projectId: 'x', eventType: 'email_modal_dismissed' });

describe('cross-site request refusal', () => {
  let app: TTestApp;
  beforeAll(async () => {
    app = await startTestApp({ startWorker: false, config: { allowedOrigins: ['https://admin.example'] } });
  });
  afterAll(() => app.close());

  const post = (headers: Record<string, string>) => rawRequest(app.url, { path: '/api/analytics/events', headers: { ...JSON_HEADERS, ...headers }, body });

  it('refuses an Origin equal to the request Host when that is not PUBLIC_URL', async () => {
    const res = await post({ host: 'rebound.example', origin: 'http://rebound.example' });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({ success: false, code: 'forbidden' });
    const https = await post({ host: 'rebound.example', origin: 'https://rebound.example' });
    expect(https.status).toBe(403);
  });

  it('accepts the PUBLIC_URL origin and the explicitly allowed ones, and clients that send no Origin', async () => {
    expect((await post({ origin: app.url })).status).not.toBe(403);
    expect((await post({ host: 'rebound.example', origin: app.url })).status).not.toBe(403);
    expect((await post({ origin: 'https://admin.example' })).status).not.toBe(403);
    expect((await post({})).status).not.toBe(403);
    expect((await post({ origin: 'https://evil.example' })).status).toBe(403);
    expect((await post({ origin: 'null' })).status).toBe(403);
  });

  it('reads ALLOWED_ORIGINS as comma-separated http(s) origins', () => {
    expect(loadConfig({ ALLOWED_ORIGINS: 'https://a.example/, http://b.example:8080' }).allowedOrigins).toEqual(['https://a.example', 'http://b.example:8080']);
    expect(loadConfig({}).allowedOrigins).toEqual([]);
    expect(() => loadConfig({ ALLOWED_ORIGINS: 'ftp://x.example' })).toThrow(/ALLOWED_ORIGINS/);
  });
});
