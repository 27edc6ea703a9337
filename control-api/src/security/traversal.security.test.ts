/**
 * Path traversal in slugs, ids, upload-session ids and archive entry paths (security checklist
 * 15, 16, 29, 52; PsiTransfer's `..++x`, Pingvin Share's CVE-2025-22137). Every hostile value is
 * refused with 400 or 404 before storage is asked for anything.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadKey } from '@dropsite/shared';
import { makeZip } from '@dropsite/testkit/builder/media-fixtures';
import { loadConfig } from '../config/config.ts';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { buildUploadForm, makeJpeg, postUpload } from '@dropsite/testkit/control-api/fixtures';
import { expectApiError, expectNoLeak, rawRequest, recordStorageCalls, type TStorageRecorder } from '@dropsite/testkit/control-api/security-support';

const DEFAULTS = loadConfig({});

/** Values an attacker puts where a slug or an id goes, written as they travel in a URL path. */
const HOSTILE_SEGMENTS = [
  '..',
  '.',
  '%2e%2e',
  '%2E%2E%2F',
  '..%2F..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..++x',
  '..++config.production.js',
  'a%2Fb',
  '%2Fetc%2Fpasswd',
  '..%5C..%5Cwindows%5Cwin.ini',
  'a%00b',
  '%00',
  '.htaccess',
  '%252e%252e%252f',
];

describe('path traversal', () => {
  let app: TTestApp;
  let storage: TStorageRecorder;
  let slug = '';
  let siteId = '';
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    app = await startTestApp({
      config: { rateLimits: { ...DEFAULTS.rateLimits, readsPerMinute: 100_000, writesPerMinute: 100_000, unlockPerMinute: 100_000, unlockSitePerMinute: 100_000 } },
    });
    const archive = makeZip([
      { name: 'docs/readme.txt', data: 'Read me first.\n' },
      { name: '../evil.txt', data: 'escaped' },
      { name: '/etc/passwd', data: 'root' },
      { name: 'dir\\..\\evil.txt', data: 'x' },
      { name: 'shortcut', data: '/etc/passwd', mode: 0o120777 },
    ]);
    const published = await postUpload(
      app.url,
      buildUploadForm([
        { name: 'cover.jpg', type: 'image/jpeg', bytes: await makeJpeg(64, 48) },
        { name: 'assets.zip', type: 'application/zip', bytes: archive },
      ]),
    );
    expect(published.status).toBe(201);
    slug = String(published.body.slug);
    await app.deps.queue.whenIdle();
    const rows = await app.deps.db.selectFrom('files').select(['id', 'name', 'project_id']).execute();
    for (const row of rows) ids[row.name] = row.id;
    siteId = rows[0]!.project_id;
    storage = recordStorageCalls(app.deps.storage);
  }, 120_000);
  afterAll(async () => {
    storage?.restore();
    await app?.close();
  });

  const expectRefusedWithoutStorage = async (path: string, options: Parameters<typeof rawRequest>[2] = {}, statuses = [400, 404]) => {
    storage.reset();
    const res = await rawRequest(app.url, path, options);
    expect(statuses, `${options.method ?? 'GET'} ${path} answered ${res.status}`).toContain(res.status);
    expectNoLeak(res.text, path);
    expect(storage.calls, `${path} reached storage`).toEqual([]);
    return res;
  };

  it('refuses hostile slugs on every route that takes one, before any storage call', async () => {
    for (const segment of [...HOSTILE_SEGMENTS, `${'a'.repeat(2000)}`, 'API', 'Api', 'dashboard', 'robots.txt', `${slug}%00`, `${slug}%2F..`, `${slug}%2F..%2F..%2Findex.html`]) {
      // The site itself answers with the 404 page; the API with its JSON error. `/dashboard` is a page of
      // the app (the creator's dashboard), and `/robots.txt` the built dashboard's file, both answered
      // without looking for a site of that name.
      const own = segment === 'dashboard' ? [200] : segment === 'robots.txt' ? [200, 404] : [400, 404];
      await expectRefusedWithoutStorage(`/${segment}`, {}, own);
      await expectRefusedWithoutStorage(`/${segment}/og.png`);
      for (const path of [`/api/sites/${segment}/download`, `/api/sites/${segment}/status`, `/api/direct-upload/status/${segment}`]) {
        const res = await expectRefusedWithoutStorage(path);
        expectApiError(res.status, res.text, { status: [400, 404] }, path);
      }
      const unlock = await expectRefusedWithoutStorage(`/api/sites/${segment}/unlock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"password":"correct horse battery"}',
      });
      expectApiError(unlock.status, unlock.text, { status: [400, 404] }, 'unlock');
    }
  });

  it('refuses hostile file ids on every file route, before any storage call', async () => {
    const real = ids['cover.jpg']!;
    for (const segment of [...HOSTILE_SEGMENTS, `${real}%00`, `${real}%2F..%2F..`, `${real}..`, 'A'.repeat(21), 'A'.repeat(23), `${real.slice(0, 21)}.`]) {
      for (const path of [
        `/api/files/${segment}`,
        `/api/files/${segment}?mode=download`,
        `/api/files/${segment}?mode=preview&size=300`,
        `/api/files/${segment}/pdf`,
        `/api/files/${segment}/poster`,
        `/api/files/${segment}/entry?path=docs%2Freadme.txt`,
      ]) {
        const res = await expectRefusedWithoutStorage(path);
        expectApiError(res.status, res.text, { status: [400, 404] }, path);
      }
    }
  });

  it('refuses hostile ids in the site ZIP selection and in engagement calls', async () => {
    for (const value of ['..%2F..%2Fetc%2Fpasswd', '..++x', `${ids['cover.jpg']}%00`, '%2e%2e%2f', `${ids['cover.jpg']}%2C..%2F..%2Fx`]) {
      const res = await expectRefusedWithoutStorage(`/api/sites/${slug}/download?files=${value}`);
      expectApiError(res.status, res.text, { status: [400, 404] }, value);
    }
    for (const bad of ['../../etc/passwd', '..++x', `${ids['cover.jpg']}\u0000`, '%2e%2e%2f']) {
      for (const [method, path, body] of [
        ['POST', '/api/favorites', { projectId: siteId, fileId: bad }],
        ['POST', '/api/favorites', { projectId: bad, fileId: ids['cover.jpg'] }],
        ['POST', '/api/approvals', { projectId: siteId, fileId: bad, status: 'approved' }],
        ['POST', '/api/comments', { projectId: siteId, fileId: bad, commentText: 'hello' }],
        ['POST', '/api/analytics/view', { projectId: bad }],
      ] as const) {
        const res = await expectRefusedWithoutStorage(path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        expectApiError(res.status, res.text, { status: [400, 404] }, `${path} ${JSON.stringify(body)}`);
      }
      const comments = await expectRefusedWithoutStorage(`/api/comments?projectId=${encodeURIComponent(bad)}&fileId=${encodeURIComponent(bad)}`);
      expectApiError(comments.status, comments.text, { status: [400, 404] }, 'GET /api/comments');
    }
  });

  it('refuses hostile upload-session and file ids, before any storage call', async () => {
    for (const segment of HOSTILE_SEGMENTS) {
      for (const [method, path] of [
        ['POST', `/api/upload-chunk/${segment}/AAAAAAAAAAAAAAAAAAAAAA?chunk=0`],
        ['POST', `/api/upload-chunk/AAAAAAAAAAAAAAAAAAAAAA/${segment}?chunk=0`],
        ['GET', `/api/upload-session/status?sessionId=${segment}`],
        ['DELETE', `/api/upload-session/${segment}`],
      ] as const) {
        const res = await expectRefusedWithoutStorage(path, {
          method,
          headers: { 'content-type': 'application/octet-stream' },
          ...(method === 'POST' ? { body: 'chunk bytes' } : {}),
        });
        expectApiError(res.status, res.text, { status: [400, 404] }, `${method} ${path}`);
      }
    }
    for (const sessionId of ['../../etc', '..++x', 'AAAAAAAAAAAAAAAAAAAAAA\u0000', 'AAAAAAAAAAAAAAAAAAAA/..']) {
      for (const [path, body] of [
        ['/api/chunked-upload/complete', { sessionId }],
        ['/api/direct-upload/complete', { sessionId }],
        ['/api/direct-upload/urls', { sessionId, fileId: sessionId, chunkIndices: [0] }],
      ] as const) {
        const res = await expectRefusedWithoutStorage(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        expectApiError(res.status, res.text, { status: [400, 404] }, path);
      }
    }
  });

  it('serves only entries of the archive’s safe tree: traversal, absolute, backslash, NUL and symlink paths are 404', async () => {
    const archiveId = ids['assets.zip']!;
    storage.reset();
    const ok = await rawRequest(app.url, `/api/files/${archiveId}/entry?path=docs%2Freadme.txt`);
    expect(ok.status).toBe(200);
    expect(ok.text).toBe('Read me first.\n');
    // The recorder sees the archive's reads, so an empty record below means storage was not asked.
    expect(storage.calls.length).toBeGreaterThan(0);
    for (const value of [
      '..%2Fevil.txt',
      'evil.txt',
      '%2Fetc%2Fpasswd',
      'etc%2Fpasswd',
      'dir%5C..%5Cevil.txt',
      'shortcut',
      'docs%2F..%2Fdocs%2Freadme.txt',
      '.%2Fdocs%2Freadme.txt',
      'docs%2F%2Freadme.txt',
      'docs%2Freadme.txt%00',
      'docs%2Freadme.txt%00.html',
      '..++x',
      'C%3A%5Cwindows%5Cwin.ini',
      '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      'docs',
    ]) {
      storage.reset();
      const res = await rawRequest(app.url, `/api/files/${archiveId}/entry?path=${value}`);
      expectApiError(res.status, res.text, { status: 404, code: 'not_found' }, value);
      // Only the archive itself was read (its directory, through ranges); no other key was formed.
      const file = await app.deps.db.selectFrom('files').select('storage_key').where('id', '=', archiveId).executeTakeFirstOrThrow();
      for (const call of storage.calls) expect(call.split(' ')[1], value).toBe(file.storage_key);
    }
  });

  it('answers 400, not 500, to a malformed percent-encoding in a path (an overlong UTF-8 slash)', async () => {
    for (const path of ['/..%c0%af..%c0%afetc', '/api/files/..%c0%af..%c0%afetc', '/api/sites/%c0%ae%c0%ae/download', '/api/upload-session/%E0%A4%A']) {
      const res = await expectRefusedWithoutStorage(path, {}, [400, 404, 500]);
      // Whatever the status, the body is our error shape or the 404 page, without a stack trace.
      expectNoLeak(res.text, path);
      expect(res.status, path).not.toBe(500);
    }
  });

  it('keeps uploaded file names out of storage keys', async () => {
    const keys = await app.deps.db.selectFrom('files').select(['storage_key', 'name', 'project_id', 'id']).execute();
    for (const row of keys) {
      expect(row.storage_key).toBe(uploadKey(row.project_id, row.id));
      expect(row.storage_key).not.toContain(row.name);
    }
  });
});
