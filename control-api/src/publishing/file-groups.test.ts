/**
 * A file's group (the folder it was dropped in) through every publish protocol: regular and direct
 * multipart (filesMetadata), chunked and direct chunked (each file's init descriptor). Each one lands
 * in the files row, the build input and the site's render model, on SQLite and PostgreSQL; a bad
 * group is a 400 that stores nothing. The draft preview renders the groups too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderModel } from '@dropsite/builder';
// The builder's helper that builds the site template once for every test process that renders with it.
import { ensureTemplateBuilt } from '@dropsite/testkit/builder/ensure-template-built';
import { loadBuildInput } from '../builds/build-input.ts';
import { buildUploadForm } from '@dropsite/testkit/control-api/fixtures';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { TEST_DIALECTS, isDialectAvailable, testAppDatabase } from '@dropsite/testkit/control-api/test-database';
import { sha256 } from '@dropsite/testkit/bytes';
import { callJson, completeSession, initChunked, sendChunk, type TDeclaredFile } from '@dropsite/testkit/control-api/upload-session-client';

const FILES = [
  { name: 'black-tee.jpg', group: 'Black' },
  { name: 'white-tee.jpg', group: '  White  ' },
  { name: 'size-chart.pdf', group: null },
] as const;
/** What each file's group is once the server has cleaned it. */
const CLEANED = ['Black', 'White', null];

const bytesOf = (i: number) => new TextEncoder().encode(`file ${i} `.repeat(20 + i));

async function postMultipart(app: TTestApp, path: string, form: FormData) {
  const res = await fetch(`${app.url}${path}`, { method: 'POST', body: form });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function multipartForm(groups: ReadonlyArray<string | null>): FormData {
  const parts = FILES.map((f, i) => ({ name: f.name, type: f.name.endsWith('.pdf') ? 'application/pdf' : 'image/jpeg', bytes: bytesOf(i) }));
  const filesMetadata = parts.map((p, i) => ({ name: p.name, type: p.type, size: p.bytes.byteLength, group: groups[i] }));
  return buildUploadForm(parts, { filesMetadata: JSON.stringify(filesMetadata) });
}

function declaredFiles(): TDeclaredFile[] {
  return FILES.map((f, i) => ({ name: f.name, bytes: bytesOf(i) }));
}

/** The init body's files with each one's group. */
function withGroups(groups: ReadonlyArray<string | null>) {
  return declaredFiles().map((f, i) => ({ name: f.name, size: f.bytes.byteLength, type: 'application/octet-stream', group: groups[i] }));
}

async function publishChunked(app: TTestApp): Promise<string> {
  const init = await callJson(app.url, 'POST', '/api/chunked-upload/init', { title: 'Tees', files: withGroups(FILES.map((f) => f.group)) });
  expect(init.status).toBe(201);
  const { sessionId, uploadUrls } = init.body as { sessionId: string; uploadUrls: Array<{ fileId: string; uploadUrl: string }> };
  const files = declaredFiles();
  for (const [i, target] of uploadUrls.entries()) expect((await sendChunk(app.url, target.uploadUrl, 0, files[i]!.bytes, { last: true })).status).toBe(200);
  const done = await completeSession(
    app.url,
    sessionId,
    uploadUrls.map((t, i) => ({ fileId: t.fileId, sha256: sha256(files[i]!.bytes) })),
  );
  expect(done.status).toBe(200);
  return String(done.body.slug);
}

async function publishDirectChunked(app: TTestApp): Promise<string> {
  const init = await callJson(app.url, 'POST', '/api/direct-upload/init', { metadata: { title: 'Tees' }, files: withGroups(FILES.map((f) => f.group)) });
  expect(init.status).toBe(201);
  const { sessionId, files: declared } = init.body as { sessionId: string; files: Array<{ fileId: string }> };
  const files = declaredFiles();
  for (const [i, f] of declared.entries()) {
    const urls = await callJson(app.url, 'POST', '/api/direct-upload/urls', { sessionId, fileId: f.fileId, chunkIndices: [0] });
    const [target] = urls.body.uploadUrls as Array<{ uploadUrl: string }>;
    expect((await fetch(`${app.url}${target!.uploadUrl}`, { method: 'POST', body: new Uint8Array(files[i]!.bytes) })).status).toBe(200);
  }
  const done = await completeSession(
    app.url,
    sessionId,
    declared.map((f, i) => ({ fileId: f.fileId, sha256: sha256(files[i]!.bytes) })),
    '/api/direct-upload/complete',
  );
  expect(done.status).toBe(200);
  return String(done.body.slug);
}

const PROTOCOLS: Record<string, (app: TTestApp) => Promise<string>> = {
  regular: async (app) => {
    const { status, body } = await postMultipart(app, '/api/upload', multipartForm(FILES.map((f) => f.group)));
    expect(status).toBe(201);
    return String(body.slug);
  },
  direct: async (app) => {
    const { status, body } = await postMultipart(app, '/api/direct-upload', multipartForm(FILES.map((f) => f.group)));
    expect(status).toBe(201);
    return String(body.slug);
  },
  chunked: publishChunked,
  'direct chunked': publishDirectChunked,
};

for (const dialect of TEST_DIALECTS) {
  const available = await isDialectAvailable(dialect);

  describe.skipIf(!available)(`file groups through every publish protocol (${dialect})`, () => {
    let app: TTestApp;
    const database = testAppDatabase(dialect, 'file_groups');
    beforeAll(async () => {
      app = await startTestApp({ config: database.config });
    });
    afterAll(async () => {
      await app?.close();
      await database.drop();
    });

    const siteIdOf = async (slug: string) => (await app.deps.db.selectFrom('projects').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()).id;

    for (const [protocol, publish] of Object.entries(PROTOCOLS)) {
      it(`${protocol}: each file keeps its group in its row, the build input and the site's render model`, async () => {
        const slug = await publish(app);
        await app.deps.queue.whenIdle();
        const siteId = await siteIdOf(slug);
        const rows = await app.deps.db.selectFrom('files').select(['name', 'group_name']).where('project_id', '=', siteId).orderBy('position').execute();
        expect(rows).toEqual(FILES.map((f, i) => ({ name: f.name, group_name: CLEANED[i] })));

        const input = await loadBuildInput(app.deps.db, siteId);
        expect(input?.files.map((f) => f.group)).toEqual(CLEANED);
        const model = buildRenderModel(input!.site, input!.files, {}, 'http://localhost');
        expect(model.files.map((f) => [f.name, f.group])).toEqual(FILES.map((f, i) => [f.name, CLEANED[i]]));
      });
    }

    it('a bad group is a 400 naming the field, and nothing is stored', async () => {
      const count = async (table: 'files' | 'upload_sessions') =>
        Number(
          (
            await app.deps.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = { files: await count('files'), sessions: await count('upload_sessions') };

      const slashed = await postMultipart(app, '/api/upload', multipartForm(['Shoot/Black', null, null]));
      expect(slashed.status).toBe(400);
      expect(slashed.body).toEqual({ success: false, code: 'validation_failed', error: 'filesMetadata.0.group: group must be one folder name, without / or \\' });

      const long = await initChunked(app.url, declaredFiles(), { files: withGroups([null, 'x'.repeat(81), null]) });
      expect(long.status).toBe(400);
      expect(long.body).toEqual({ success: false, code: 'validation_failed', error: 'files.1.group: group must be at most 80 characters' });

      const controlled = await callJson(app.url, 'POST', '/api/direct-upload/init', { metadata: { title: 'T' }, files: withGroups(['Bl\u0007ack', null, null]) });
      expect(controlled.status).toBe(400);
      expect(controlled.body.error).toBe('files.0.group: group must not contain control characters');

      expect({ files: await count('files'), sessions: await count('upload_sessions') }).toEqual(before);
    });
  });
}

describe('file groups in the draft preview', () => {
  let app: TTestApp;
  beforeAll(async () => {
    await ensureTemplateBuilt();
    app = await startTestApp({ startWorker: false });
  });
  afterAll(async () => {
    await app?.close();
  });

  const preview = (files: Array<Record<string, unknown>>) =>
    fetch(`${app.url}/api/preview`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Tees', template: 'photo-gallery', files }),
    });

  it('renders each chosen file with its group, as the published site will', async () => {
    const res = await preview([
      { clientId: 'b1', name: 'black.jpg', type: 'image/jpeg', size: 1000, width: 800, height: 1000, group: ' Black ' },
      { clientId: 'w1', name: 'white.jpg', type: 'image/jpeg', size: 1000, width: 800, height: 1000, group: 'White' },
    ]);
    expect(res.status).toBe(200);
    const html = await res.text();
    // The gallery's category chips get each image's group in its island's props.
    for (const group of ['Black', 'White']) expect(html).toContain(`&quot;group&quot;:[0,&quot;${group}&quot;]`);
  });

  it('refuses a bad group with a 400 naming it', async () => {
    const res = await preview([{ clientId: 'b1', name: 'black.jpg', type: 'image/jpeg', size: 1000, group: 'a/b' }]);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ success: false, error: 'files.0.group: group must be one folder name, without / or \\' });
  });
});
