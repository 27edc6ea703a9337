/**
 * The locked and expired matrices (security checklist 22, 27, 28, 29, 35): every route that
 * serves anything of a site, asked by a visitor without an unlock, after expiry (at the exact
 * instant, with a fake clock) and after deletion. Locked answers 401, expired 410, deleted 404
 * like a site that never existed; refusals are `private, no-store` and carry none of the site's
 * content.
 */
import { describe, expect, it } from 'vitest';
import { siteOgImageKey } from '@dropsite/shared';
import { createFakeClock, testAppForSuite, UNREACHED_RATE_LIMITS } from '@dropsite/testkit/control-api/test-app';
import { createBrowser, seedSite, SITE_HTML_MARKER, type TBrowser, type TSeededSite } from '@dropsite/testkit/control-api/site-fixtures';
import { expectNoLeak } from '@dropsite/testkit/control-api/security-support';

const PASSWORD = 'correct horse battery';

interface TProbe {
  name: string;
  method: 'GET' | 'HEAD' | 'POST' | 'DELETE';
  path: string;
  json?: unknown;
  headers?: Record<string, string>;
}

/** Every way to reach a site's content, its files, what was derived from them, and its engagement. */
function routesOf(site: TSeededSite): TProbe[] {
  const file = site.files[0]!.id;
  const other = site.files[1]!.id;
  const siteId = site.project.id;
  return [
    { name: 'site HTML', method: 'GET', path: `/${site.slug}` },
    { name: 'site HTML, trailing slash', method: 'GET', path: `/${site.slug}/` },
    { name: 'site HTML, HEAD', method: 'HEAD', path: `/${site.slug}` },
    { name: 'site HTML, with ?password=', method: 'GET', path: `/${site.slug}?password=${encodeURIComponent(PASSWORD)}` },
    { name: 'link-preview picture', method: 'GET', path: `/${site.slug}/og.png` },
    { name: 'file, default mode', method: 'GET', path: `/api/files/${file}` },
    { name: 'file, preview', method: 'GET', path: `/api/files/${file}?mode=preview` },
    { name: 'file, download', method: 'GET', path: `/api/files/${file}?mode=download` },
    { name: 'file, download, HEAD', method: 'HEAD', path: `/api/files/${file}?mode=download` },
    { name: 'file, download, Range', method: 'GET', path: `/api/files/${file}?mode=download`, headers: { range: 'bytes=0-9' } },
    { name: 'file, download, If-None-Match', method: 'GET', path: `/api/files/${file}?mode=download`, headers: { 'if-none-match': `"${site.files[0]!.sha256}"` } },
    { name: 'thumbnail', method: 'GET', path: `/api/files/${file}?mode=preview&size=300` },
    { name: 'thumbnail, size only', method: 'GET', path: `/api/files/${file}?size=300` },
    { name: 'converted PDF', method: 'GET', path: `/api/files/${file}/pdf` },
    { name: 'video poster', method: 'GET', path: `/api/files/${file}/poster` },
    { name: "document's first page", method: 'GET', path: `/api/files/${file}/first-page` },
    { name: 'archive entry', method: 'GET', path: `/api/files/${file}/entry?path=a.txt` },
    { name: 'archive entries as ZIP', method: 'GET', path: `/api/files/${file}/entry?path=a.txt&path=b.txt` },
    { name: 'site ZIP', method: 'GET', path: `/api/sites/${site.slug}/download` },
    { name: 'site ZIP, HEAD', method: 'HEAD', path: `/api/sites/${site.slug}/download` },
    { name: 'selection ZIP', method: 'GET', path: `/api/sites/${site.slug}/download?files=${file},${other}` },
    { name: 'comments', method: 'GET', path: `/api/comments?projectId=${siteId}&fileId=${file}` },
    { name: 'new comment', method: 'POST', path: '/api/comments', json: { projectId: siteId, fileId: file, commentText: 'Lovely light' } },
    { name: 'favourite', method: 'POST', path: '/api/favorites', json: { projectId: siteId, fileId: file } },
    { name: 'unfavourite', method: 'DELETE', path: '/api/favorites', json: { projectId: siteId, fileId: file } },
    { name: 'approval', method: 'POST', path: '/api/approvals', json: { projectId: siteId, fileId: file, status: 'approved' } },
    { name: 'visitor state', method: 'GET', path: `/api/engagement/state?projectId=${siteId}` },
    { name: 'page view beacon', method: 'POST', path: '/api/analytics/view', json: { projectId: siteId } },
    { name: 'file view beacon', method: 'POST', path: '/api/analytics/view', json: { projectId: siteId, fileId: file } },
  ];
}

interface TAnswer {
  status: number;
  cacheControl: string | null;
  text: string;
}

async function ask(browser: TBrowser, probe: TProbe): Promise<TAnswer> {
  const res = await browser.fetch(probe.path, {
    method: probe.method,
    ...(probe.json !== undefined ? { json: probe.json } : {}),
    ...(probe.headers ? { headers: probe.headers } : {}),
  });
  const text = probe.method === 'HEAD' ? '' : Buffer.from(await res.arrayBuffer()).toString('latin1');
  return { status: res.status, cacheControl: res.headers.get('cache-control'), text };
}

/** What the refusal must not carry: the HTML, file bytes, file names, thumbnails. */
function expectNothingOfTheSite(site: TSeededSite, answer: TAnswer, what: string): void {
  expect(answer.text, what).not.toContain(SITE_HTML_MARKER);
  for (const [i, file] of site.files.entries()) {
    expect(answer.text, what).not.toContain(file.name);
    expect(answer.text, what).not.toContain(site.bytes.get(file.id)!.toString('latin1').slice(0, 40));
    expect(answer.text, `${what} (file ${i})`).not.toContain(`thumbnail of ${file.sha256}`);
  }
  expectNoLeak(answer.text, what);
}

describe('the locked, expired and deleted matrices over every route that serves a site', () => {
  const clock = createFakeClock();

  const app = testAppForSuite({
    clock,
    startWorker: false,
    config: {
      rateLimits: UNREACHED_RATE_LIMITS,
    },
  });

  const seed = async (options: Parameters<typeof seedSite>[1] = {}) => {
    const site = await seedSite(app, options);
    await app.deps.storage.put(siteOgImageKey(site.slug), Buffer.from('og picture bytes'));
    return site;
  };

  it('serves every route of a public site (the baseline the refusals are measured against)', async () => {
    const site = await seed();
    const visitor = createBrowser(app);
    for (const probe of routesOf(site)) {
      const answer = await ask(visitor, probe);
      // Some routes have nothing of this kind to serve (no PDF, no poster, not an archive): 404, but never a refusal.
      expect([200, 201, 206, 304, 404], `${probe.name}: ${answer.status}`).toContain(answer.status);
      expect([401, 403, 410], probe.name).not.toContain(answer.status);
    }
    expect((await ask(visitor, routesOf(site)[0]!)).text).toContain(SITE_HTML_MARKER);
  });

  it('refuses every route of a password-protected site with 401 and private, no-store', async () => {
    const site = await seed({ password: PASSWORD });
    const visitor = createBrowser(app);
    for (const probe of routesOf(site)) {
      const answer = await ask(visitor, probe);
      expect(answer.status, probe.name).toBe(401);
      expect(answer.cacheControl, probe.name).toBe('private, no-store');
      expectNothingOfTheSite(site, answer, probe.name);
    }
    // Nothing was written on the visitor's behalf.
    for (const table of ['comments', 'favorites', 'approvals'] as const) {
      expect(await app.deps.db.selectFrom(table).select('id').where('project_id', '=', site.project.id).execute(), table).toEqual([]);
    }
  });

  it('refuses a wrong password, and a right one sent in the URL, without opening anything', async () => {
    const site = await seed({ password: PASSWORD });
    const visitor = createBrowser(app);
    expect((await visitor.json(`/api/sites/${site.slug}/unlock`, { method: 'POST', json: { password: 'not the password' } })).status).toBe(401);
    expect((await visitor.json(`/api/sites/${site.slug}/unlock?password=${encodeURIComponent(PASSWORD)}`, { method: 'POST', json: {} })).status).toBe(400);
    expect([...visitor.cookies.keys()].some((k) => k.includes('unlock'))).toBe(false);
    for (const probe of routesOf(site)) expect((await ask(visitor, probe)).status, probe.name).toBe(401);
  });

  it('refuses every route with 410 and private, no-store from the exact instant of expiry, even for an unlocked visitor', async () => {
    const expiresAt = clock.now() + 3_600_000;
    const open = await seed({ expiresAt });
    const locked = await seed({ expiresAt, password: PASSWORD });
    const visitor = createBrowser(app);
    expect((await visitor.json(`/api/sites/${locked.slug}/unlock`, { method: 'POST', json: { password: PASSWORD } })).status).toBe(200);
    try {
      clock.set(expiresAt - 1);
      for (const site of [open, locked]) {
        const answer = await ask(visitor, routesOf(site)[0]!);
        expect(answer.status).toBe(200);
      }
      clock.set(expiresAt);
      for (const site of [open, locked]) {
        for (const probe of routesOf(site)) {
          const answer = await ask(visitor, probe);
          expect(answer.status, `${probe.name} (${site === open ? 'public' : 'protected'})`).toBe(410);
          expect(answer.cacheControl, probe.name).toBe('private, no-store');
          expectNothingOfTheSite(site, answer, probe.name);
        }
      }
      expect((await visitor.json(`/api/sites/${locked.slug}/unlock`, { method: 'POST', json: { password: PASSWORD } })).status).toBe(410);
    } finally {
      clock.set(Date.UTC(2026, 10, 22, 12, 0, 0));
    }
  });

  it('answers a deleted site like one that never existed, except that its page says it was removed', async () => {
    const site = await seed();
    await app.deps.db.updateTable('projects').set({ deleted_at: clock.now() }).where('id', '=', site.project.id).execute();
    const visitor = createBrowser(app);
    const never = await seed();
    // The same routes of a site that does not exist: random ids and slug of the same shapes.
    await app.deps.db.deleteFrom('projects').where('id', '=', never.project.id).execute();
    for (const [i, probe] of routesOf(site).entries()) {
      const deleted = await ask(visitor, probe);
      expectNothingOfTheSite(site, deleted, probe.name);
      // The client who opens the link is told, in words, that the delivery was removed (and nothing else of it).
      if (probe.name.startsWith('site HTML')) {
        expect(deleted.status, probe.name).toBe(410);
        if (probe.method === 'GET') expect(deleted.text, probe.name).toContain('This site was removed');
        continue;
      }
      const missing = await ask(visitor, routesOf(never)[i]!);
      expect(deleted.status, probe.name).toBe(missing.status);
      expect([400, 404], `${probe.name}: ${deleted.status}`).toContain(deleted.status);
      const codeOf = (answer: TAnswer) =>
        answer.text.startsWith('{') ? (JSON.parse(answer.text) as { code?: unknown; error?: unknown }) : answer.text.replaceAll(site.slug, 'SLUG').replaceAll(never.slug, 'SLUG');
      expect(codeOf(deleted), probe.name).toEqual(codeOf(missing));
    }
  });

  it('never serves a site’s content below its path, locked or not', async () => {
    const open = await seed();
    const locked = await seed({ password: PASSWORD });
    const visitor = createBrowser(app);
    for (const site of [open, locked]) {
      for (const nested of ['index.html', 'photo-1.jpg', `${site.files[0]!.id}`, 'a/b/c', 'og.png/x', '.env']) {
        const res = await visitor.fetch(`/${site.slug}/${nested}`);
        const text = await res.text();
        expect(res.status, nested).toBe(404);
        expect(text, nested).not.toContain(SITE_HTML_MARKER);
      }
    }
  });

  it('answers a visitor asking for the creator’s analytics or sessions like a site that does not exist, whatever its state', async () => {
    const open = await seed();
    const locked = await seed({ password: PASSWORD });
    const visitor = createBrowser(app);
    expect((await visitor.json(`/api/sites/${locked.slug}/unlock`, { method: 'POST', json: { password: PASSWORD } })).status).toBe(200);
    for (const site of [open, locked]) {
      for (const path of [`/api/analytics?projectId=${site.project.id}`, `/api/analytics?projectId=${site.project.id}&detailed=true&fileId=${site.files[0]!.id}`]) {
        const res = await visitor.json(path);
        expect(res.status, path).toBe(404);
        expect(JSON.stringify(res.body)).not.toContain(site.files[0]!.name);
      }
    }
    for (const path of [
      '/api/projects/anonymous/AAAAAAAAAAAAAAAAAAAAAA',
      '/api/engagement/anonymous/AAAAAAAAAAAAAAAAAAAAAA',
      '/api/engagement/anonymous/AAAAAAAAAAAAAAAAAAAAAA/updates',
      '/api/creators/anonymous/session',
    ]) {
      const res = await visitor.json(path);
      expect([401, 403, 404], `${path}: ${res.status}`).toContain(res.status);
      expect(JSON.stringify(res.body)).not.toContain(open.slug);
    }
  });

  it('tells the build-status calls of a locked or expired site nothing but its build progress', async () => {
    const expiresAt = clock.now() + 60_000;
    const locked = await seed({ password: PASSWORD });
    const expired = await seed({ expiresAt });
    clock.set(expiresAt);
    try {
      const visitor = createBrowser(app);
      for (const site of [locked, expired]) {
        const status = await visitor.json(`/api/sites/${site.slug}/status`);
        expect(status.status).toBe(200);
        expect(Object.keys(status.body).sort()).toEqual(['progress', 'slug', 'stage', 'status', 'success']);
        const direct = await visitor.json<{ project: Record<string, unknown> }>(`/api/direct-upload/status/${site.slug}`);
        expect(direct.status).toBe(200);
        expect(Object.keys(direct.body.project).sort()).toEqual(['optimizationComplete', 'optimizationProgress']);
        for (const text of [JSON.stringify(status.body), JSON.stringify(direct.body)]) {
          expect(text).not.toContain(site.files[0]!.name);
          expect(text).not.toContain(site.project.id);
          expect(text).not.toContain('password');
        }
      }
    } finally {
      clock.set(Date.UTC(2026, 10, 22, 12, 0, 0));
    }
  });
});
