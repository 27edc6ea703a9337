/** What the fault rows do as a browser would: a client with its own cookies, publishing and waiting for sites. */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { signInLinkToken } from '../sign-up-link.ts';

export interface THttpClient {
  base: string;
  request(pathname: string, init?: RequestInit & { json?: unknown; timeoutMs?: number }): Promise<Response>;
  /** The same client (same cookies) speaking to another origin of the stack (an API process). */
  at(base: string): THttpClient;
  /** The cookies the client holds, by name. */
  cookies: ReadonlyMap<string, string>;
}

/** A client with its own cookie jar; state-changing calls carry the stack's origin, as the site's pages do. */
export function httpClient(base: string, origin = new URL(base).origin, jar = new Map<string, string>()): THttpClient {
  return {
    base,
    async request(pathname, init = {}) {
      const headers = new Headers(init.headers);
      if (jar.size > 0) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
      if (init.method && init.method !== 'GET' && init.method !== 'HEAD') headers.set('origin', origin);
      let body = init.body;
      if (init.json !== undefined) {
        headers.set('content-type', 'application/json');
        body = JSON.stringify(init.json);
      }
      const res = await fetch(`${base}${pathname}`, { ...init, headers, body, redirect: 'manual', signal: AbortSignal.timeout(init.timeoutMs ?? 30_000) });
      for (const cookie of res.headers.getSetCookie()) {
        const [pair = ''] = cookie.split(';');
        const at = pair.indexOf('=');
        jar.set(pair.slice(0, at), pair.slice(at + 1));
      }
      return res;
    },
    at(other) {
      return httpClient(other, origin, jar);
    },
    cookies: jar,
  };
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A creator with an account (made by its mailed link, read from the stack's outbox) on its Pro trial (comments are a Pro feature). */
export async function signedUpCreator(base: string, dataDir: string, email: string): Promise<THttpClient> {
  const creator = httpClient(base);
  const signUp = await creator.request('/api/auth/sign-up', { method: 'POST', json: { email, password: 'a long enough secret', name: 'Fault Row' } });
  if (signUp.status !== 202) throw new Error(`sign-up answered ${signUp.status}: ${await signUp.text()}`);
  const signedIn = await creator.request('/api/auth/email-link/consume', { method: 'POST', json: { token: await signInLinkToken(path.join(dataDir, 'outbox'), email) } });
  if (signedIn.status !== 200) throw new Error(`the sign-up link answered ${signedIn.status}: ${await signedIn.text()}`);
  const trial = await creator.request('/api/billing/trial', { method: 'POST' });
  if (trial.status >= 300) throw new Error(`the trial answered ${trial.status}: ${await trial.text()}`);
  return creator;
}

export interface TPublishFile {
  name: string;
  type: string;
  bytes: Uint8Array;
}

export interface TPublishAnswer {
  status: number;
  ms: number;
  slug?: string;
  body: Record<string, unknown>;
  retryAfter: string | null;
}

/** POST /api/upload: one request with the form and the files. */
export async function publish(client: THttpClient, title: string, files: readonly TPublishFile[], extra: Record<string, string> = {}): Promise<TPublishAnswer> {
  const form = new FormData();
  form.append('title', title);
  form.append('settings', JSON.stringify({ enableFavorites: true, enableComments: true, enableAnalytics: true }));
  for (const [key, value] of Object.entries(extra)) form.append(key, value);
  for (const file of files) form.append('files', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const started = performance.now();
  const res = await client.request('/api/upload', { method: 'POST', body: form, timeoutMs: 120_000 });
  const text = await res.text();
  const ms = performance.now() - started;
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { text: text.slice(0, 200) };
  }
  return { status: res.status, ms, slug: typeof body.slug === 'string' ? body.slug : undefined, body, retryAfter: res.headers.get('retry-after') };
}

/** The site's build status as the holding page asks for it. */
export async function siteStatus(base: string, slug: string): Promise<string> {
  try {
    const res = await fetch(`${base}/api/sites/${slug}/status`, { signal: AbortSignal.timeout(5_000) });
    if (!res.ok) return `http ${res.status}`;
    return ((await res.json()) as { status: string }).status;
  } catch {
    return 'unreachable';
  }
}

/** Waits until the site is live; answers how long that took, or undefined past the deadline. */
export async function waitLive(base: string, slug: string, ms: number): Promise<number | undefined> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    const status = await siteStatus(base, slug);
    if (status === 'live') return Date.now() - started;
    if (status === 'failed') return undefined;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return undefined;
}

/** Formats milliseconds as seconds with one decimal ("12.3 s"). */
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
