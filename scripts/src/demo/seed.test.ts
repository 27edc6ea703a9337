/**
 * The demo seed on a test app: each demo site is built by the ordinary builder at its template's
 * demo path, with its template and every sample file on the page; a second seed changes nothing;
 * a new template build or a changed sample project rebuilds what it touches. All eight on SQLite
 * and disk storage; one on PostgreSQL and S3 storage (s3rver), the distributed deployment's
 * (the rows are the same code on both dialects; the repository test covers both fully).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import {
  DEMO_PREVIEW_CONTENT_TYPES,
  DEMO_PREVIEW_FORMATS,
  DEMO_PREVIEW_WIDTHS,
  demoPreviewHeight,
  demoPreviewPath,
  sitePreviewImageKey,
  sitePreviewMarkerKey,
  TEMPLATE_CATALOGUE,
} from '@dropsite/shared';
import { isDialectAvailable, testAppDatabase } from '@dropsite/testkit/control-api/test-database';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { startS3rver, type TS3rver } from '@dropsite/testkit/control-api/s3rver';
import { DEMO_MANIFESTS } from './projects/index.ts';
import { pitchTemplate } from './projects/pitch-template.ts';
import { sampleFilesOf } from './samples.ts';
import { demoSlugOf, seedDemoSites } from './seed.ts';

/** A fresh checkout draws every sample picture first. */
const SEED_TIMEOUT_MS = 600_000;

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

async function buildCount(app: TTestApp): Promise<number> {
  const row = await app.deps.db
    .selectFrom('builds')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** When each demo's card pictures were stored: unchanged when nothing made them again. */
async function previewStamps(app: TTestApp): Promise<Array<number | undefined>> {
  const stamps: Array<number | undefined> = [];
  for (const manifest of DEMO_MANIFESTS) {
    for (const width of DEMO_PREVIEW_WIDTHS) {
      for (const format of DEMO_PREVIEW_FORMATS) stamps.push((await app.deps.storage.head(sitePreviewImageKey(demoSlugOf(manifest), width, format)))?.modifiedAt);
    }
  }
  return stamps;
}

describe('npm run seed-demo (SQLite)', () => {
  let app: TTestApp;
  beforeAll(async () => {
    app = await startTestApp();
    const report = await seedDemoSites(app.deps, { templateVersion: 'template-build-1' });
    expect(report.failed).toEqual([]);
    expect(report.built).toHaveLength(DEMO_MANIFESTS.length);
  }, SEED_TIMEOUT_MS);
  afterAll(async () => {
    await app?.close();
  });

  it('builds each demo at its template demo path, with its template, its title and every sample file', async () => {
    expect(DEMO_MANIFESTS.map((m) => `/${demoSlugOf(m)}`).sort()).toEqual(
      Object.values(TEMPLATE_CATALOGUE)
        .map((t) => t.demoPath)
        .sort(),
    );
    for (const manifest of DEMO_MANIFESTS) {
      const slug = demoSlugOf(manifest);
      const res = await fetch(`${app.url}/${slug}`);
      expect(res.status, slug).toBe(200);
      const html = await res.text();
      expect(html).toContain(`data-template="${manifest.template}"`);
      expect(html).toContain(escapeHtml(manifest.title));
      for (const file of sampleFilesOf(manifest)) expect(html, `${slug}: ${file.name}`).toContain(escapeHtml(file.name));
    }
    // The builder read the samples as a visitor's browser will: the ZIPs' entries are listed, the deck's pages counted.
    expect(await (await fetch(`${app.url}/universal-file-template`)).text()).toContain('dawn-warm.cube');
    expect(await (await fetch(`${app.url}/client-delivery`)).text()).toContain('aurora-01-hero-1200.jpg');
    expect(await (await fetch(`${app.url}/pitch-template`)).text()).toMatch(/9 pages/);
    // The rest of a site's public routes answer at the reserved paths too.
    expect(await (await fetch(`${app.url}/api/sites/photo-gallery/status`)).json()).toMatchObject({ success: true, status: 'live' });
    const og = await fetch(`${app.url}/photo-gallery/og.png`);
    expect([og.status, og.headers.get('content-type')]).toEqual([200, 'image/png']);
  });

  it('makes each demo its card pictures: its link picture at card widths in AVIF, WebP and JPEG, a few kilobytes each', async () => {
    for (const manifest of DEMO_MANIFESTS) {
      const slug = demoSlugOf(manifest);
      for (const width of DEMO_PREVIEW_WIDTHS) {
        for (const format of DEMO_PREVIEW_FORMATS) {
          const res = await fetch(`${app.url}${demoPreviewPath(`/${slug}`, width, format)}`);
          expect(res.status, `${slug} ${width} ${format}`).toBe(200);
          expect(res.headers.get('content-type')).toBe(DEMO_PREVIEW_CONTENT_TYPES[format]);
          const bytes = Buffer.from(await res.arrayBuffer());
          // The link picture they are made from is most of a megabyte.
          expect(bytes.length, `${slug} ${width} ${format}`).toBeLessThan(width === 400 ? 16 * 1024 : 40 * 1024);
          const meta = await sharp(bytes).metadata();
          expect([meta.format, meta.width, meta.height]).toEqual([format === 'jpg' ? 'jpeg' : format === 'avif' ? 'heif' : 'webp', width, demoPreviewHeight(width)]);
        }
      }
    }
    // The same picture as the link's: the gallery's card shows what a shared link of the demo shows.
    const og = Buffer.from(await (await fetch(`${app.url}/photo-gallery/og.png`)).arrayBuffer());
    const card = Buffer.from(await (await fetch(`${app.url}/photo-gallery/preview-400.webp`)).arrayBuffer());
    const pixels = (image: Buffer) => sharp(image).resize(400, 210).removeAlpha().raw().toBuffer();
    const [a, b] = await Promise.all([pixels(og), pixels(card)]);
    let difference = 0;
    for (let i = 0; i < a.length; i++) difference += Math.abs(a[i]! - b[i]!);
    expect(difference / a.length).toBeLessThan(6);
  });

  it('stores each demo as an ownerless, public, live project whose files keep the folders they were dropped in', async () => {
    const rows = await app.deps.db.selectFrom('projects').select(['slug', 'status', 'owner_creator_id', 'anonymous_session_id', 'password_hash', 'expires_at']).execute();
    expect(rows).toHaveLength(DEMO_MANIFESTS.length);
    for (const row of rows) expect(row).toMatchObject({ status: 'live', owner_creator_id: null, anonymous_session_id: null, password_hash: null, expires_at: null });
    const gallery = await app.deps.db
      .selectFrom('files')
      .innerJoin('projects', 'projects.id', 'files.project_id')
      .select(['files.name', 'files.group_name'])
      .where('projects.slug', '=', 'photo-gallery')
      .orderBy('files.position')
      .execute();
    expect(gallery.map((f) => f.group_name)).toEqual(['Portraits', 'Ceremony', 'Reception', 'Details', 'Portraits', 'Ceremony', 'Reception', 'Details']);
    // Every file's bytes are served.
    const first = await app.deps.db.selectFrom('files').select('id').limit(1).executeTakeFirstOrThrow();
    expect((await fetch(`${app.url}/api/files/${first.id}?mode=download`)).status).toBe(200);
  });

  it('changes nothing when run again', async () => {
    const builds = await buildCount(app);
    const cards = await previewStamps(app);
    const report = await seedDemoSites(app.deps, { templateVersion: 'template-build-1' });
    expect(report).toEqual({ built: [], current: DEMO_MANIFESTS.map(demoSlugOf), failed: [], previewsFailed: [] });
    expect(await buildCount(app)).toBe(builds);
    expect(await previewStamps(app)).toEqual(cards);
  });

  it("makes a current demo's missing card pictures, and only those", async () => {
    await app.deps.storage.delete(sitePreviewMarkerKey('event-template'));
    await app.deps.storage.delete(sitePreviewImageKey('event-template', 800, 'avif'));
    const report = await seedDemoSites(app.deps, { templateVersion: 'template-build-1', slugs: ['event-template', 'photo-gallery'] });
    expect(report).toEqual({ built: [], current: ['photo-gallery', 'event-template'], failed: [], previewsFailed: [] });
    expect((await fetch(`${app.url}/event-template/preview-800.avif`)).status).toBe(200);
  });

  it('rebuilds the demos on a new template build, keeping each file row', async () => {
    const before = await app.deps.db.selectFrom('files').select('id').orderBy('id').execute();
    const report = await seedDemoSites(app.deps, { templateVersion: 'template-build-2', slugs: ['pitch-template', 'event-template'] });
    expect(report.built.sort()).toEqual(['event-template', 'pitch-template']);
    expect(await app.deps.db.selectFrom('files').select('id').orderBy('id').execute()).toEqual(before);
  });

  it('updates a demo whose sample project changed', async () => {
    const title = pitchTemplate.title;
    const card = await (await fetch(`${app.url}/pitch-template/preview-800.jpg`)).arrayBuffer();
    pitchTemplate.title = 'Lumora AI — Series A (updated)';
    try {
      const report = await seedDemoSites(app.deps, { templateVersion: 'template-build-2', slugs: ['pitch-template', 'event-template'] });
      expect(report).toEqual({ built: ['pitch-template'], current: ['event-template'], failed: [], previewsFailed: [] });
      expect(await (await fetch(`${app.url}/pitch-template`)).text()).toContain('Lumora AI — Series A (updated)');
      // Its link picture shows the new title, and so does its card.
      const newCard = await (await fetch(`${app.url}/pitch-template/preview-800.jpg`)).arrayBuffer();
      expect(Buffer.from(newCard).equals(Buffer.from(card))).toBe(false);
    } finally {
      pitchTemplate.title = title;
    }
  });
});

const postgres = await isDialectAvailable('postgres');
describe.skipIf(!postgres)('npm run seed-demo (PostgreSQL, S3 storage)', () => {
  const database = testAppDatabase('postgres', 'seed_demo');
  let app: TTestApp;
  let s3: { server: TS3rver; dir: string } | undefined;
  beforeAll(async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-s3rver-'));
    const started = await startS3rver(dir);
    s3 = { server: started.server, dir };
    app = await startTestApp({
      config: database.config,
      storage: { driver: 's3', endpoint: started.endpoint, region: 'us-east-1', bucket: 'demo-sites', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true },
    });
  });
  afterAll(async () => {
    await app?.close();
    await database.drop();
    await s3?.server.close();
    if (s3) await rm(s3.dir, { recursive: true, force: true });
  });

  it(
    'builds a demo and finds it current the second time',
    async () => {
      const first = await seedDemoSites(app.deps, { templateVersion: 'template-build-1', slugs: ['pitch-template'] });
      expect(first).toEqual({ built: ['pitch-template'], current: [], failed: [], previewsFailed: [] });
      expect((await fetch(`${app.url}/pitch-template/preview-400.webp`)).headers.get('content-type')).toBe('image/webp');
      const html = await (await fetch(`${app.url}/pitch-template`)).text();
      expect(html).toContain('data-template="pitch-template"');
      expect(html).toContain('Lumora-AI-Series-A-Deck.pdf');
      const deck = await app.deps.db.selectFrom('files').select('id').where('name', '=', 'Lumora-AI-Series-A-Deck.pdf').executeTakeFirstOrThrow();
      const bytes = await fetch(`${app.url}/api/files/${deck.id}?mode=download`);
      expect([bytes.status, (await bytes.arrayBuffer()).byteLength > 10_000]).toEqual([200, true]);
      expect(await seedDemoSites(app.deps, { templateVersion: 'template-build-1', slugs: ['pitch-template'] })).toEqual({
        built: [],
        current: ['pitch-template'],
        failed: [],
        previewsFailed: [],
      });
    },
    SEED_TIMEOUT_MS,
  );
});
