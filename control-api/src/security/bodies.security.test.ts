/**
 * Oversized and malformed request bodies, hostile Range headers, and what errors reveal (security
 * checklist 4, 17, 30, 34; multer's DoS CVEs, busboy's `filename="x.jpg".html`, tinyhttp's
 * reversed Range, cpp-httplib's overlapping ranges): each is refused with 400/413/416 or served
 * whole, never a 500, never a stack trace, and the process keeps serving.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteOgImageKey, UPLOADS_PREFIX } from '@dropsite/shared';
import { startTestApp, type TTestApp, UNREACHED_RATE_LIMITS } from '@dropsite/testkit/control-api/test-app';
import { createBrowser, seedSite, type TSeededSite } from '@dropsite/testkit/control-api/site-fixtures';
import { expectApiError, expectNoLeak, multipartBody, publishFields, rawRequest } from '@dropsite/testkit/control-api/security-support';

const J = { 'content-type': 'application/json' };

describe('oversized and malformed bodies, hostile ranges, and error bodies', () => {
  let app: TTestApp;
  let site: TSeededSite;

  beforeAll(async () => {
    app = await startTestApp({
      startWorker: false,
      config: {
        rateLimits: UNREACHED_RATE_LIMITS,
      },
    });
    site = await seedSite(app);
    await app.deps.storage.put(siteOgImageKey(site.slug), Buffer.alloc(5000, 7));
  });
  afterAll(async () => {
    await app?.close();
  });

  const post = (path: string, body: string | Buffer, headers: Record<string, string> = J) =>
    rawRequest(app.url, path, { method: 'POST', headers: { origin: app.url, ...headers }, body });
  const expectServing = async () => expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
  const storedUploads = async () => {
    const keys: string[] = [];
    for await (const object of app.deps.storage.list(UPLOADS_PREFIX)) keys.push(object.key);
    return keys.filter((k) => !site.files.some((f) => f.storage_key === k));
  };

  const jsonRoutes = () => {
    const siteId = site.project.id;
    const fileId = site.files[0]!.id;
    return [
      { path: '/api/comments', valid: { projectId: siteId, fileId, commentText: 'x' } },
      { path: '/api/favorites', valid: { projectId: siteId, fileId } },
      { path: '/api/approvals', valid: { projectId: siteId, fileId, status: 'approved' } },
      { path: '/api/analytics/view', valid: { projectId: siteId } },
      { path: '/api/analytics/events', valid: { event: 'email_modal_shown' } },
      { path: '/api/email-collection', valid: { email: 'a@example.com', trigger: 'exit_intent' } },
      { path: `/api/sites/${site.slug}/unlock`, valid: { password: 'correct horse battery' } },
      { path: '/api/preview', valid: { title: 'x' } },
      { path: '/api/chunked-upload/init', valid: { title: 'x', description: 'y', files: [] } },
      { path: '/api/direct-upload/init', valid: { files: [], metadata: { title: 'x', description: 'y' } } },
      { path: '/api/chunked-upload/complete', valid: { sessionId: 'AAAAAAAAAAAAAAAAAAAAAA' } },
      { path: '/api/direct-upload/urls', valid: { sessionId: 'AAAAAAAAAAAAAAAAAAAAAA', fileId: 'AAAAAAAAAAAAAAAAAAAAAA', chunkIndices: [0] } },
    ];
  };

  it('answers 413 to a JSON body past each route’s limit (a 1 MB comment, a 2 MB init)', async () => {
    const big = 'x'.repeat(2 * 1024 * 1024 + 10);
    for (const { path, valid } of jsonRoutes()) {
      const res = await post(path, JSON.stringify({ ...valid, commentText: big, padding: big }));
      expectApiError(res.status, res.text, { status: 413, code: 'payload_too_large' }, path);
    }
    const comment = await post('/api/comments', JSON.stringify({ projectId: site.project.id, fileId: site.files[0]!.id, commentText: 'x'.repeat(1024 * 1024) }));
    expectApiError(comment.status, comment.text, { status: 413 }, '1 MB comment');
    const form = await post(`/api/sites/${site.slug}/unlock`, `password=${'x'.repeat(10_000)}`, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(413);
    expect(await app.deps.db.selectFrom('comments').select('id').execute()).toEqual([]);
    await expectServing();
  });

  it('answers 400 to malformed JSON on every JSON route', async () => {
    for (const { path } of jsonRoutes()) {
      for (const body of ['{"a":', "{'a':1}", '[1,2', '{"a":1}}', 'NaN', '{"a":"\\x00"}', '\u0000', '{"a":1,}']) {
        const res = await post(path, body);
        expectApiError(res.status, res.text, { status: 400 }, `${path} ${JSON.stringify(body)}`);
      }
    }
    await expectServing();
  });

  it('refuses deeply nested JSON, prototype keys and wrong shapes with 400, and pollutes nothing', async () => {
    const deep = `${'['.repeat(30_000)}${']'.repeat(30_000)}`;
    const deepObject = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    const siteId = site.project.id;
    const fileId = site.files[0]!.id;
    for (const { path } of jsonRoutes()) {
      for (const body of [
        deep,
        deepObject,
        '"just a string"',
        '12',
        'null',
        JSON.stringify([{ projectId: siteId, fileId }]),
        `{"__proto__":{"polluted":"yes"},"projectId":"${siteId}","fileId":"${fileId}","commentText":{"toString":"x"}}`,
        `{"constructor":{"prototype":{"polluted":"yes"}},"projectId":"${siteId}","fileId":["${fileId}"]}`,
      ]) {
        const res = await post(path, body);
        // A body with extra keys beside valid fields may be served; the point is that nothing breaks or is polluted.
        const allowed = body.includes('__proto__') ? [200, 201, 400, 404, 413] : [400, 404, 413];
        expect(allowed, `${path} ${body.slice(0, 40)}: ${res.status} ${res.text.slice(0, 100)}`).toContain(res.status);
        expectNoLeak(res.text, path);
      }
    }
    // The app runs in this process: no prototype was changed by any body.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    await expectServing();
  });

  it('answers 400 to malformed multipart uploads, keeps no bytes or rows, and keeps serving', async () => {
    const meta = [{ name: 'a.txt', type: 'text/plain', size: 5 }];
    const file = (extra: string) => ({ name: 'files', dispositionExtra: extra, contentType: 'text/plain', data: 'hello' });
    const manyFields = Array.from({ length: 10_000 }, (_, i) => ({ name: `f${i}`, data: 'x' }));
    const bodies: Array<{ what: string; contentType: string; body: string | Buffer; statuses?: number[] }> = [
      { what: 'no boundary', contentType: 'multipart/form-data', body: '--x\r\n\r\n' },
      { what: 'wrong boundary', ...multipartBody([...publishFields(meta), file('filename="a.txt"')], 'real'), contentType: 'multipart/form-data; boundary=other' },
      {
        what: 'truncated',
        contentType: 'multipart/form-data; boundary=b',
        body: '--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nHello\r\n--b\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n\r\npartial',
      },
      { what: 'no closing boundary', contentType: 'multipart/form-data; boundary=b', body: '--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nHello\r\n' },
      { what: 'empty field name', ...multipartBody([...publishFields(meta), { name: '', data: 'x' }, file('filename="a.txt"')]) },
      { what: 'part without a disposition', contentType: 'multipart/form-data; boundary=b', body: '--b\r\nContent-Type: text/plain\r\n\r\nhello\r\n--b--\r\n' },
      { what: 'broken part header', contentType: 'multipart/form-data; boundary=b', body: '--b\r\nContent-Disposition form-data name=title\r\n\r\nhello\r\n--b--\r\n' },
      { what: '10,000 fields', ...multipartBody([...manyFields, ...publishFields(meta), file('filename="a.txt"')]), statuses: [400, 413] },
      {
        what: 'deeply nested field names',
        ...multipartBody([...publishFields(meta), { name: `a${'[b]'.repeat(5000)}`, data: 'x' }, file('filename="a.txt"')]),
        statuses: [400, 413],
      },
      { what: 'a 200 KB field value', ...multipartBody([...publishFields(meta, { title: 'x'.repeat(200_000) }), file('filename="a.txt"')]), statuses: [400, 413] },
      { what: 'a file in a field that is not files', ...multipartBody([...publishFields(meta), { name: 'other', dispositionExtra: 'filename="a.txt"', data: 'hello' }]) },
      { what: 'not multipart at all', contentType: 'text/plain', body: 'hello' },
      { what: 'JSON instead of multipart', contentType: 'application/json', body: '{"title":"x"}' },
    ];
    for (const path of ['/api/upload', '/api/direct-upload']) {
      for (const { what, contentType, body, statuses } of bodies) {
        const res = await post(path, body, { 'content-type': contentType });
        expectApiError(res.status, res.text, { status: statuses ?? [400] }, `${path}: ${what}`);
      }
    }
    expect(await storedUploads()).toEqual([]);
    expect(await app.deps.db.selectFrom('projects').select('id').where('id', '!=', site.project.id).execute()).toEqual([]);
    await expectServing();
  });

  it('never stores a file named `filename="a.jpg".html` as HTML, whatever the parser reads', async () => {
    const html = '<script>alert(1)</script>';
    const meta = [{ name: 'a.jpg', type: 'image/jpeg', size: html.length }];
    const { body, contentType } = multipartBody([...publishFields(meta), { name: 'files', dispositionExtra: 'filename="a.jpg".html', contentType: 'text/html', data: html }]);
    const res = await post('/api/upload', body, { 'content-type': contentType });
    expect([201, 400], res.text).toContain(res.status);
    if (res.status === 201) {
      const slug = (JSON.parse(res.text) as { slug: string }).slug;
      const row = await app.deps.db
        .selectFrom('files')
        .innerJoin('projects', 'projects.id', 'files.project_id')
        .select(['files.id', 'files.name'])
        .where('projects.slug', '=', slug)
        .executeTakeFirstOrThrow();
      for (const mode of ['preview', 'download']) {
        const served = await fetch(`${app.url}/api/files/${row.id}?mode=${mode}`);
        expect(served.headers.get('content-type'), `${row.name} ${mode}`).not.toMatch(/html|xml|svg|javascript/i);
        expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      }
    }
  });

  it('answers hostile Range headers with one 206, a 416 or the whole body on every ranged route, without a crash', async () => {
    const file = site.files[0]!;
    const size = site.bytes.get(file.id)!.length;
    const routes = [`/api/files/${file.id}?mode=download`, `/api/files/${file.id}?mode=preview`, `/api/files/${file.id}?mode=preview&size=300`, `/${site.slug}/og.png`];
    const overlapping = `bytes=${Array.from({ length: 1000 }, () => '0-').join(',')}`;
    const cases: Array<[string, number[]]> = [
      [overlapping, [200]],
      [`bytes=${Array.from({ length: 1000 }, (_, i) => `${i}-${i + 10}`).join(',')}`, [200]],
      ['bytes=10-5', [200]],
      ['bytes=0-0,-1', [200]],
      [`bytes=${size * 10}-`, [416]],
      ['bytes=99999999999999999999999-', [200, 416]],
      ['bytes=0-99999999999999999999999', [200, 206]],
      ['bytes=-99999999999999999999999', [200, 206]],
      ['bytes=--1', [200]],
      ['bytes=-1-2', [200]],
      ['bytes=0x10-0x20', [200]],
      ['bytes=1e3-', [200]],
      ['bits=0-10', [200]],
      [`bytes=${'9'.repeat(5000)}-`, [200, 416]],
      ['bytes=0-9', [206]],
    ];
    for (const path of routes) {
      for (const [range, statuses] of cases) {
        const res = await rawRequest(app.url, path, { headers: { range } });
        expect(statuses, `${path} ${range.slice(0, 40)}: ${res.status}`).toContain(res.status);
        if (res.status === 206) expect(res.headers['content-range'], range.slice(0, 40)).toMatch(/^bytes \d+-\d+\/\d+$/);
        if (res.status === 416) expectApiError(res.status, res.text, { status: 416 }, range.slice(0, 40));
      }
    }
    // Many at once: each is answered with the whole file, and the process keeps serving.
    const answers = await Promise.all(Array.from({ length: 40 }, () => rawRequest(app.url, routes[0]!, { headers: { range: overlapping } })));
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.body.length).toBe(size);
    }
    await expectServing();
  });

  it('answers internal failures with a generic 500: no message, stack trace or path of the cause', async () => {
    const storage = app.deps.storage as unknown as Record<string, unknown>;
    const original = storage.head;
    storage.head = async () => {
      throw Object.assign(new Error("EACCES: permission denied, open '/srv/dropsite/storage/uploads/secret'"), { code: 'EACCES' });
    };
    try {
      const visitor = createBrowser(app);
      for (const path of [`/api/files/${site.files[0]!.id}?mode=download`, `/${site.slug}/og.png`]) {
        const res = await visitor.fetch(path);
        const text = await res.text();
        expectApiError(res.status, text, { status: 500, code: 'internal' }, path);
        expect(text).not.toContain('srv');
        expect(text).not.toContain('permission');
      }
    } finally {
      storage.head = original;
    }
    await expectServing();
  });

  it('answers unknown API paths and methods with the JSON 404, without echoing the request', async () => {
    for (const [method, path] of [
      ['GET', '/api/does-not-exist'],
      ['POST', '/api/files/x'],
      ['PUT', '/api/sites/x/download'],
      ['GET', '/api/%3Cscript%3Ealert(1)%3C%2Fscript%3E'],
      ['OPTIONS', '/api/comments'],
    ] as const) {
      const res = await rawRequest(app.url, path, { method, headers: { origin: app.url } });
      if (method === 'OPTIONS' && res.status < 300) continue;
      expectApiError(res.status, res.text, { status: [404, 405] }, `${method} ${path}`);
      expect(res.text).not.toContain('<script>');
    }
  });
});
