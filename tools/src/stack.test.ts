/**
 * npm run stack end to end: the edge (nginx), two API processes, two builders on BullMQ, PostgreSQL
 * and the S3 stand-in, all real processes on loopback. Through the edge a creator signs up and
 * publishes, a visitor views the site and its bundles (from the store, not an API process; see
 * stack-edge.test.ts for the public page's headers, its 304s and the access changes in detail),
 * favourites and comments, then the creator renames the site (a rebuild), locks it with a password
 * and gives it an expiry, and the edge answers each change.
 */
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TStack } from './stack.ts';
import { signInLinkToken } from './sign-up-link.ts';
import { eventually, isStackAvailable, startTestStack } from './stack-test-support.ts';

const available = await isStackAvailable();

/** A client with its own cookies, speaking to the edge as a browser on the site's origin would. */
function client(base: string) {
  const jar = new Map<string, string>();
  const request = async (pathname: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    if (jar.size > 0) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    if (init.method && init.method !== 'GET') headers.set('origin', new URL(base).origin);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(init.json);
    }
    const res = await fetch(`${base}${pathname}`, { ...init, headers, body, redirect: 'manual' });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return res;
  };
  return { request, jar };
}

describe.skipIf(!available)('npm run stack: edge, two APIs, two builders, PostgreSQL, Redis, S3', () => {
  let stack: TStack;

  beforeAll(async () => {
    stack = await startTestStack('stack-test');
  }, 180_000);

  afterAll(() => stack?.discard(), 60_000);

  it('every process answers /readyz on its ops port, ready; through the edge /healthz answers and /metrics, with no token configured, is not served', async () => {
    expect(stack.opsUrls).toHaveLength(4);
    for (const ops of stack.opsUrls) {
      const res = await fetch(`${ops}/readyz`);
      expect(res.status, ops).toBe(200);
      expect(await res.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', queue: 'ok', storage: 'ok' } });
    }
    expect((await fetch(`${stack.url}/metrics`)).status).toBe(404);
    expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
  });

  it('publishes, serves, takes engagement and applies a rebuild, a password and an expiry through the edge', async () => {
    const creator = client(stack.url);
    const signUp = await creator.request('/api/auth/sign-up', { method: 'POST', json: { email: 'ada@example.com', password: 'a long enough secret', name: 'Ada' } });
    expect(signUp.status, await signUp.clone().text()).toBe(202);
    // The mailed link makes the account and signs in.
    const token = await signInLinkToken(path.join(stack.env.DATA_DIR!, 'outbox'), 'ada@example.com');
    const signedIn = await creator.request('/api/auth/email-link/consume', { method: 'POST', json: { token } });
    expect(signedIn.status, await signedIn.clone().text()).toBe(200);
    // Comments are a Pro feature: the creator starts the trial.
    const trial = await creator.request('/api/billing/trial', { method: 'POST' });
    expect(trial.status, await trial.clone().text()).toBeLessThan(300);

    const photo = await sharp({ create: { width: 1600, height: 1000, channels: 3, background: { r: 40, g: 120, b: 200 } } })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.append('title', 'Studio Delivery');
    form.append('settings', JSON.stringify({ enableFavorites: true, enableComments: true, enableAnalytics: true }));
    form.append('files', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'select-01.jpg');
    const published = await creator.request('/api/upload', { method: 'POST', body: form });
    const answer = (await published.json()) as { slug: string };
    expect(published.status, JSON.stringify(answer)).toBe(201);
    const { slug } = answer;
    await eventually('the site is live', async () => {
      const status = (await (await fetch(`${stack.url}/api/sites/${slug}/status`)).json()) as { status: string };
      return status.status === 'live' ? true : undefined;
    });

    // A visitor views the page through the edge; its bundles come from the store (no API request id on them).
    const visitor = client(stack.url);
    const page = await visitor.request(`/${slug}`, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Studio Delivery');
    const bundle = /\/_astro\/[\w.-]+\.js/.exec(html)?.[0];
    expect(bundle).toBeDefined();
    const asset = await fetch(`${stack.url}${bundle}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('x-request-id')).toBeNull();
    // The page of a public site comes from its public copy in the store too, once the build has written it.
    await eventually('the page from the edge', async () => ((await fetch(`${stack.url}/${slug}`)).headers.get('x-request-id') === null ? true : undefined));

    const { projects } = (await (await creator.request('/api/creators/me/projects')).json()) as { projects: Array<{ id: string; slug: string }> };
    const projectId = projects.find((p) => p.slug === slug)!.id;
    const fileId = /\/api\/files\/([\w-]{22})\?/.exec(html)?.[1];
    expect(fileId).toBeDefined();

    // Engagement through the edge, on PostgreSQL.
    await visitor.request(`/api/engagement/state?projectId=${projectId}`);
    const favourite = await visitor.request('/api/favorites', { method: 'POST', json: { projectId, fileId } });
    expect(favourite.status, await favourite.clone().text()).toBe(200);
    expect(((await favourite.json()) as { favoritesCount: number }).favoritesCount).toBe(1);
    const comment = await visitor.request('/api/comments', { method: 'POST', json: { projectId, fileId, commentText: 'The blue works for the cover.' } });
    expect(comment.status, await comment.clone().text()).toBe(201);
    const details = (await (await creator.request(`/api/projects/${projectId}/details`)).json()) as { project: { favoritesCount?: number; commentsCount?: number } };
    expect(JSON.stringify(details)).toContain('The blue works for the cover.');

    // A change rebuilds the site through the queue and a builder process; the edge shows it.
    expect((await creator.request(`/api/projects/${projectId}`, { method: 'PATCH', json: { title: 'Studio Delivery, final' } })).status).toBe(200);
    await eventually('the rebuilt page', async () => {
      const text = await (await fetch(`${stack.url}/${slug}`)).text();
      return text.includes('Studio Delivery, final') ? true : undefined;
    });

    // A password locks the site for a visitor without its unlock, at once.
    expect((await creator.request(`/api/projects/${projectId}`, { method: 'PATCH', json: { password: 'open sesame 42' } })).status).toBe(200);
    expect((await fetch(`${stack.url}/${slug}`)).status).toBe(401);

    // An expiry a few seconds ahead: open until then, 410 from its instant on.
    const expiresAt = new Date(Date.now() + 4_000);
    expect((await creator.request(`/api/projects/${projectId}`, { method: 'PATCH', json: { password: null, expiresAt: expiresAt.toISOString() } })).status).toBe(200);
    expect((await fetch(`${stack.url}/${slug}`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt.getTime() - Date.now() + 100)));
    expect((await fetch(`${stack.url}/${slug}`)).status).toBe(410);

    // Both API processes took requests behind the edge.
    for (const api of stack.processes.filter((p) => p.role.startsWith('api'))) expect(api.child.exitCode).toBeNull();
  }, 180_000);
});
