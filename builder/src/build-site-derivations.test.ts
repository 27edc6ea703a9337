/**
 * What a build derives for every kind of file and what of it reaches the site template. The
 * template is replaced by one that prints the render model it receives (model-echo-entry.mjs),
 * so these tests read exactly what the viewers get.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { ZSiteRenderModelSchema, siteOgImageKey, type TSiteFile, type TSiteRenderModel } from '@dropsite/shared';
import { createSiteBuilder } from './build-site.ts';
import { NOT_A_PDF } from './derive-pdf.ts';
import type { SiteBuilder, TBuildFile, TBuildReport } from './types.ts';
import { MemoryStorage } from '@dropsite/testkit/builder/memory-storage';
import { addFile, makeImage, makeInput, makeSite, recordingLogger } from '@dropsite/testkit/builder/fixtures';
import { hasTool, makePdf, makePptx, makeVideo, makeZip, requireTool } from '@dropsite/testkit/builder/media-fixtures';

import { MODEL_ECHO_TEMPLATE_ENTRY as ECHO_ENTRY } from '@dropsite/testkit/builder/template-entries';
const haveFfmpeg = requireTool('FFmpeg', hasTool('ffmpeg') && hasTool('ffprobe'));
// LibreOffice runs only inside bubblewrap's sandbox: both are needed to convert.
const haveSoffice = requireTool('LibreOffice', hasTool('soffice', ['--version'])) && requireTool('bubblewrap', hasTool('bwrap', ['--version']));

/** A template build with no island bundles: dist/client (empty) next to dist/server. */
const tempDirs: string[] = [];
function emptyTemplateDist(): string {
  const dist = mkdtempSync(path.join(os.tmpdir(), 'dropsite-no-assets-'));
  tempDirs.push(dist);
  mkdirSync(path.join(dist, 'client'));
  mkdirSync(path.join(dist, 'server'));
  return path.join(dist, 'client');
}

const builders: SiteBuilder[] = [];
function setup(storage = new MemoryStorage()) {
  const log = recordingLogger();
  const builder = createSiteBuilder({
    storage,
    siteOrigin: 'https://dropsite.test/',
    log,
    serverEntry: ECHO_ENTRY,
    clientDir: emptyTemplateDist(),
  });
  builders.push(builder);
  const reports: TBuildReport[] = [];
  return { storage, log, builder, reports, report: async (r: TBuildReport) => void reports.push(r) };
}
afterAll(async () => {
  await Promise.all(builders.map((b) => b.close()));
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

function modelOf(storage: MemoryStorage, htmlKey: string): TSiteRenderModel {
  const html = storage.text(htmlKey);
  const json = /<script type="application\/json" id="model">(.*)<\/script>/s.exec(html)![1]!;
  return ZSiteRenderModelSchema.parse(JSON.parse(json));
}

describe('a build with every kind of file', () => {
  const storage = new MemoryStorage();
  let files: Record<string, TBuildFile>;
  let first: Awaited<ReturnType<SiteBuilder['buildSite']>>;
  let model: TSiteRenderModel;
  let env: ReturnType<typeof setup>;
  const site = (name: string): TSiteFile => model.files.find((f) => f.name === name)!;

  beforeAll(async () => {
    env = setup(storage);
    const zip = makeZip([
      { name: 'brand/', data: '' },
      { name: 'brand/logo.png', data: await makeImage(120, 80, { format: 'png' }), method: 'store' },
      { name: 'brand/guide.txt', data: 'Use the logo on light backgrounds.\n'.repeat(20) },
      { name: '../escape.txt', data: 'nope' },
    ]);
    const list: TBuildFile[] = [
      await addFile(storage, 'cover.jpg', await makeImage(1600, 1000, { hue: 200 })),
      await addFile(storage, 'brief.pdf', makePdf(3)),
      await addFile(storage, 'assets.zip', zip),
      await addFile(storage, 'notes.md', Buffer.from('# Notes\n\nFirst draft.\n')),
      await addFile(storage, 'scan.pdf', Buffer.from('GIF89a this is not a pdf')),
      await addFile(storage, 'pitch.key', Buffer.from('keynote')),
      await addFile(storage, 'photos.rar', Buffer.from('Rar!\x1a\x07\x00')),
    ];
    if (haveFfmpeg) list.push(await addFile(storage, 'clip.mp4', makeVideo(2)));
    files = Object.fromEntries(list.map((f) => [f.name, f]));
    first = await env.builder.buildSite(makeInput(makeSite({ slug: 'every-kind' }), list), env.report);
    model = modelOf(storage, first.htmlKey);
  }, 120_000);

  it('derives every file once and fills the details the viewers use', () => {
    expect(first.derivedCount).toBe(Object.keys(files).length);

    const brief = site('brief.pdf');
    const id = files['brief.pdf']!.id;
    expect(brief.details).toEqual({
      pages: 3,
      pdfUrl: `/api/files/${id}?mode=preview`,
      // The first page the viewer shows before PDF.js loads, with its pixel size (a US Letter page).
      firstPage: { url: `/api/files/${id}/first-page`, width: 1200, height: 1553 },
    });
    expect(brief).toMatchObject({ thumbnailUrl: `/api/files/${id}?mode=preview&size=300`, thumbnailWidth: 300, thumbnailHeight: 388, format: 'pdf' });

    const notes = site('notes.md');
    expect(notes.details).toEqual({ text: { encoding: 'UTF-8', firstLines: ['# Notes', '', 'First draft.'], totalLines: 3 } });
    expect(notes.thumbnailUrl).toBeNull();

    const archive = site('assets.zip').details.archive!;
    expect(archive).toMatchObject({ format: 'zip', totalFiles: 2, totalFolders: 1, truncated: false, skippedEntries: 1 });
    expect(archive.entries.map((e) => e.path)).toEqual(['brand']);
    expect(archive.entries[0]!.children!.map((e) => [e.name, e.fileType])).toEqual([
      ['guide.txt', 'document'],
      ['logo.png', 'image'],
    ]);

    // The image path is unchanged: thumbnail and display copy.
    expect(site('cover.jpg')).toMatchObject({ width: 1600, height: 1000, thumbnailWidth: 300, thumbnailHeight: 188, details: {} });
  });

  it.runIf(haveFfmpeg)('gives a video its poster, thumbnail, dimensions and media details', () => {
    const clip = site('clip.mp4');
    const id = files['clip.mp4']!.id;
    expect(clip.details.posterUrl).toBe(`/api/files/${id}/poster`);
    expect(clip.details.media).toMatchObject({ width: 640, height: 360, container: 'mp4', videoCodec: 'H.264', audioCodec: 'AAC' });
    expect(clip).toMatchObject({ width: 640, height: 360, thumbnailUrl: `/api/files/${id}?mode=preview&size=300`, thumbnailWidth: 300, thumbnailHeight: 169 });
    expect(clip.details.pdfUrl).toBeUndefined();
  });

  it('turns what cannot be previewed into a reason for the download card, and the site still builds', () => {
    expect(site('scan.pdf').details).toEqual({ previewUnavailable: NOT_A_PDF });
    expect(site('scan.pdf').thumbnailUrl).toBeNull();
    expect(site('pitch.key').details).toEqual({ previewUnavailable: 'Preview not available: Keynote presentations cannot be converted on this server.' });
    expect(site('photos.rar').details.previewUnavailable).toBe('Preview not available for .rar archives: download it to see what is inside.');
    expect(env.log.entries.filter((e) => e.msg === 'file derivation failed')).toHaveLength(3);
  });

  it('never puts storage keys or original paths in the page', () => {
    const json = JSON.stringify(model);
    expect(json).not.toContain('derived/');
    expect(json).not.toContain('originals/');
  });

  it('writes a 1200x630 Open Graph picture before the HTML and links it absolutely', async () => {
    expect(model.ogImageUrl).toBe('https://dropsite.test/every-kind/og.png');
    const key = siteOgImageKey('every-kind');
    const og = storage.objects.get(key)!;
    expect(og.contentType).toBe('image/png');
    const meta = await sharp(og.body).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1200, 630]);
    expect(storage.putLog.indexOf(key)).toBeLessThan(storage.putLog.lastIndexOf(first.htmlKey));
    expect(storage.putLog.at(-1)).toBe(first.htmlKey);
  });

  it('reports what it is doing while slow kinds derive, never going backwards', () => {
    const stages = env.reports.map((r) => r.stage);
    expect(stages).toContain(`Reading PDF pages (2/${Object.keys(files).length})`);
    expect(stages.some((s) => s.startsWith('Listing archive contents'))).toBe(true);
    if (haveFfmpeg) expect(stages.some((s) => s.startsWith('Making a video poster'))).toBe(true);
    const values = env.reports.map((r) => r.progress);
    expect([...values].sort((a, b) => a - b)).toEqual(values);
    expect(values.at(-1)).toBe(100);
  });

  it('derives nothing and redraws nothing on a second build, in this process or a new one', async () => {
    const ogKey = siteOgImageKey('every-kind');
    const ogPuts = storage.putLog.filter((k) => k === ogKey).length;
    const input = makeInput(makeSite({ slug: 'every-kind' }), Object.values(files));
    const second = await env.builder.buildSite(input, env.report);
    expect(second.derivedCount).toBe(0);
    expect(storage.text(second.htmlKey)).toBe(storage.text(first.htmlKey));

    const fresh = setup(storage);
    const rows = Object.values(files).map((f) => ({ ...f, metadata: first.derived[f.id]! }));
    const third = await fresh.builder.buildSite(makeInput(input.site, rows), fresh.report);
    expect(third.derivedCount).toBe(0);
    expect(storage.text(third.htmlKey)).toBe(storage.text(first.htmlKey));
    expect(storage.putLog.filter((k) => k === ogKey).length).toBe(ogPuts);

    // A new title is a new picture.
    await fresh.builder.buildSite(makeInput({ ...input.site, title: 'Renamed' }, rows), fresh.report);
    expect(storage.putLog.filter((k) => k === ogKey).length).toBe(ogPuts + 1);
  });
});

describe.runIf(haveSoffice)('a build with a presentation', () => {
  it('links the converted PDF and shows its pages', async () => {
    const { storage, builder, report } = setup();
    const deck = await addFile(storage, 'deck.pptx', makePptx());
    const result = await builder.buildSite(makeInput(makeSite({ slug: 'deck-site' }), [deck]), report);
    const file = modelOf(storage, result.htmlKey).files[0]!;
    expect(file.kind).toBe('presentation');
    expect(file.details).toMatchObject({ pages: 2, pdfUrl: `/api/files/${deck.id}/pdf`, firstPage: { url: `/api/files/${deck.id}/first-page`, width: 1200 } });
    expect(file.thumbnailUrl).toBe(`/api/files/${deck.id}?mode=preview&size=300`);
  }, 120_000);
});
