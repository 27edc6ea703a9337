/**
 * Cross-site writes (security checklist 36; CSRF, ASVS 3.5.1): every state-changing API call sent
 * with a foreign Origin is refused with 403 before it does anything, whatever the content type
 * (a plain HTML form can send urlencoded, multipart and text/plain without a preflight).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TTestApp, UNREACHED_RATE_LIMITS } from '@dropsite/testkit/control-api/test-app';
import { createBrowser, seedSite, type TSeededSite } from '@dropsite/testkit/control-api/site-fixtures';
import { expectApiError, multipartBody, publishFields } from '@dropsite/testkit/control-api/security-support';

const PASSWORD = 'correct horse battery';

const FOREIGN_ORIGINS = ['https://evil.example', 'null', 'http://localhost.evil.example', 'http://127.0.0.1.nip.io', 'file://'];

interface TWrite {
  method: 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  path: string;
  contentType: string;
  body: string | Buffer;
}

function writesOf(site: TSeededSite): TWrite[] {
  const json = (value: unknown) => JSON.stringify(value);
  const siteId = site.project.id;
  const fileId = site.files[0]!.id;
  const upload = multipartBody([
    ...publishFields([{ name: 'a.txt', type: 'text/plain', size: 5 }]),
    { name: 'files', dispositionExtra: 'filename="a.txt"', contentType: 'text/plain', data: 'hello' },
  ]);
  const J = 'application/json';
  return [
    { method: 'POST', path: '/api/upload', contentType: upload.contentType, body: upload.body },
    { method: 'POST', path: '/api/direct-upload', contentType: upload.contentType, body: upload.body },
    { method: 'POST', path: '/api/chunked-upload/init', contentType: J, body: json({ title: 'x', description: 'y', files: [{ name: 'a.txt', size: 5, type: 'text/plain' }] }) },
    {
      method: 'POST',
      path: '/api/direct-upload/init',
      contentType: J,
      body: json({ files: [{ name: 'a.txt', size: 5, type: 'text/plain' }], metadata: { title: 'x', description: 'y' } }),
    },
    { method: 'POST', path: '/api/upload-chunk/AAAAAAAAAAAAAAAAAAAAAA/AAAAAAAAAAAAAAAAAAAAAA?chunk=0', contentType: 'application/octet-stream', body: 'hello' },
    { method: 'POST', path: '/api/chunked-upload/complete', contentType: J, body: json({ sessionId: 'AAAAAAAAAAAAAAAAAAAAAA' }) },
    { method: 'POST', path: '/api/direct-upload/complete', contentType: J, body: json({ sessionId: 'AAAAAAAAAAAAAAAAAAAAAA' }) },
    { method: 'POST', path: '/api/direct-upload/urls', contentType: J, body: json({ sessionId: 'AAAAAAAAAAAAAAAAAAAAAA', fileId: 'AAAAAAAAAAAAAAAAAAAAAA', chunkIndices: [0] }) },
    { method: 'DELETE', path: '/api/upload-session/AAAAAAAAAAAAAAAAAAAAAA', contentType: J, body: '' },
    { method: 'POST', path: '/api/preview', contentType: J, body: json({ title: 'x' }) },
    { method: 'POST', path: '/api/favorites', contentType: J, body: json({ projectId: siteId, fileId }) },
    { method: 'POST', path: '/api/favorites', contentType: 'text/plain', body: json({ projectId: siteId, fileId }) },
    { method: 'DELETE', path: '/api/favorites', contentType: J, body: json({ projectId: siteId, fileId }) },
    { method: 'POST', path: '/api/approvals', contentType: J, body: json({ projectId: siteId, fileId, status: 'approved' }) },
    { method: 'POST', path: '/api/approvals', contentType: 'application/x-www-form-urlencoded', body: `projectId=${siteId}&fileId=${fileId}&status=approved` },
    { method: 'POST', path: '/api/comments', contentType: J, body: json({ projectId: siteId, fileId, commentText: 'Planted from elsewhere' }) },
    { method: 'POST', path: '/api/analytics/view', contentType: J, body: json({ projectId: siteId }) },
    { method: 'POST', path: '/api/analytics/events', contentType: J, body: json({ event: 'email_modal_shown' }) },
    { method: 'POST', path: '/api/email-collection', contentType: J, body: json({ email: 'victim@example.com', trigger: 'exit_intent' }) },
    { method: 'POST', path: `/api/sites/${site.slug}/unlock`, contentType: 'application/x-www-form-urlencoded', body: `password=${encodeURIComponent(PASSWORD)}` },
    { method: 'POST', path: `/api/sites/${site.slug}/unlock`, contentType: J, body: json({ password: PASSWORD }) },
    { method: 'PUT', path: '/api/favorites', contentType: J, body: json({ projectId: siteId, fileId }) },
    { method: 'PATCH', path: '/api/comments', contentType: J, body: json({ projectId: siteId, fileId, commentText: 'x' }) },
  ];
}

describe('cross-site writes are refused by their Origin', () => {
  let app: TTestApp;

  beforeAll(async () => {
    app = await startTestApp({
      startWorker: false,
      config: {
        rateLimits: UNREACHED_RATE_LIMITS,
      },
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  const counts = async () => {
    const count = async (table: 'projects' | 'comments' | 'favorites' | 'approvals' | 'upload_sessions') =>
      Number(
        (
          await app.deps.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      projects: await count('projects'),
      comments: await count('comments'),
      favorites: await count('favorites'),
      approvals: await count('approvals'),
      sessions: await count('upload_sessions'),
    };
  };

  it('refuses every write from a foreign origin with 403, changing nothing and setting no cookie', async () => {
    const site = await seedSite(app);
    const locked = await seedSite(app, { password: PASSWORD });
    // A visitor of ours, whose cookies a cross-site form would carry.
    const visitor = createBrowser(app);
    await visitor.fetch(`/api/engagement/state?projectId=${site.project.id}`);
    const before = await counts();
    for (const target of [site, locked]) {
      for (const write of writesOf(target)) {
        for (const origin of FOREIGN_ORIGINS) {
          const res = await visitor.fetch(write.path, {
            method: write.method,
            headers: { origin, 'content-type': write.contentType },
            body: typeof write.body === 'string' ? write.body : new Uint8Array(write.body),
          });
          const what = `${write.method} ${write.path} (${write.contentType}) from ${origin}`;
          expectApiError(res.status, await res.text(), { status: 403, code: 'forbidden' }, what);
          expect(res.headers.getSetCookie(), what).toEqual([]);
        }
      }
    }
    expect(await counts()).toEqual(before);
    // The same visitor from our own origin is served (so the refusals above were the Origin's).
    const own = await visitor.json('/api/favorites', { method: 'POST', json: { projectId: site.project.id, fileId: site.files[0]!.id } });
    expect(own.status).toBe(200);
  });

  it('refuses origins that only look like ours: other scheme, longer host, userinfo, case, trailing slash', async () => {
    const site = await seedSite(app);
    for (const origin of [`${app.url}.evil.example`, `${app.url}/`, app.url.replace('http://', 'https://'), app.url.toUpperCase(), `${app.url}@evil.example`]) {
      const res = await fetch(`${app.url}/api/comments`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json' },
        body: JSON.stringify({ projectId: site.project.id, fileId: site.files[0]!.id, commentText: 'forged' }),
      });
      expectApiError(res.status, await res.text(), { status: 403, code: 'forbidden' }, origin);
    }
    expect(await app.deps.db.selectFrom('comments').select('id').where('project_id', '=', site.project.id).execute()).toEqual([]);
  });
});
