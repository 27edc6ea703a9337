/**
 * Test helpers for engagement, access and the anonymous creator: sites seeded straight into the
 * database and storage (HTML, originals, thumbnails) so the tests do not depend on the builder,
 * and a browser-like client that keeps cookies and sends our Origin.
 */
import { createHash } from 'node:crypto';
import { derivedKeys, siteHtmlKey, type TSiteSettings } from '@dropsite/shared';
import type { TTestApp } from './test-app.ts';
import { makeFileRow, makeSiteRow } from './test-database.ts';
import { type TNewFile, type TSiteRow, hashPassword, createSiteWithFiles } from '@dropsite/control-api/internals';

export interface TSeededSite {
  project: TSiteRow;
  files: TNewFile[];
  slug: string;
  /** The bytes of each file, by id. */
  bytes: Map<string, Buffer>;
}

export const SITE_HTML_MARKER = '<h1>Seeded site</h1>';

export async function seedSite(
  app: TTestApp,
  options: {
    settings?: Partial<TSiteSettings>;
    password?: string;
    expiresAt?: number | null;
    fileCount?: number;
    anonymousSessionId?: string | null;
    theme?: string;
    title?: string;
  } = {},
): Promise<TSeededSite> {
  const now = app.deps.clock.now();
  const row = makeSiteRow({
    title: options.title ?? 'Autumn Wedding',
    status: 'live',
    theme: options.theme ?? 'professional-light',
    settings: JSON.stringify({ enableFavorites: true, enableComments: true, enableApprovals: true, enableAnalytics: true, ...options.settings }),
    password_hash: options.password ? await hashPassword(options.password) : null,
    password_version: 1,
    expires_at: options.expiresAt ?? null,
    anonymous_session_id: options.anonymousSessionId ?? null,
    created_at: now,
    updated_at: now,
  });
  const bytes = new Map<string, Buffer>();
  const files: TNewFile[] = [];
  for (let i = 0; i < (options.fileCount ?? 2); i++) {
    const content = Buffer.from(`file ${i} of ${row.id}\n`.repeat(50 + i));
    const sha256 = createHash('sha256').update(content).digest('hex');
    const file = makeFileRow(row.id, i, { name: `photo-${i + 1}.jpg`, size: content.length, sha256 });
    const thumbKey = derivedKeys(sha256).thumbnail;
    file.metadata = JSON.stringify({ sha256, kind: 'image', thumbnail: { key: thumbKey, width: 300, height: 200, contentType: 'image/webp' } });
    await app.deps.storage.put(file.storage_key, content);
    await app.deps.storage.put(thumbKey, Buffer.from(`thumbnail of ${sha256}`));
    bytes.set(file.id, content);
    files.push(file);
  }
  await createSiteWithFiles(
    app.deps.db,
    row,
    files.map(({ project_id: _p, ...f }) => f),
  );
  await app.deps.storage.put(siteHtmlKey(row.slug), `<!doctype html><title>x</title>${SITE_HTML_MARKER}`);
  const project = await app.deps.db.selectFrom('projects').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
  return { project, files, slug: row.slug, bytes };
}

export interface TBrowser {
  cookies: Map<string, string>;
  fetch(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  json<T = Record<string, unknown>>(path: string, init?: RequestInit & { json?: unknown }): Promise<{ status: number; body: T; headers: Headers }>;
  cookieHeader(): string;
}

/** A client that keeps its cookies (like a browser on our origin) and sends our Origin on writes. */
export function createBrowser(app: TTestApp, options: { address?: string } = {}): TBrowser {
  const cookies = new Map<string, string>();
  const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const browserFetch = async (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const headers = new Headers(init.headers);
    if (cookies.size > 0 && !headers.has('cookie')) headers.set('cookie', cookieHeader());
    const method = (init.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'HEAD' && !headers.has('origin')) headers.set('origin', app.url);
    if (options.address) headers.set('x-forwarded-for', options.address);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(init.json);
    }
    const res = await fetch(`${app.url}${path}`, { ...init, headers, body: body ?? null, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const isExpired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (isExpired || value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
    return res;
  };
  return {
    cookies,
    fetch: browserFetch,
    async json<T>(path: string, init?: RequestInit & { json?: unknown }) {
      const res = await browserFetch(path, init);
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : null) as T, headers: res.headers };
    },
    cookieHeader,
  };
}
