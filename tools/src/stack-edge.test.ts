/**
 * Public sites at the edge of `npm run stack` (nginx, two API processes, two builders, PostgreSQL,
 * Redis, s3rver): the page of a public site comes from its public copy in the store with no request
 * reaching an API process (counted from the APIs' own request log), with the API's headers, variants
 * and 304s; a password, an expiry, a deletion and a takedown take it off the edge before the change
 * answers (401, 410 at the instant of an expiry and on a deletion, 451 from the API), and a rebuild, a removed password and a
 * restore put the new page back at the edge within 5 seconds.
 */
import { execFile } from 'node:child_process';
import { get } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TStack } from './stack.ts';
import { signUpThroughOutbox } from './sign-up-link.ts';
import { eventually, isStackAvailable, startTestStack } from './stack-test-support.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

const available = await isStackAvailable();

/** How soon an access change or a rebuild must show at the edge. */
const EDGE_DELAY_MS = 5_000;

describe.skipIf(!available)('npm run stack: public pages served by the edge', () => {
  let stack: TStack;
  /** Requests each API process logged, by path (LOG_LEVEL=debug logs one line per request). */
  const apiRequests = new Map<string, number>();
  let markerRound = 0;
  /** Each API process logs its requests in order: once a request sent straight to each is in the log, every earlier one is. */
  const logsCaughtUp = async () => {
    markerRound += 1;
    const markers = stack.apiUrls.map((_, i) => `/logged-${markerRound}-${i}`);
    await Promise.all(stack.apiUrls.map((url, i) => fetch(`${url}${markers[i]}`).then((res) => res.arrayBuffer())));
    await expect.poll(() => markers.every((marker) => apiRequests.has(marker)), { timeout: 5_000, interval: 20 }).toBe(true);
  };
  let cookie = '';

  const api = (pathname: string, init: RequestInit & { json?: unknown } = {}) => {
    const headers = new Headers(init.headers);
    headers.set('cookie', cookie);
    headers.set('origin', new URL(stack.url).origin);
    if (init.json !== undefined) headers.set('content-type', 'application/json');
    return fetch(`${stack.url}${pathname}`, { ...init, headers, body: init.json === undefined ? init.body : JSON.stringify(init.json), redirect: 'manual' });
  };
  const view = (slug: string, headers: Record<string, string> = {}, method = 'GET') => fetch(`${stack.url}/${slug}`, { method, headers });
  const fromEdge = (res: Response) => res.headers.get('x-request-id') === null;

  const publish = async (title: string): Promise<{ slug: string; projectId: string }> => {
    const photo = await sharp({ create: { width: 640, height: 400, channels: 3, background: { r: 200, g: 120, b: 40 } } })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.append('title', title);
    form.append('files', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'cover.jpg');
    const published = await api('/api/upload', { method: 'POST', body: form });
    const answer = (await published.json()) as { slug: string };
    expect(published.status, JSON.stringify(answer)).toBe(201);
    const { projects } = (await (await api('/api/creators/me/projects')).json()) as { projects: Array<{ id: string; slug: string }> };
    const projectId = projects.find((p) => p.slug === answer.slug)!.id;
    // Live, and then on the edge (the copy is written once the build is done).
    await eventually(`${title} at the edge`, async () => (fromEdge(await view(answer.slug)) ? true : undefined));
    return { slug: answer.slug, projectId };
  };

  beforeAll(async () => {
    stack = await startTestStack('stack-edge', { LOG_LEVEL: 'debug' });
    for (const apiProcess of stack.processes.filter((p) => p.role.startsWith('api'))) {
      let partial = '';
      apiProcess.child.stdout?.on('data', (data: Buffer) => {
        const lines = (partial + data.toString()).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          const logged = /"path":"([^"]*)"/.exec(line);
          if (logged && line.includes('"msg":"request"')) apiRequests.set(logged[1]!, (apiRequests.get(logged[1]!) ?? 0) + 1);
        }
      });
    }
    cookie = await signUpThroughOutbox(stack.url, path.join(stack.env.DATA_DIR!, 'outbox'), { email: 'grace@example.com', password: 'a long enough secret', name: 'Grace' });
  }, 180_000);

  afterAll(() => stack?.discard(), 60_000);

  it('serves a public page from the store with the API’s headers, variants and 304s, and no API request', async () => {
    const { slug, projectId } = await publish('Harbour Lights');
    // What the API itself answers for the page (straight to one API process, not through the edge).
    const direct = await fetch(`${stack.apiUrls[0]}/${slug}`, { headers: { 'accept-encoding': 'identity' } });
    expect(direct.status).toBe(200);
    const html = await direct.text();
    const counted = () => apiRequests.get(`/${slug}`) ?? 0;
    // The counter sees page requests that do reach an API.
    await logsCaughtUp();
    const before = counted();
    expect(before).toBeGreaterThan(0);

    const asked = [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['identity', null],
    ] as const;
    for (const [acceptEncoding, coding] of asked) {
      const res = await view(slug, { 'accept-encoding': acceptEncoding });
      expect(res.status).toBe(200);
      expect(fromEdge(res)).toBe(true);
      expect(res.headers.get('content-encoding')).toBe(coding);
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      for (const header of ['content-type', 'content-security-policy', 'x-content-type-options', 'referrer-policy', 'cache-control']) {
        expect(res.headers.get(header), header).toBe(direct.headers.get(header));
      }
      expect(res.headers.get('set-cookie')).toBeNull();
      // fetch decodes what it asked for; the raw bytes are checked below.
      expect(await res.text()).toBe(html);
      const etag = res.headers.get('etag');
      expect(etag).toMatch(/^"[^"]+"$/);
      const again = await view(slug, { 'accept-encoding': acceptEncoding, 'if-none-match': etag! });
      expect(again.status).toBe(304);
      expect(fromEdge(again)).toBe(true);
    }
    // The stored variants are real Brotli and gzip of the page.
    const raw = (coding: string) =>
      new Promise<Buffer>((resolve, reject) => {
        get(`${stack.url}/${slug}`, { headers: { 'accept-encoding': coding } }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (c: Buffer) => chunks.push(c));
          response.on('end', () => resolve(Buffer.concat(chunks)));
        }).on('error', reject);
      });
    expect(brotliDecompressSync(await raw('br')).toString('utf8')).toBe(html);
    expect(gunzipSync(await raw('gzip')).toString('utf8')).toBe(html);
    // Whole, as the API sends it: no byte ranges of a page.
    for (let i = 0; i < 2; i++) {
      const ranged = await view(slug, { 'accept-encoding': 'identity', range: 'bytes=0-9' });
      expect(ranged.status).toBe(200);
      expect(await ranged.text()).toBe(html);
    }
    const head = await view(slug, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(fromEdge(head)).toBe(true);

    // A load of views: none reaches an API process.
    await Promise.all(Array.from({ length: 200 }, () => view(slug, { 'accept-encoding': 'gzip, br' }).then((r) => r.arrayBuffer())));
    await logsCaughtUp();
    expect(counted()).toBe(before);

    // A rebuild: the new page (new bytes, new ETag) at the edge within 5 s of its build.
    const oldTag = (await view(slug, { 'accept-encoding': 'br' })).headers.get('etag');
    expect((await api(`/api/projects/${projectId}`, { method: 'PATCH', json: { title: 'Harbour Lights, final' } })).status).toBe(200);
    await eventually('the rebuild is done', async () => {
      const settings = (await (await api(`/api/projects/${projectId}/settings`)).json()) as { project: { build: { state: string; version: number } | null } };
      return settings.project.build?.state === 'succeeded' ? true : undefined;
    });
    // s3rver keeps an object's bytes and its ETag in two files written one after the other, so for a
    // moment a read can pair the new bytes with the old tag (an S3 bucket answers both or neither); the
    // edge may keep such an answer for its cache second. The new page with its new tag arrives within 5 s.
    const rebuilt = await eventually(
      'the rebuilt page, with its own tag, at the edge',
      async () => {
        const res = await view(slug, { 'accept-encoding': 'br' });
        const text = await res.text();
        return fromEdge(res) && text.includes('Harbour Lights, final') && res.headers.get('etag') !== oldTag ? res : undefined;
      },
      EDGE_DELAY_MS,
    );
    expect(rebuilt.headers.get('etag')).toMatch(/^"[^"]+"$/);
    // The old tag no longer gets a 304.
    expect((await view(slug, { 'accept-encoding': 'br', 'if-none-match': oldTag! })).status).toBe(200);
  }, 180_000);

  it('answers a password, an expiry, a deletion and a takedown from the API as soon as they are made', async () => {
    const { slug, projectId } = await publish('Changing Hands');

    // A password: 401 on the next view, then open (and on the edge) again once it is removed.
    expect((await api(`/api/projects/${projectId}`, { method: 'PATCH', json: { password: 'open sesame 42' } })).status).toBe(200);
    const locked = await view(slug);
    expect(locked.status).toBe(401);
    expect(fromEdge(locked)).toBe(false);
    expect((await api(`/api/projects/${projectId}`, { method: 'PATCH', json: { password: null } })).status).toBe(200);
    await eventually('the unlocked site back at the edge', async () => (fromEdge(await view(slug)) ? true : undefined), 30_000);

    // An expiry: the API serves the site until the instant, then 410; the edge never has it meanwhile.
    const expiresAt = new Date(Date.now() + 6_000);
    expect((await api(`/api/projects/${projectId}`, { method: 'PATCH', json: { expiresAt: expiresAt.toISOString() } })).status).toBe(200);
    const expiring = await view(slug);
    expect(expiring.status).toBe(200);
    expect(fromEdge(expiring)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt.getTime() - Date.now())));
    expect((await view(slug)).status).toBe(410);

    // A deletion: the next view says, from the API, that the site was removed.
    const deleted = await publish('Deleted Soon');
    expect((await api(`/api/projects/${deleted.projectId}`, { method: 'DELETE', json: { confirmTitle: 'Deleted Soon' } })).status).toBeLessThan(300);
    const removed = await view(deleted.slug);
    expect(removed.status).toBe(410);
    expect(fromEdge(removed)).toBe(false);
    expect(await removed.text()).toContain('This site was removed');

    // A takedown by the operator's command: 451 on the next view; a restore puts the page back at the edge.
    const disputed = await publish('Disputed');
    const env = { ...process.env, ...stack.env, LOG_LEVEL: 'warn' };
    const down = await run(process.execPath, [path.join(ROOT, 'scripts/src/takedown.ts'), '--slug', disputed.slug, '--reason', 'Court order'], { env, cwd: ROOT });
    expect(down.stdout).toContain(`Took down ${disputed.slug}`);
    const takenDown = await view(disputed.slug);
    expect(takenDown.status).toBe(451);
    expect(fromEdge(takenDown)).toBe(false);
    await run(process.execPath, [path.join(ROOT, 'scripts/src/restore-site.ts'), '--slug', disputed.slug], { env, cwd: ROOT });
    const restored = await eventually(
      'the restored site at the edge',
      async () => {
        const res = await view(disputed.slug);
        return fromEdge(res) ? res : undefined;
      },
      EDGE_DELAY_MS,
    );
    expect(restored.status).toBe(200);

    // Unknown and reserved paths still get the API's answers.
    expect((await view('no-such-site-here')).status).toBe(404);
    expect((await fetch(`${stack.url}/api/health`)).status).toBe(200);
  }, 180_000);
});
