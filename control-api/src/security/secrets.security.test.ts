/**
 * Secrets absent from every published answer (security checklist 22, 26, 39, 42; Zipline's owner
 * token in public page props, FileBrowser's signed link in share JSON): nothing a visitor can
 * fetch — the site page, its password, expiry and 404 pages, build status, engagement state,
 * comments, file headers — holds the site password or its hash, the creator's token, the server's
 * cookie key, another visitor's id or a storage location.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteHtmlKey } from '@dropsite/shared';
import { startTestApp, type TTestApp, UNREACHED_RATE_LIMITS } from '@dropsite/testkit/control-api/test-app';
import { buildUploadForm, makeJpeg } from '@dropsite/testkit/control-api/fixtures';
import { createBrowser, type TBrowser } from '@dropsite/testkit/control-api/site-fixtures';

const PASSWORD = 'Plum-Orchard-Secret-42';
const SESSION_SECRET = 'session-secret-that-must-never-leave-the-server-0123456789';

describe('secrets absent from every published answer', () => {
  let app: TTestApp;
  let creator: TBrowser;
  let slug = '';
  let siteId = '';
  let fileIds: string[] = [];
  const secrets: Record<string, string> = {};

  beforeAll(async () => {
    app = await startTestApp({
      config: {
        sessionSecret: SESSION_SECRET,
        rateLimits: UNREACHED_RATE_LIMITS,
      },
    });
    creator = createBrowser(app);
    const form = buildUploadForm(
      [
        { name: 'cover.jpg', type: 'image/jpeg', bytes: await makeJpeg(320, 200) },
        { name: 'notes.txt', type: 'text/plain', bytes: Buffer.from('Shared notes\n') },
      ],
      { password: PASSWORD, settings: JSON.stringify({ enableAnalytics: true, enableComments: true, enableFavorites: true, enableApprovals: true }) },
    );
    const res = await creator.fetch('/api/upload', { method: 'POST', body: form });
    const body = (await res.json()) as { slug: string };
    expect(res.status).toBe(201);
    slug = body.slug;
    await app.deps.queue.whenIdle();
    const site = await app.deps.db.selectFrom('projects').selectAll().where('slug', '=', slug).executeTakeFirstOrThrow();
    siteId = site.id;
    fileIds = (await app.deps.db.selectFrom('files').select('id').where('project_id', '=', siteId).execute()).map((r) => r.id);
    const storageKeys = (await app.deps.db.selectFrom('files').select('storage_key').where('project_id', '=', siteId).execute()).map((r) => r.storage_key);
    const anon = creator.cookies.get('dropsite_anon');
    expect(anon).toBeDefined();
    secrets.password = PASSWORD;
    secrets['password hash'] = site.password_hash!;
    secrets['password hash (salt and digest)'] = site.password_hash!.split('$').slice(-2).join('$');
    secrets['creator token'] = anon!;
    secrets['creator token secret'] = anon!.split('.').at(-1)!;
    secrets['session secret'] = SESSION_SECRET;
    secrets['data folder'] = app.dataDir;
    for (const [i, key] of storageKeys.entries()) secrets[`storage key ${i}`] = key;
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  const expectNoSecret = (text: string, what: string, except: string[] = []) => {
    for (const [name, value] of Object.entries(secrets)) {
      if (except.includes(name)) continue;
      expect(text.includes(value), `${what} contains the ${name}`).toBe(false);
    }
  };

  /** Everything a visitor's browser can fetch about the site, as text (headers included). */
  const collect = async (browser: TBrowser): Promise<Array<[string, string]>> => {
    const paths = [
      `/${slug}`,
      `/api/sites/${slug}/status`,
      `/api/direct-upload/status/${slug}`,
      `/api/engagement/state?projectId=${siteId}`,
      ...fileIds.flatMap((id) => [`/api/files/${id}?mode=preview`, `/api/comments?projectId=${siteId}&fileId=${id}`]),
      `/${slug}/og.png`,
      '/no-such-site',
      '/api/no-such-call',
    ];
    const out: Array<[string, string]> = [];
    for (const path of paths) {
      const res = await browser.fetch(path);
      const type = res.headers.get('content-type') ?? '';
      const text = /json|html|text/.test(type) ? await res.text() : `(${(await res.arrayBuffer()).byteLength} bytes)`;
      const headers = [...res.headers.entries()]
        .filter(([name]) => name !== 'set-cookie')
        .map(([n, v]) => `${n}: ${v}`)
        .join('\n');
      out.push([path, `${headers}\n\n${text}`]);
    }
    return out;
  };

  it('keeps them out of everything a visitor without the password sees', async () => {
    const stranger = createBrowser(app);
    for (const [path, text] of await collect(stranger)) expectNoSecret(text, path);
    const wrong = await stranger.fetch(`/api/sites/${slug}/unlock`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'password=nope' });
    expectNoSecret(await wrong.text(), 'wrong-password page');
  });

  it('keeps them out of everything an unlocked visitor sees, and keeps one visitor’s id from another', async () => {
    const visitor = createBrowser(app);
    const other = createBrowser(app);
    for (const browser of [visitor, other]) {
      const unlock = await browser.fetch(`/api/sites/${slug}/unlock`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `password=${PASSWORD}`,
      });
      expect(unlock.status).toBe(303);
      expectNoSecret(await unlock.text(), 'unlock answer');
    }
    // The other visitor engages, so their traces are in what the first one reads.
    for (const id of fileIds) {
      expect((await other.json('/api/comments', { method: 'POST', json: { projectId: siteId, fileId: id, commentText: 'From the other visitor' } })).status).toBe(201);
      await other.json('/api/favorites', { method: 'POST', json: { projectId: siteId, fileId: id } });
      await other.json('/api/approvals', { method: 'POST', json: { projectId: siteId, fileId: id, status: 'approved' } });
    }
    const otherId = other.cookies.get('dropsite_vid')!.split('.')[0]!;
    const otherCookie = other.cookies.get('dropsite_vid')!;
    const otherUnlock = other.cookies.get(`dropsite_unlock_${siteId}`)!;
    const answers = await collect(visitor);
    expect(answers.find(([path]) => path === `/${slug}`)![1]).toContain('cover.jpg');
    for (const [path, text] of answers) {
      expectNoSecret(text, path);
      expect(text.includes(otherId), `${path} names the other visitor's id`).toBe(false);
      expect(text.includes(otherCookie), path).toBe(false);
      expect(text.includes(otherUnlock), path).toBe(false);
    }
    // The server's cookie key is not in any answer either (it is only in the database when no SESSION_SECRET is set).
    const stored = await app.deps.db.selectFrom('server_secrets').select('value').execute();
    for (const { value } of stored) for (const [path, text] of answers) expect(text.includes(value), path).toBe(false);
  });

  it('keeps them out of the site’s stored HTML', async () => {
    const { body } = await app.deps.storage.get(siteHtmlKey(slug));
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array));
    const html = Buffer.concat(chunks).toString('utf8');
    expect(html).toContain('cover.jpg');
    expectNoSecret(html, 'stored site HTML');
  });
});
