import { beforeAll, describe, expect, it } from 'vitest';
import * as cheerio from 'cheerio';
import { createSiteBuilder, SITE_HTML_CACHE_CONTROL, SITE_HTML_CONTENT_TYPE, type TSiteBuilderDeps } from './build-site.ts';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { derivedKeys, siteHtmlKey, siteHtmlVariantKey, TEMPLATE_ASSETS_PREFIX, templateAssetKey, templateAssetVariantKey } from '@dropsite/shared';
import { contentEtag } from './precompress.ts';
import { SCRIPT_HASHES_METADATA } from './site-csp.ts';
import type { TBuildFile, TBuildReport } from './types.ts';
import { ensureTemplateBuilt } from '@dropsite/testkit/builder/ensure-template-built';
import { MemoryStorage } from '@dropsite/testkit/builder/memory-storage';
import { addFile, makeImage, makeInput, makeSite, recordingLogger } from '@dropsite/testkit/builder/fixtures';
import { makePdf } from '@dropsite/testkit/builder/media-fixtures';

beforeAll(ensureTemplateBuilt);

function setup(overrides: Partial<TSiteBuilderDeps> = {}) {
  const storage = new MemoryStorage();
  const log = recordingLogger();
  const builder = createSiteBuilder({ storage, siteOrigin: 'https://dropsite.test', log, ...overrides });
  const reports: TBuildReport[] = [];
  const report = async (r: TBuildReport) => void reports.push(r);
  return { storage, log, builder, reports, report };
}

async function threeImages(storage: MemoryStorage): Promise<TBuildFile[]> {
  return Promise.all([
    addFile(storage, 'dawn.jpg', await makeImage(1200, 800, { hue: 20 })),
    addFile(storage, 'noon.jpg', await makeImage(800, 1200, { hue: 200 })),
    addFile(storage, 'dusk.png', await makeImage(900, 900, { hue: 280, format: 'png' })),
  ]);
}

describe('createSiteBuilder().buildSite', () => {
  it('renders the hero, a 3-image grid island, a PDF viewer island, and a file list with a download per file', async () => {
    const { storage, builder, report, reports } = setup();
    const images = await threeImages(storage);
    const pdf = await addFile(storage, 'contract.pdf', makePdf(1));
    const input = makeInput(makeSite(), [...images, pdf]);

    const result = await builder.buildSite(input, report);

    expect(result.htmlKey).toBe(siteHtmlKey('harbour-lights'));
    expect(result.derivedCount).toBe(4);
    expect(Object.keys(result.derived).sort()).toEqual([...images, pdf].map((f) => f.id).sort());
    expect(result.derived[pdf.id]).toMatchObject({ sha256: pdf.sha256, kind: 'pdf', pages: 1 });
    const stored = storage.objects.get(result.htmlKey)!;
    expect(stored.contentType).toBe(SITE_HTML_CONTENT_TYPE);
    expect(stored.cacheControl).toBe(SITE_HTML_CACHE_CONTROL);
    expect(result.htmlBytes).toBe(stored.body.length);

    const $ = cheerio.load(stored.body.toString('utf8'));
    expect($('h1').text()).toBe('Harbour Lights');
    expect($('.hero__sub').text()).toBe('Twelve frames, edited and ready for print.');
    expect($('.hero__tag').text()).toBe('Client delivery');
    expect($('title').text()).toBe('Harbour Lights');
    expect($('meta[name="description"]').attr('content')).toBe('Final selects from the October shoot.');
    expect($('meta[property="og:title"]').attr('content')).toBe('Harbour Lights');
    expect($('meta[name="twitter:description"]').attr('content')).toBe('Final selects from the October shoot.');
    expect($('meta[name="theme-color"]').attr('content')).toBe('#ffffff');
    expect($('meta[name="viewport"]').length).toBe(1);
    expect($('html').attr('data-theme')).toBe('professional-light');

    // Gallery: 3 thumbnails with their real sizes and the thumbnail url; the first row loads at once.
    const thumbs = $('.gv-grid .gv-tile img');
    expect(thumbs.length).toBe(3);
    thumbs.each((i, img) => {
      const file = images[i]!;
      const meta = result.derived[file.id]!;
      expect($(img).attr('src')).toBe(`/api/files/${file.id}?mode=preview&size=300`);
      expect($(img).attr('width')).toBe(String(meta.thumbnail!.width));
      expect($(img).attr('height')).toBe(String(meta.thumbnail!.height));
      expect($(img).attr('alt')).toBe(file.name);
      expect($(img).attr('decoding')).toBe('async');
      expect($(img).closest('a').attr('href')).toBe(`/api/files/${file.id}?mode=preview`);
    });
    expect($('.gv-tile img').first().attr('width')).toBe('300');
    expect($('.gv-tile img[srcset]').length).toBe(0); // the preview is the display copy: never in a grid
    expect($('astro-island').length).toBe(2);
    expect($('astro-island').first().attr('component-url')).toMatch(/^\/_astro\/GalleryViewer\.[\w-]+\.js$/);
    expect($('astro-island').last().attr('component-url')).toMatch(/^\/_astro\/PdfViewer\.[\w-]+\.js$/);

    // File list: every file, a download link each.
    const rows = $('.files__list > li');
    expect(rows.length).toBe(4);
    for (const file of [...images, pdf]) {
      // One in the file list (the PDF viewer's toolbar has its own Download too).
      const link = $(`.files__list a[href="/api/files/${file.id}?mode=download"]`);
      expect(link.length).toBe(1);
      expect(link.attr('download')).toBe(file.name);
    }
    expect($('.files__list').text()).toContain('contract.pdf');

    // Footer.
    expect($('footer h2').text()).toBe('Connect with Mira Solberg');
    expect($('footer').text()).toContain("Have questions or want to work together? I'd love to hear from you.");
    expect($('footer a[href="mailto:mira@example.com"]').text().trim()).toBe('Get in touch');
    expect($('footer').text()).toContain('Powered by Dropsite');

    // Progress: 5 → 85 while deriving, 90 rendering, 100 written; never backwards.
    const values = reports.map((r) => r.progress);
    expect(values[0]).toBe(5);
    expect(values).toContain(85);
    expect(values).toContain(90);
    expect(values.at(-1)).toBe(100);
    expect([...values].sort((a, b) => a - b)).toEqual(values);

    // The HTML is the last write; the island bundles went up before it.
    expect(storage.putLog.at(-1)).toBe(result.htmlKey);
    const island = $('astro-island').attr('component-url')!;
    expect(storage.keys(TEMPLATE_ASSETS_PREFIX)).toContain(templateAssetKey(island.replace(/^\/_astro\//, '')));
  });

  it('ships only the PDF viewer island for a site with only a PDF, and no PDF.js until it runs', async () => {
    const { storage, builder, report } = setup();
    const pdf = await addFile(storage, 'brief.pdf', makePdf(2));
    const result = await builder.buildSite(makeInput(makeSite({ slug: 'pdf-only-site', theme: '' }), [pdf]), report);
    const $ = cheerio.load(storage.text(result.htmlKey));
    expect($('astro-island').length).toBe(1);
    expect($('astro-island').attr('component-url')).toMatch(/^\/_astro\/PdfViewer\.[\w-]+\.js$/);
    expect(storage.text(result.htmlKey)).not.toContain('pdf.worker');
    expect($('script[src]').length).toBe(0);
    expect($('a[download]').attr('href')).toBe(`/api/files/${pdf.id}?mode=download`);
    expect(result.derivedCount).toBe(1); // page count and first-page thumbnail
    // No explicit theme: follows the visitor's colour scheme.
    expect($('html').attr('data-theme')).toBeUndefined();
    expect($('meta[name="theme-color"]').length).toBe(2);
  });

  it('escapes user data everywhere', async () => {
    const { storage, builder, report } = setup();
    const evil = '"><script>alert(1)</script>';
    const image = await addFile(storage, `${evil}.jpg`, await makeImage(400, 300));
    const site = makeSite({
      slug: 'escape-test',
      title: '<script>alert(1)</script>',
      subLine: evil,
      tagLine: '<img src=x onerror=alert(1)>',
      description: evil,
      authorName: '<b>bold</b>',
      contactInfo: { email: 'javascript:alert(1)', website: '', instagram: '', twitter: '', linkedin: '', github: '' },
    });
    const result = await builder.buildSite(makeInput(site, [image]), report);
    const html = storage.text(result.htmlKey);
    const $ = cheerio.load(html);

    expect($('h1').text()).toBe('<script>alert(1)</script>');
    expect($('title').text()).toBe('<script>alert(1)</script>');
    expect($('.hero__sub').text()).toBe(evil);
    expect($('.hero__tag').text()).toBe('<img src=x onerror=alert(1)>');
    expect($('footer h2').text()).toBe('Connect with <b>bold</b>');
    expect($('meta[property="og:title"]').attr('content')).toBe('<script>alert(1)</script>');
    expect($('.sv-image img').attr('alt')).toBe(`${evil}.jpg`);
    // Nothing user-supplied became markup.
    $('script').each((_, el) => expect($(el).text()).not.toContain('alert(1)'));
    expect($('img[onerror]').length).toBe(0);
    expect($('b').length).toBe(0);
    // Outside quoted attribute values (where '<' is inert and '"' is escaped), no raw markup from the data.
    const outsideAttributes = html.replace(/="[^"]*"/g, '=""');
    expect(outsideAttributes).not.toContain('<script>alert(1)');
    expect(outsideAttributes).not.toContain('<img src=x');
    // Not a plain address: no mailto button.
    expect($('a[href^="mailto:"]').length).toBe(0);
    expect($('a[href^="javascript:"]').length).toBe(0);
  });

  it('does not derive again on a second build, and rebuilds byte-identical HTML', async () => {
    const { storage, builder, report } = setup();
    const images = await threeImages(storage);
    const input = makeInput(makeSite({ slug: 'rebuild-site' }), images);

    const first = await builder.buildSite(input, report);
    expect(first.derivedCount).toBe(3);
    const html = storage.text(first.htmlKey);

    const second = await builder.buildSite(input, report);
    expect(second.derivedCount).toBe(0);
    expect(second.derived).toEqual(first.derived);
    expect(storage.text(second.htmlKey)).toBe(html);

    // A fresh builder (new process) with the metadata saved on the rows: same again.
    const again = createSiteBuilder({ storage, siteOrigin: 'https://dropsite.test', log: recordingLogger() });
    const rows = images.map((f) => ({ ...f, metadata: first.derived[f.id]! }));
    const third = await again.buildSite(makeInput(input.site, rows), report);
    expect(third.derivedCount).toBe(0);
    expect(storage.text(third.htmlKey)).toBe(html);
  });

  it('writes the Brotli and gzip variants of the page before it, each with the ETag of its bytes', async () => {
    const { storage, builder, report } = setup();
    const images = await threeImages(storage);
    const site = makeSite({ slug: 'variant-site' });
    const result = await builder.buildSite(makeInput(site, images), report);
    const page = storage.objects.get(result.htmlKey)!;
    const br = storage.objects.get(siteHtmlVariantKey('variant-site', 'br'))!;
    const gz = storage.objects.get(siteHtmlVariantKey('variant-site', 'gzip'))!;
    expect(brotliDecompressSync(br.body).equals(page.body)).toBe(true);
    expect(gunzipSync(gz.body).equals(page.body)).toBe(true);
    expect(br.body.length).toBeLessThan(page.body.length / 3);
    for (const object of [page, br, gz]) {
      expect(object.etag).toBe(contentEtag(object.body));
      expect(object.contentType).toBe(SITE_HTML_CONTENT_TYPE);
    }
    expect(storage.putLog.at(-1)).toBe(result.htmlKey);
    expect(storage.putLog.indexOf(siteHtmlVariantKey('variant-site', 'br'))).toBeLessThan(storage.putLog.length - 1);
    // The result carries what was stored (for the edge's public copy, written without reading it back).
    for (const [coding, object] of [
      ['identity', page],
      ['br', br],
      ['gzip', gz],
    ] as const) {
      expect(Buffer.from(result.page.representations[coding].bytes).equals(object.body), coding).toBe(true);
      expect(result.page.representations[coding].etag).toBe(object.etag);
    }
    // Each representation carries the hashes of its inline scripts, the page's own.
    expect(result.page.scriptHashes.length).toBeGreaterThan(0);
    for (const object of [page, br, gz]) expect(object.metadata).toEqual({ [SCRIPT_HASHES_METADATA]: result.page.scriptHashes.join(' ') });

    // The same input: the same tags; other content: other tags.
    await builder.buildSite(makeInput(site, images), report);
    expect(storage.objects.get(result.htmlKey)!.etag).toBe(page.etag);
    await builder.buildSite(makeInput({ ...site, title: 'Another title' }, images), report);
    expect(storage.objects.get(result.htmlKey)!.etag).not.toBe(page.etag);
    expect(storage.objects.get(siteHtmlVariantKey('variant-site', 'br'))!.etag).not.toBe(br.etag);
  });

  it('writes none of a page’s objects again when a rebuild renders the same bytes, and all of them when the page changed', async () => {
    const { storage, builder, report } = setup();
    const images = await threeImages(storage);
    const site = makeSite({ slug: 'same-page' });
    const pageKeys = [siteHtmlVariantKey('same-page', 'br'), siteHtmlVariantKey('same-page', 'gzip'), siteHtmlKey('same-page')];
    const writesOf = () => storage.putLog.filter((key) => pageKeys.includes(key)).length;
    await builder.buildSite(makeInput(site, images), report);
    expect(writesOf()).toBe(3);
    const page = storage.text(siteHtmlKey('same-page'));
    await builder.buildSite(makeInput({ ...site, version: site.version + 1 }, images), report);
    expect(writesOf()).toBe(3);
    expect(storage.text(siteHtmlKey('same-page'))).toBe(page);
    storage.headLog.length = 0;
    await builder.buildSite(makeInput({ ...site, title: 'A new title' }, images), report);
    expect(writesOf()).toBe(6);
    // A page that changed has new variants: only the page is looked at before all three are written.
    expect(storage.headLog.filter((key) => pageKeys.includes(key))).toEqual([siteHtmlKey('same-page')]);
    expect(storage.text(siteHtmlKey('same-page'))).toContain('A new title');
    // A variant lost (or replaced by other bytes) is written again, though the page is the same.
    storage.objects.delete(siteHtmlVariantKey('same-page', 'gzip'));
    await builder.buildSite(makeInput({ ...site, title: 'A new title' }, images), report);
    expect(storage.putLog.at(-1)).toBe(siteHtmlVariantKey('same-page', 'gzip'));
    expect(gunzipSync(storage.objects.get(siteHtmlVariantKey('same-page', 'gzip'))!.body).toString('utf8')).toContain('A new title');
    // The same bytes stored without their script hashes (a page stored before they were kept with it) are written again.
    const stored = storage.objects.get(siteHtmlKey('same-page'))!;
    storage.objects.set(siteHtmlKey('same-page'), { ...stored, metadata: undefined });
    await builder.buildSite(makeInput({ ...site, title: 'A new title' }, images), report);
    expect(storage.putLog.at(-1)).toBe(siteHtmlKey('same-page'));
    expect(storage.objects.get(siteHtmlKey('same-page'))!.metadata).toEqual(stored.metadata);
  });

  it('keeps building when an image is corrupt', async () => {
    const { storage, builder, report, log } = setup();
    const good = await addFile(storage, 'good.jpg', await makeImage(600, 400));
    const bad = await addFile(storage, 'bad.jpg', Buffer.from('\xff\xd8\xff garbage'));
    const result = await builder.buildSite(makeInput(makeSite({ slug: 'corrupt-site' }), [good, bad]), report);

    expect(result.derived[bad.id]!.error).toEqual(expect.any(String));
    expect(result.derived[good.id]!.thumbnail).toBeDefined();
    expect(log.entries.some((e) => e.level === 'warn' && e.msg === 'file derivation failed')).toBe(true);
    const $ = cheerio.load(storage.text(result.htmlKey));
    // The broken image is only in the file list; the gallery shows the good one.
    expect($('.sv-image img').length).toBe(1);
    expect($('.files__list > li').length).toBe(2);
    expect($(`a[href="/api/files/${bad.id}?mode=download"]`).length).toBe(1);
  });

  it('derives shared content once across files and survives failing progress reports', async () => {
    const { storage, builder, log } = setup({ concurrency: 4 });
    const bytes = await makeImage(500, 500);
    const files = await Promise.all([addFile(storage, 'one.jpg', bytes), addFile(storage, 'two.jpg', bytes)]);
    const result = await builder.buildSite(makeInput(makeSite({ slug: 'dedupe-site' }), files), async () => {
      throw new Error('queue down');
    });
    expect(result.derivedCount).toBe(1);
    expect(storage.putLog.filter((k) => k === derivedKeys(files[0]!.sha256).thumbnail)).toHaveLength(1);
    expect(log.entries.some((e) => e.msg === 'build progress report failed')).toBe(true);
  });

  it('refuses unsafe slugs and builds after close', async () => {
    const { builder, report } = setup();
    await expect(builder.buildSite(makeInput(makeSite({ slug: '../etc' }), []), report)).rejects.toThrow(/Unsafe site slug/);
    await builder.close();
    await expect(builder.buildSite(makeInput(makeSite(), []), report)).rejects.toThrow(/closed/);
  });

  it('renders an empty site and a single-image site', async () => {
    const { storage, builder, report } = setup();
    const empty = await builder.buildSite(makeInput(makeSite({ slug: 'empty-site', authorName: '' }), []), report);
    const $empty = cheerio.load(storage.text(empty.htmlKey));
    expect($empty('.files__empty').length).toBe(1);
    expect($empty('footer h2').text()).toBe('Connect with Harbour Lights');

    const one = await addFile(storage, 'solo.jpg', await makeImage(2400, 1600));
    const single = await builder.buildSite(makeInput(makeSite({ slug: 'single-site' }), [one]), report);
    const $ = cheerio.load(storage.text(single.htmlKey));
    expect($('.sv-image img').attr('src')).toBe(`/api/files/${one.id}?mode=preview`);
    expect($('.sv-image img').attr('width')).toBe('2400');
    expect($('.sv-image img').attr('height')).toBe('1600');
    // The preview is the display copy: the original fitted into 1600 px.
    expect($('.sv-image img').attr('srcset')).toBe(`/api/files/${one.id}?mode=preview&size=300 300w, /api/files/${one.id}?mode=preview 1600w`);
    expect($('astro-island').length).toBe(1);
  });
});

describe('publishAssets', () => {
  it('uploads the island bundles once per template version', async () => {
    const { storage, builder } = setup();
    await builder.publishAssets();
    const assets = storage.keys(TEMPLATE_ASSETS_PREFIX);
    expect(assets.length).toBeGreaterThan(0);
    for (const key of assets) {
      const object = storage.objects.get(key)!;
      expect(object.cacheControl).toBe('public, max-age=31536000, immutable');
      if (key.endsWith('.js')) expect(object.contentType).toBe('text/javascript; charset=utf-8');
    }
    // Text bundles come with their variants, and every object with the ETag of its bytes.
    const bundle = assets.find((key) => key.endsWith('.js'))!.slice(TEMPLATE_ASSETS_PREFIX.length);
    const plain = storage.objects.get(templateAssetKey(bundle))!;
    expect(brotliDecompressSync(storage.objects.get(templateAssetVariantKey(bundle, 'br'))!.body).equals(plain.body)).toBe(true);
    expect(gunzipSync(storage.objects.get(templateAssetVariantKey(bundle, 'gzip'))!.body).equals(plain.body)).toBe(true);
    for (const key of assets) expect(storage.objects.get(key)!.etag, key).toBe(contentEtag(storage.objects.get(key)!.body));
    const marker = storage.keys('assets/.published-');
    expect(marker).toHaveLength(1);
    expect(storage.putLog.at(-1)).toBe(marker[0]);

    const puts = storage.putLog.length;
    await createSiteBuilder({ storage, siteOrigin: 'https://dropsite.test', log: recordingLogger() }).publishAssets();
    expect(storage.putLog.length).toBe(puts);
  });
});
