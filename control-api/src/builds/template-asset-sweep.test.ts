import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { publishTemplateAssets } from '@dropsite/builder';
import {
  publicSiteHtmlKey,
  siteHtmlKey,
  siteHtmlVariantKey,
  templateAssetKey,
  templateAssetVariantKey,
  templateAssetsMarkerKey,
  templateAssetsUnreferencedKey,
} from '@dropsite/shared';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { createDiskStorage } from '../storage/disk-storage.ts';
import type { Storage } from '../storage/storage.ts';
import { buildUploadForm, makeJpeg, postUpload } from '@dropsite/testkit/control-api/fixtures';
import {
  assetNamesIn,
  createPageReferenceCache,
  localTemplateVersions,
  sweepTemplateAssets,
  sweepTemplateAssetsNow,
  type TTemplateAssetSweepDeps,
} from './template-asset-sweep.ts';

const HOUR = 3_600_000;
const GRACE = 24 * HOUR;
const silent = { info() {}, warn() {}, error() {} };

/** A built template's client folder (with the server folder publish-assets.ts checks for) holding these bundles. */
async function templateDir(root: string, name: string, bundles: Record<string, string>): Promise<string> {
  const clientDir = path.join(root, name, 'client');
  await mkdir(path.join(clientDir, '_astro'), { recursive: true });
  await mkdir(path.join(root, name, 'server'), { recursive: true });
  for (const [file, text] of Object.entries(bundles)) await writeFile(path.join(clientDir, '_astro', file), text);
  return clientDir;
}

/** Long enough for Brotli and gzip to make it smaller, so every bundle is stored with its variants. */
const bundle = (label: string) => `export const label = ${JSON.stringify(label)};\n${'console.log(label);\n'.repeat(200)}`;

const SHARED = { 'client.Sh4red01.js': bundle('client'), 'chunk.Sh4red02.js': bundle('chunk') };
const A = { ...SHARED, 'Gallery.Aaaa0001.js': bundle('gallery a'), 'Pdf.Aaaa0002.js': bundle('pdf a') };
const B = { ...SHARED, 'Gallery.Bbbb0001.js': bundle('gallery b'), 'Pdf.Bbbb0002.js': bundle('pdf b') };
const A_ONLY = ['Gallery.Aaaa0001.js', 'Pdf.Aaaa0002.js'];

/** A page as the template renders it: the hydration script and an island per viewer. */
function page(gallery: string): string {
  return `<!doctype html><html><head><script type="module" src="/_astro/client.Sh4red01.js"></script></head><body><astro-island component-url="/_astro/${gallery}" renderer-url="/_astro/client.Sh4red01.js"></astro-island></body></html>`;
}
const PAGE_A = page('Gallery.Aaaa0001.js');
const PAGE_B = page('Gallery.Bbbb0001.js');

async function putPage(storage: Storage, key: string, html: string): Promise<void> {
  await storage.put(key, key.endsWith('.br') ? brotliCompressSync(html) : html, { contentType: 'text/html; charset=utf-8' });
}

async function exists(storage: Storage, key: string): Promise<boolean> {
  return (await storage.head(key)) !== null;
}

/**
 * Waits until the storage stamps an object written now later than the one at `key` (S3 keeps times to
 * the second, a disk to its clock's tick): marker times tell which version is newest.
 */
async function untilStampedAfter(storage: Storage, key: string): Promise<void> {
  const probe = 'probes/stamp';
  const stamped = (await storage.head(key))!.modifiedAt;
  await vi.waitFor(
    async () => {
      await storage.put(probe, 'probe');
      expect((await storage.head(probe))!.modifiedAt).toBeGreaterThan(stamped);
    },
    { timeout: 5_000, interval: 20 },
  );
  await storage.delete(probe);
}

/** Every key of a version's own bundles: each bundle and its variants. */
function bundleKeys(files: readonly string[]): string[] {
  return files.flatMap((file) => [templateAssetKey(file), templateAssetVariantKey(file, 'br'), templateAssetVariantKey(file, 'gzip')]);
}

describe.each(['disk', 's3'] as const)('sweepTemplateAssets (%s storage)', (driver) => {
  let app: TTestApp;
  let root: string;
  let versionA: string;
  let versionB: string;
  let versionC: string;
  let dirA: string;
  let dirB: string;

  beforeAll(async () => {
    app = await startTestApp({ startWorker: false, storageDriver: driver });
    root = await mkdtemp(path.join(os.tmpdir(), 'dropsite-asset-sweep-'));
    dirA = await templateDir(root, 'a', A);
    dirB = await templateDir(root, 'b', B);
  });
  afterAll(async () => {
    await app?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('keeps an old version while a stored page refers to it, then removes its own bundles and marker once the grace period has passed', async () => {
    const storage = app.deps.storage;
    let now = Date.now();
    const deps: TTemplateAssetSweepDeps = { storage, log: silent, clock: { now: () => now } };
    const sweep = () => sweepTemplateAssets(deps, { graceMs: GRACE, pageCache: createPageReferenceCache() });

    versionA = (await publishTemplateAssets(storage, { clientDir: dirA })).markerKey.split('-').at(-1)!;
    for (const slug of ['harbour', 'meadow']) {
      await putPage(storage, siteHtmlVariantKey(slug, 'br'), PAGE_A);
      await putPage(storage, siteHtmlKey(slug), PAGE_A);
    }
    await putPage(storage, publicSiteHtmlKey('meadow'), PAGE_A);
    // Only one version: nothing to read or remove.
    expect(await sweep()).toMatchObject({ versions: 1, current: [versionA], pages: 0, removed: [] });

    // Marker times tell which version is newest.
    await untilStampedAfter(storage, templateAssetsMarkerKey(versionA));
    versionB = (await publishTemplateAssets(storage, { clientDir: dirB })).markerKey.split('-').at(-1)!;
    expect(versionB).not.toBe(versionA);
    // The rebuild has reached one site of two.
    await putPage(storage, siteHtmlVariantKey('harbour', 'br'), PAGE_B);
    await putPage(storage, siteHtmlKey('harbour'), PAGE_B);

    let result = await sweep();
    expect(result).toMatchObject({ versions: 2, current: [versionB], pages: 5, removed: [], waiting: [] });
    expect(result.referenced.sort()).toEqual([versionA, versionB].sort());

    // The site page is rebuilt, but its public copy (or a variant a build left) still shows version A.
    await putPage(storage, siteHtmlKey('meadow'), PAGE_B);
    now += 100 * HOUR;
    result = await sweep();
    expect(result.referenced.sort()).toEqual([versionA, versionB].sort());
    expect(result.removed).toEqual([]);
    await putPage(storage, siteHtmlVariantKey('meadow', 'br'), PAGE_B);
    await putPage(storage, publicSiteHtmlKey('meadow'), PAGE_B);

    // No page refers to A from now on: its grace period starts.
    result = await sweep();
    expect(result).toMatchObject({ referenced: [versionB], removed: [], waiting: [{ version: versionA, removableAt: now + GRACE }] });
    expect(await exists(storage, templateAssetsUnreferencedKey(versionA))).toBe(true);
    now += GRACE - 1;
    result = await sweep();
    expect(result.removed).toEqual([]);
    for (const key of [...bundleKeys(Object.keys(A)), templateAssetsMarkerKey(versionA)]) expect(await exists(storage, key), key).toBe(true);

    now += 1;
    result = await sweep();
    expect(result.removed).toEqual([{ version: versionA, files: 2, objects: 6 }]);
    for (const key of [...bundleKeys(A_ONLY), templateAssetsMarkerKey(versionA), templateAssetsUnreferencedKey(versionA)]) expect(await exists(storage, key), key).toBe(false);
    // The bundles B lists too, and all of B, stay.
    for (const key of [...bundleKeys(Object.keys(B)), templateAssetsMarkerKey(versionB)]) expect(await exists(storage, key), key).toBe(true);

    // Done: a later run finds one version and does nothing.
    expect(await sweep()).toMatchObject({ versions: 1, current: [versionB], removed: [], failed: [] });
  });

  it('finishes on the next run a removal that failed part-way, and removes the marker last', async () => {
    const storage = app.deps.storage;
    // Publish A again (its marker is gone, so all of it is stored anew), and then a version C after B.
    await untilStampedAfter(storage, templateAssetsMarkerKey(versionB));
    expect((await publishTemplateAssets(storage, { clientDir: dirA })).published).toBe(true);
    await untilStampedAfter(storage, templateAssetsMarkerKey(versionA));
    const dirC = await templateDir(root, 'c', { ...SHARED, 'Gallery.Cccc0001.js': bundle('gallery c') });
    versionC = (await publishTemplateAssets(storage, { clientDir: dirC })).markerKey.split('-').at(-1)!;
    for (const slug of ['harbour', 'meadow']) {
      for (const key of [siteHtmlKey(slug), siteHtmlVariantKey(slug, 'br')]) await putPage(storage, key, page('Gallery.Cccc0001.js'));
    }
    await putPage(storage, publicSiteHtmlKey('meadow'), page('Gallery.Cccc0001.js'));

    let now = Date.now();
    let failNext = true;
    const failing: Storage = {
      ...storage,
      async delete(key) {
        if (failNext && key === templateAssetKey('Pdf.Aaaa0002.js')) {
          failNext = false;
          throw new Error('storage unavailable');
        }
        return storage.delete(key);
      },
    };
    const deps: TTemplateAssetSweepDeps = { storage: failing, log: silent, clock: { now: () => now } };
    expect((await sweepTemplateAssets(deps, { graceMs: GRACE })).waiting.map((w) => w.version).sort()).toEqual([versionA, versionB].sort());
    now += GRACE;
    let result = await sweepTemplateAssets(deps, { graceMs: GRACE });
    expect(result.failed).toEqual([{ version: versionA, error: 'storage unavailable' }]);
    expect(result.removed).toEqual([{ version: versionB, files: 2, objects: 6 }]);
    // The marker of the half-removed version stays, so the next run goes on with it.
    expect(await exists(storage, templateAssetsMarkerKey(versionA))).toBe(true);
    expect(await exists(storage, templateAssetKey('Pdf.Aaaa0002.js'))).toBe(true);

    result = await sweepTemplateAssets(deps, { graceMs: GRACE });
    expect(result.failed).toEqual([]);
    expect(result.removed.map((r) => r.version)).toEqual([versionA]);
    for (const key of [...bundleKeys(A_ONLY), templateAssetsMarkerKey(versionA), templateAssetsUnreferencedKey(versionA)]) expect(await exists(storage, key), key).toBe(false);
    for (const key of [...bundleKeys(Object.keys(SHARED)), templateAssetsMarkerKey(versionC)]) expect(await exists(storage, key), key).toBe(true);
  });

  it('never removes the version this process builds with, and gives a version seen in use again its grace period anew', async () => {
    const storage = app.deps.storage;
    const pageC = page('Gallery.Cccc0001.js');
    await untilStampedAfter(storage, templateAssetsMarkerKey(versionC));
    expect((await publishTemplateAssets(storage, { clientDir: dirA })).published).toBe(true);
    for (const key of [siteHtmlKey('harbour'), siteHtmlVariantKey('harbour', 'br'), siteHtmlKey('meadow'), siteHtmlVariantKey('meadow', 'br'), publicSiteHtmlKey('meadow')]) {
      await putPage(storage, key, PAGE_A);
    }
    let now = Date.now();
    const deps: TTemplateAssetSweepDeps = { storage, log: silent, clock: { now: () => now } };
    // A is the newest version; C is older, used by no page, but this process builds with it.
    const keepC = { graceMs: GRACE, keepVersions: [versionC] };
    expect((await sweepTemplateAssets(deps, keepC)).current.sort()).toEqual([versionA, versionC].sort());
    now += 2 * GRACE;
    expect((await sweepTemplateAssets(deps, keepC)).removed).toEqual([]);
    expect(await exists(storage, templateAssetsMarkerKey(versionC))).toBe(true);

    // Without it, C is found unused; then a page refers to it again (an old builder still at work).
    expect((await sweepTemplateAssets(deps, { graceMs: GRACE })).waiting.map((w) => w.version)).toEqual([versionC]);
    await putPage(storage, siteHtmlKey('harbour'), pageC);
    now += 2 * GRACE;
    const result = await sweepTemplateAssets(deps, { graceMs: GRACE });
    expect(result).toMatchObject({ removed: [], waiting: [] });
    expect(result.referenced.sort()).toEqual([versionA, versionC].sort());
    expect(await exists(storage, templateAssetsUnreferencedKey(versionC))).toBe(false);
    // Once unused again, its grace period starts over from that run.
    await putPage(storage, siteHtmlKey('harbour'), PAGE_A);
    expect((await sweepTemplateAssets(deps, { graceMs: GRACE })).waiting).toEqual([{ version: versionC, removableAt: now + GRACE }]);
    expect(await exists(storage, templateAssetKey('Gallery.Cccc0001.js'))).toBe(true);
  });
});

describe('sweepTemplateAssetsNow with real builds', () => {
  let app: TTestApp;
  let root: string;
  let oldVersion: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'dropsite-asset-sweep-'));
    // An older template version, published before this API (and its builder) starts.
    const dataDir = path.join(root, 'data');
    const before = createDiskStorage(path.join(dataDir, 'storage'));
    oldVersion = (await publishTemplateAssets(before, { clientDir: await templateDir(root, 'old', A) })).markerKey.split('-').at(-1)!;
    await untilStampedAfter(before, templateAssetsMarkerKey(oldVersion));
    await before.close();
    app = await startTestApp({ dataDir, config: { edgePublicPages: true } });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('maps the pages a build writes to the template it built with, and sweeps an older version after the grace period', async () => {
    const storage = app.deps.storage;
    // A real upload: the build publishes this checkout's template (the newest version) and writes the page and its public copy.
    const { body } = await postUpload(app.url, buildUploadForm([{ name: 'first.jpg', type: 'image/jpeg', bytes: await makeJpeg(320, 240, 1) }], { title: 'Harbour' }));
    await app.deps.queue.whenIdle();
    const slug = String(body.slug);
    const html = (await (await fetch(`${app.url}/${slug}`, { headers: { 'accept-encoding': 'identity' } })).text()) ?? '';
    const names = assetNamesIn(html);
    expect(names.length).toBeGreaterThan(0);
    const [current] = await localTemplateVersions();

    let now = Date.now();
    const deps = { ...app.deps, clock: { now: () => now } };
    let result = await sweepTemplateAssetsNow(deps);
    expect(result).toMatchObject({ current: [current], referenced: [current], removed: [], waiting: [{ version: oldVersion }] });
    expect(result.pages).toBeGreaterThanOrEqual(3);
    now += app.deps.config.templateAssetsGraceMs;
    result = await sweepTemplateAssetsNow(deps);
    expect(result.removed).toEqual([{ version: oldVersion, files: 4, objects: 12 }]);
    // Every bundle the page references is still there, and so is the version it was built with.
    for (const name of names) expect(await exists(storage, templateAssetKey(name)), name).toBe(true);
    expect(await exists(storage, templateAssetsMarkerKey(current!))).toBe(true);
    expect(await exists(storage, templateAssetsMarkerKey(oldVersion))).toBe(false);
  });
});

describe('assetNamesIn', () => {
  it('finds the bundles a page references by URL, each once', () => {
    expect(assetNamesIn(PAGE_A)).toEqual(['Gallery.Aaaa0001.js', 'client.Sh4red01.js']);
    expect(assetNamesIn('<link rel="stylesheet" href="/_astro/index.Dd9e-x_Q.css"><img src="/_astro/fonts/inter.woff2?v=1">')).toEqual(['fonts/inter.woff2', 'index.Dd9e-x_Q.css']);
    expect(assetNamesIn('<p>/_astro/</p><a href="/_astro/../x">')).toEqual([]);
  });
});
