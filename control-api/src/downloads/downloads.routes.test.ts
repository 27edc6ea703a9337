import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { sitePreviewImageKey } from '@dropsite/shared';
import { loadConfig } from '../config/config.ts';
import { startTestApp, createFakeClock, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { buildUploadForm, makeJpeg, postUpload, type TUploadPart } from '@dropsite/testkit/control-api/fixtures';
import { requireService } from '@dropsite/testkit/control-api/services';
import { NOTHING_TO_DOWNLOAD } from './downloads.service.ts';
import { hasTool, makePdf, makePptx, makeVideo, makeYazlZip, unzip } from '@dropsite/testkit/control-api/download-fixtures';

const haveFfmpeg = await requireService('FFmpeg', async () => hasTool('ffmpeg') && hasTool('ffprobe'));
const haveSoffice = await requireService('LibreOffice', async () => hasTool('soffice', ['--version']));

describe('downloads, archive entries, converted PDFs, posters and the Open Graph picture', () => {
  let app: TTestApp;
  const clock = createFakeClock();
  const parts: Record<string, TUploadPart> = {};
  const ids: Record<string, string> = {};
  let slug = '';
  let otherSlug = '';
  let otherFileId = '';
  const readme = 'Read me first.\n'.repeat(50);
  let logo: Buffer;

  beforeAll(async () => {
    app = await startTestApp({ clock });
    logo = await makeJpeg(64, 48, 2);
    const archive = await makeYazlZip(
      [
        { name: 'docs/readme.txt', data: readme },
        { name: 'img/logo.jpg', data: logo, compress: false },
        { name: 'shortcut', data: '/etc/passwd', mode: 0o120777 },
        { name: 'xx/evil.txt', data: 'escaped' },
      ],
      { 'xx/evil.txt': '../evil.txt' },
    );
    const list: TUploadPart[] = [
      { name: 'photo.jpg', type: 'image/jpeg', bytes: await makeJpeg(800, 600, 1) },
      { name: 'PHOTO.jpg', type: 'image/jpeg', bytes: await makeJpeg(600, 800, 3) },
      { name: 'notes.txt', type: 'text/plain', bytes: Buffer.from('Call the printer on Monday.\n'.repeat(30)) },
      { name: 'brief.pdf', type: 'application/pdf', bytes: makePdf(3) },
      { name: 'assets.zip', type: 'application/zip', bytes: archive },
    ];
    if (haveFfmpeg) list.push({ name: 'clip.mp4', type: 'video/mp4', bytes: makeVideo(2, '320x240') });
    if (haveSoffice) list.push({ name: 'launch.pptx', type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', bytes: makePptx() });
    for (const part of list) parts[part.name] = part;

    const first = await postUpload(app.url, buildUploadForm(list, { title: 'Autumn Wedding / Día 1' }));
    expect(first.status).toBe(201);
    slug = String(first.body.slug);
    const second = await postUpload(app.url, buildUploadForm([{ name: 'other.txt', type: 'text/plain', bytes: Buffer.from('another site') }], { title: 'Other' }));
    otherSlug = String(second.body.slug);
    await app.deps.queue.whenIdle();

    const rows = await app.deps.db.selectFrom('files').innerJoin('projects', 'projects.id', 'files.project_id').select(['files.id', 'files.name', 'projects.slug']).execute();
    for (const row of rows) {
      if (row.slug === slug) ids[row.name] = row.id;
      else otherFileId = row.id;
    }
    const live = await app.deps.db.selectFrom('projects').select(['slug', 'status']).execute();
    expect(live.every((p) => p.status === 'live')).toBe(true);
  }, 180_000);
  afterAll(async () => {
    await app?.close();
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${app.url}${path}`, { headers });
  const body = async (res: Response) => Buffer.from(await res.arrayBuffer());
  const expectInert = (res: Response) => {
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toMatch(/^sandbox/);
  };

  describe('GET /api/sites/{slug}/download', () => {
    it('streams one ZIP holding every file byte-identical, names made unique, named after the site', async () => {
      const res = await get(`/api/sites/${slug}/download`);
      expect(res.status).toBe(200);
      expectInert(res);
      expect(res.headers.get('content-type')).toBe('application/zip');
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="Autumn Wedding _ D_a 1.zip"; filename*=UTF-8''Autumn%20Wedding%20_%20D%C3%ADa%201.zip`);
      // notes.txt is deflated, so the size is not known before the end: no Content-Length.
      expect(res.headers.get('content-length')).toBeNull();

      const entries = await unzip(await body(res));
      const expected = Object.values(parts).map((p) => (p.name === 'PHOTO.jpg' ? 'PHOTO (2).jpg' : p.name));
      expect([...entries.keys()].sort()).toEqual(expected.sort());
      for (const part of Object.values(parts)) {
        const name = part.name === 'PHOTO.jpg' ? 'PHOTO (2).jpg' : part.name;
        expect(entries.get(name)!.equals(Buffer.from(part.bytes)), name).toBe(true);
      }
    });

    it('zips a selection, and sends Content-Length when every entry is stored', async () => {
      const res = await get(`/api/sites/${slug}/download?files=${ids['brief.pdf']},${ids['photo.jpg']}`);
      expect(res.status).toBe(200);
      const bytes = await body(res);
      expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
      const entries = await unzip(bytes);
      expect([...entries.keys()].sort()).toEqual(['brief.pdf', 'photo.jpg']);
      expect(entries.get('brief.pdf')!.equals(Buffer.from(parts['brief.pdf']!.bytes))).toBe(true);

      const head = await fetch(`${app.url}/api/sites/${slug}/download?files=${ids['photo.jpg']}`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(Number(head.headers.get('content-length'))).toBeGreaterThan(parts['photo.jpg']!.bytes.byteLength);
    });

    it("refuses another site's files, malformed ids and empty selections", async () => {
      const foreign = await get(`/api/sites/${slug}/download?files=${ids['photo.jpg']},${otherFileId}`);
      expect(foreign.status).toBe(404);
      expect(await foreign.json()).toMatchObject({ success: false, code: 'not_found' });
      expect((await get(`/api/sites/${slug}/download?files=..%2F..%2Fetc`)).status).toBe(404);
      expect((await get(`/api/sites/${slug}/download?files=`)).status).toBe(400);
      expect((await get(`/api/sites/no-such-site-here/download`)).status).toBe(404);
      expect((await get(`/api/sites/api/download`)).status).toBe(404);
    });
  });

  describe('GET /api/files/{id}/entry', () => {
    it('extracts one entry byte-identical as an attachment', async () => {
      const res = await get(`/api/files/${ids['assets.zip']}/entry?path=docs/readme.txt`);
      expect(res.status).toBe(200);
      expectInert(res);
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="readme.txt"/);
      expect(res.headers.get('content-type')).toBe('application/octet-stream');
      expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(readme));
      expect((await body(res)).toString()).toBe(readme);
    });

    it('zips several entries, keeping their folders', async () => {
      const res = await get(`/api/files/${ids['assets.zip']}/entry?path=docs/readme.txt&path=img/logo.jpg`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toContain('assets (selection).zip');
      const entries = await unzip(await body(res));
      expect([...entries.keys()].sort()).toEqual(['docs/readme.txt', 'img/logo.jpg']);
      expect(entries.get('img/logo.jpg')!.equals(logo)).toBe(true);
    });

    it('refuses traversal, symlinks, unknown paths and files that are not archives', async () => {
      const entry = (query: string, id = ids['assets.zip']) => get(`/api/files/${id}/entry?${query}`);
      for (const query of [
        'path=../evil.txt',
        'path=evil.txt',
        'path=..%2F..%2Fetc%2Fpasswd',
        'path=%2Fetc%2Fpasswd',
        'path=shortcut',
        'path=docs',
        'path=docs/missing.txt',
        'path=docs/readme.txt&path=../evil.txt',
      ]) {
        const res = await entry(query);
        expect(res.status, query).toBe(404);
        expect(await res.json()).toMatchObject({ success: false, code: 'not_found' });
      }
      expect((await entry('')).status).toBe(400);
      expect((await entry('path=a.txt', ids['notes.txt'])).status).toBe(404);
    });
  });

  describe('GET /api/files/{id}/pdf', () => {
    it('serves a PDF inline with byte ranges', async () => {
      const pdf = Buffer.from(parts['brief.pdf']!.bytes);
      const res = await get(`/api/files/${ids['brief.pdf']}/pdf`);
      expect(res.status).toBe(200);
      expectInert(res);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('content-disposition')).toMatch(/^inline; filename="brief.pdf"/);
      expect((await body(res)).equals(pdf)).toBe(true);

      const partial = await get(`/api/files/${ids['brief.pdf']}/pdf`, { range: 'bytes=0-9' });
      expect(partial.status).toBe(206);
      expect(partial.headers.get('content-range')).toBe(`bytes 0-9/${pdf.length}`);
      expect((await body(partial)).equals(pdf.subarray(0, 10))).toBe(true);
      const beyond = await get(`/api/files/${ids['brief.pdf']}/pdf`, { range: `bytes=${pdf.length}-` });
      expect(beyond.status).toBe(416);
      const overlapping = await get(`/api/files/${ids['brief.pdf']}/pdf`, { range: `bytes=${Array.from({ length: 1000 }, () => '0-').join(',')}` });
      expect(overlapping.status).toBe(200);
      await overlapping.arrayBuffer();
    });

    it.runIf(haveSoffice)('serves the PDF a presentation was converted to', async () => {
      const res = await get(`/api/files/${ids['launch.pptx']}/pdf`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('content-disposition')).toMatch(/^inline; filename="launch.pdf"/);
      expect((await body(res)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const thumb = await get(`/api/files/${ids['launch.pptx']}?mode=preview&size=300`);
      expect((await sharp(await body(thumb)).metadata()).width).toBe(300);
    });

    it('has no PDF for an image', async () => {
      expect((await get(`/api/files/${ids['photo.jpg']}/pdf`)).status).toBe(404);
    });
  });

  describe('GET /api/files/{id}/first-page', () => {
    it("serves a PDF's whole first page as a 1200 px WebP, the size the site's viewer is told", async () => {
      const res = await get(`/api/files/${ids['brief.pdf']}/first-page`);
      expect(res.status).toBe(200);
      expectInert(res);
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect(res.headers.get('content-disposition')).toMatch(/^inline; filename="brief-page-1.webp"/);
      const meta = await sharp(await body(res)).metadata();
      // The test PDF is US Letter (612 x 792 pt): the whole page, 1200 px wide.
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 1200, 1553]);
      const site = await (await get(`/${slug}`)).text();
      expect(site).toContain(`/api/files/${ids['brief.pdf']}/first-page`);
    });

    it('has none for an image, a text file or an archive', async () => {
      for (const name of ['photo.jpg', 'notes.txt', 'assets.zip']) expect((await get(`/api/files/${ids[name]}/first-page`)).status, name).toBe(404);
    });
  });

  describe.runIf(haveFfmpeg)('video', () => {
    it('serves the poster as WebP, while the preview stays the video itself', async () => {
      const poster = await get(`/api/files/${ids['clip.mp4']}/poster`);
      expect(poster.status).toBe(200);
      expectInert(poster);
      expect(poster.headers.get('content-type')).toBe('image/webp');
      const meta = await sharp(await body(poster)).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 320, 240]);

      const preview = await get(`/api/files/${ids['clip.mp4']}?mode=preview`);
      expect(preview.headers.get('content-type')).toBe('video/mp4');
      expect((await body(preview)).equals(Buffer.from(parts['clip.mp4']!.bytes))).toBe(true);
      expect((await get(`/api/files/${ids['photo.jpg']}/poster`)).status).toBe(404);
    });
  });

  describe('GET /{slug}/og.png', () => {
    it('serves the 1200x630 link-preview picture', async () => {
      const res = await get(`/${slug}/og.png`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      const meta = await sharp(await body(res)).metadata();
      expect([meta.width, meta.height]).toEqual([1200, 630]);
      expect((await get('/no-such-site-here/og.png')).status).toBe(404);
    });
  });

  describe('GET /{slug}/preview-{width}.{format}', () => {
    it("serves a site's stored card picture in its format, revalidated by ETag before each use", async () => {
      const picture = await sharp({ create: { width: 400, height: 210, channels: 3, background: '#336699' } })
        .webp()
        .toBuffer();
      await app.deps.storage.put(sitePreviewImageKey(slug, 400, 'webp'), picture, { contentType: 'image/webp' });
      const res = await get(`/${slug}/preview-400.webp`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect(res.headers.get('cache-control')).toBe('public, no-cache');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await body(res)).equals(picture)).toBe(true);
      const again = await get(`/${slug}/preview-400.webp`, { 'if-none-match': res.headers.get('etag') ?? '' });
      expect(again.status).toBe(304);
      await again.arrayBuffer();
      // A weak validator, or the tag in a list, matches too.
      for (const ifNoneMatch of [`W/${res.headers.get('etag')}`, `"other", ${res.headers.get('etag')}`]) {
        const weak = await get(`/${slug}/preview-400.webp`, { 'if-none-match': ifNoneMatch });
        expect(weak.status, ifNoneMatch).toBe(304);
        await weak.arrayBuffer();
      }
    });

    it('answers 404 for a picture the site does not have, and for a width or format there is none of', async () => {
      for (const path of [`/${slug}/preview-800.avif`, '/no-such-site-here/preview-400.webp', `/${slug}/preview-500.webp`, `/${slug}/preview-400.png`]) {
        const res = await get(path);
        expect(res.status, path).toBe(404);
        await res.arrayBuffer();
      }
    });
  });

  describe('locked and expired sites', () => {
    const everyRoute = () => [
      `/api/sites/${slug}/download`,
      `/api/sites/${slug}/download?files=${ids['photo.jpg']}`,
      `/api/files/${ids['assets.zip']}/entry?path=docs/readme.txt`,
      `/api/files/${ids['brief.pdf']}/pdf`,
      `/api/files/${ids['brief.pdf']}/first-page`,
      ...(haveFfmpeg ? [`/api/files/${ids['clip.mp4']}/poster`] : []),
      `/${slug}/og.png`,
      `/${slug}/preview-400.webp`,
    ];

    it('refuses everything of a password-protected site without an unlock', async () => {
      await app.deps.db.updateTable('projects').set({ password_hash: 'scrypt$16384$8$1$x$y' }).where('slug', '=', slug).execute();
      try {
        for (const path of everyRoute()) {
          const res = await get(path);
          expect(res.status, path).toBe(401);
          await res.arrayBuffer();
        }
      } finally {
        await app.deps.db.updateTable('projects').set({ password_hash: null }).where('slug', '=', slug).execute();
      }
    });

    it('answers 410 for everything of an expired site from the instant of expiry', async () => {
      await app.deps.db.updateTable('projects').set({ expires_at: clock.now() }).where('slug', '=', slug).execute();
      try {
        for (const path of everyRoute()) {
          const res = await get(path);
          expect(res.status, path).toBe(410);
          await res.arrayBuffer();
        }
      } finally {
        await app.deps.db.updateTable('projects').set({ expires_at: null }).where('slug', '=', slug).execute();
      }
      expect((await get(`/api/files/${ids['brief.pdf']}/pdf`)).status).toBe(200);
    });
  });

  it("says there is nothing to download when a site's files are gone", async () => {
    const site = await app.deps.db.selectFrom('projects').select('id').where('slug', '=', otherSlug).executeTakeFirstOrThrow();
    await app.deps.db.deleteFrom('files').where('project_id', '=', site.id).execute();
    const res = await get(`/api/sites/${otherSlug}/download`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ success: false, error: NOTHING_TO_DOWNLOAD, code: 'not_found' });
  });
});

describe('archive reads are rate limited per address', () => {
  let app: TTestApp;
  let slug = '';
  let zipId = '';

  beforeAll(async () => {
    const config = loadConfig({});
    app = await startTestApp({ config: { rateLimits: { ...config.rateLimits, readsPerMinute: 3 } } });
    const archive = await makeYazlZip([{ name: 'notes/readme.txt', data: 'Read me.\n'.repeat(20) }]);
    const upload = await postUpload(app.url, buildUploadForm([{ name: 'notes.zip', type: 'application/zip', bytes: archive }], { title: 'Notes' }));
    slug = String(upload.body.slug);
    await app.deps.queue.whenIdle();
    zipId = (await app.deps.db.selectFrom('files').select('id').where('name', '=', 'notes.zip').executeTakeFirstOrThrow()).id;
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  });

  it('answers 429 with Retry-After once an address has read its share, for entries and whole-site ZIPs alike', async () => {
    const entry = () => fetch(`${app.url}/api/files/${zipId}/entry?path=notes/readme.txt`);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await entry();
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200]);
    const refused = await fetch(`${app.url}/api/sites/${slug}/download`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    await refused.arrayBuffer();
    expect((await entry()).status).toBe(429);
  });
});
