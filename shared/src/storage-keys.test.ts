import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  PUBLIC_SITES_PREFIX,
  SITES_PREFIX,
  TEMPLATE_ASSETS_MARKER_PREFIX,
  TEMPLATE_ASSETS_PREFIX,
  TEMPLATE_ASSETS_UNREFERENCED_PREFIX,
  UPLOADS_PREFIX,
  derivedKeys,
  derivedPdfKey,
  derivedPrefix,
  projectUploadsPrefix,
  publicSiteHtmlKey,
  publicSiteHtmlVariantKey,
  publicSiteKeys,
  publicSitePrefix,
  siteHtmlKey,
  siteHtmlVariantKey,
  siteOgImageKey,
  siteOgImageMarkerKey,
  sitePrefix,
  sitePreviewImageKey,
  sitePreviewMarkerKey,
  storedPageCoding,
  templateAssetKey,
  templateAssetVariantKey,
  templateAssetsMarkerKey,
  templateAssetsMarkerVersion,
  templateAssetsUnreferencedKey,
  templateAssetsUnreferencedVersion,
  uploadKey,
} from './storage-keys.ts';

const PROJECT = 'Zq3-x_9aBcDeFgHiJkLmNo';
const FILE = 'fIlE-iD_0123456789abcd';
const SHA = 'ab'.repeat(32);

/**
 * Objects already stored are found by these exact keys: a change here strands every site and
 * upload written before it, so this test changes only together with a migration of the data.
 */
describe('the storage layout', () => {
  it('keeps uploads under uploads/{projectId}/{fileId}', () => {
    expect(UPLOADS_PREFIX).toBe('uploads/');
    expect(uploadKey(PROJECT, FILE)).toBe(`uploads/${PROJECT}/${FILE}`);
    expect(projectUploadsPrefix(PROJECT)).toBe(`uploads/${PROJECT}/`);
    expect(uploadKey(PROJECT, FILE).startsWith(projectUploadsPrefix(PROJECT))).toBe(true);
  });

  it('keeps derived copies under derived/{sha256}/, by lower-case content hash', () => {
    expect(derivedKeys(SHA)).toEqual({
      thumbnail: `derived/${SHA}/thumb-300.webp`,
      display: `derived/${SHA}/display.webp`,
      meta: `derived/${SHA}/meta.json`,
    });
    expect(derivedPdfKey(SHA)).toBe(`derived/${SHA}/document.pdf`);
    expect(derivedPrefix(SHA)).toBe(`derived/${SHA}/`);
    expect(derivedKeys(SHA.toUpperCase())).toEqual(derivedKeys(SHA));
    expect(derivedPdfKey(SHA.toUpperCase())).toBe(derivedPdfKey(SHA));
  });

  it('keeps a site and its sidecars under sites/{slug}/', () => {
    expect(sitePrefix('harbour-lights')).toBe('sites/harbour-lights/');
    expect(siteHtmlKey('harbour-lights')).toBe('sites/harbour-lights/index.html');
    expect(siteHtmlVariantKey('harbour-lights', 'br')).toBe('sites/harbour-lights/index.html.br');
    expect(siteHtmlVariantKey('harbour-lights', 'gzip')).toBe('sites/harbour-lights/index.html.gz');
    expect(siteOgImageKey('harbour-lights')).toBe('sites/harbour-lights/og.png');
    expect(siteOgImageMarkerKey('harbour-lights')).toBe('sites/harbour-lights/og.png.json');
    expect(sitePreviewImageKey('photo-gallery', 400, 'avif')).toBe('sites/photo-gallery/preview-400.avif');
    expect(sitePreviewImageKey('photo-gallery', 800, 'jpg')).toBe('sites/photo-gallery/preview-800.jpg');
    expect(sitePreviewMarkerKey('photo-gallery')).toBe('sites/photo-gallery/preview.json');
  });

  it('keeps the template bundles under assets/_astro/, with a marker per published version', () => {
    expect(TEMPLATE_ASSETS_PREFIX).toBe('assets/_astro/');
    expect(templateAssetKey('PdfViewer.CRaq7btm.js')).toBe('assets/_astro/PdfViewer.CRaq7btm.js');
    expect(templateAssetKey('fonts/inter.woff2')).toBe('assets/_astro/fonts/inter.woff2');
    expect(templateAssetVariantKey('PdfViewer.CRaq7btm.js', 'br')).toBe('assets/_astro/PdfViewer.CRaq7btm.js.br');
    expect(templateAssetVariantKey('PdfViewer.CRaq7btm.js', 'gzip')).toBe('assets/_astro/PdfViewer.CRaq7btm.js.gz');
    expect(templateAssetsMarkerKey('0123456789abcdef0123')).toBe('assets/.published-0123456789abcdef0123');
    expect(TEMPLATE_ASSETS_MARKER_PREFIX).toBe('assets/.published-');
    expect(templateAssetsMarkerVersion('assets/.published-0123456789abcdef0123')).toBe('0123456789abcdef0123');
    expect(templateAssetsUnreferencedKey('0123456789abcdef0123')).toBe('assets/.unreferenced-0123456789abcdef0123');
    expect(TEMPLATE_ASSETS_UNREFERENCED_PREFIX).toBe('assets/.unreferenced-');
    expect(templateAssetsUnreferencedVersion('assets/.unreferenced-0123456789abcdef0123')).toBe('0123456789abcdef0123');
    for (const key of ['assets/_astro/a.js', 'assets/.published-', 'assets/.published-a/b', 'assets/.unreferenced-x']) {
      expect(templateAssetsMarkerVersion(key), key).toBeNull();
    }
    expect(templateAssetsUnreferencedVersion('assets/.published-0123')).toBeNull();
  });

  it('tells the stored pages (a site page, its public copy, their variants) from every other key', () => {
    expect(SITES_PREFIX).toBe('sites/');
    expect(storedPageCoding(siteHtmlKey('harbour-lights'))).toBe('identity');
    expect(storedPageCoding(siteHtmlVariantKey('harbour-lights', 'br'))).toBe('br');
    expect(storedPageCoding(publicSiteHtmlVariantKey('harbour-lights', 'gzip'))).toBe('gzip');
    expect(storedPageCoding(publicSiteHtmlKey('harbour-lights'))).toBe('identity');
    for (const key of ['sites/harbour-lights/csp.json', siteOgImageKey('harbour-lights'), 'sites/a/b/index.html', 'sites/a/index.html.zst', templateAssetKey('index.html')]) {
      expect(storedPageCoding(key), key).toBeNull();
    }
  });

  it('keeps the public copy of a site page under public/{slug}/, where deploy/edge.conf reads it', () => {
    expect(PUBLIC_SITES_PREFIX).toBe('public/');
    expect(publicSitePrefix('harbour-lights')).toBe('public/harbour-lights/');
    expect(publicSiteHtmlKey('harbour-lights')).toBe('public/harbour-lights/index.html');
    expect(publicSiteHtmlVariantKey('harbour-lights', 'br')).toBe('public/harbour-lights/index.html.br');
    expect(publicSiteHtmlVariantKey('harbour-lights', 'gzip')).toBe('public/harbour-lights/index.html.gz');
    expect(publicSiteKeys('harbour-lights')).toEqual(['public/harbour-lights/index.html.br', 'public/harbour-lights/index.html.gz', 'public/harbour-lights/index.html']);
  });

  it('puts every kind of object in its own top-level folder, so one prefix never lists another', () => {
    const tops = [uploadKey(PROJECT, FILE), derivedKeys(SHA).meta, siteHtmlKey('harbour-lights'), templateAssetKey('a.js'), publicSiteHtmlKey('harbour-lights')].map(
      (k) => k.split('/')[0],
    );
    expect(new Set(tops)).toEqual(new Set(['uploads', 'derived', 'sites', 'assets', 'public']));
  });
});

describe('keys from unsafe parts', () => {
  const HOSTILE = ['', '.', '..', '../etc', 'a/b', 'a\\b', '/abs', 'x\0y', 'a b', 'a%2F..', '..%2F', 'é', `a${'b'.repeat(200)}`];

  it('refuses a slug that could leave sites/', () => {
    for (const slug of [...HOSTILE, '-leading-dash', 'dot.ted']) {
      for (const make of [
        sitePrefix,
        siteHtmlKey,
        siteOgImageKey,
        siteOgImageMarkerKey,
        sitePreviewMarkerKey,
        (s: string) => sitePreviewImageKey(s, 400, 'webp'),
        publicSitePrefix,
        publicSiteHtmlKey,
        (s: string) => publicSiteHtmlVariantKey(s, 'br'),
      ]) {
        expect(() => make(slug), `${make.name}(${JSON.stringify(slug)})`).toThrow(/Unsafe site slug/);
      }
    }
  });

  it('refuses a project or file id that could leave uploads/', () => {
    for (const id of [...HOSTILE, 'dot.ted']) {
      expect(() => uploadKey(id, FILE), `project ${JSON.stringify(id)}`).toThrow(/Unsafe id/);
      expect(() => uploadKey(PROJECT, id), `file ${JSON.stringify(id)}`).toThrow(/Unsafe id/);
      expect(() => projectUploadsPrefix(id), `prefix ${JSON.stringify(id)}`).toThrow(/Unsafe id/);
    }
  });

  it('refuses anything but a hex content hash under derived/', () => {
    for (const sha of [...HOSTILE, 'g'.repeat(64), 'abc', `${SHA}/..`, 'a'.repeat(129)]) {
      for (const make of [derivedKeys, derivedPdfKey, derivedPrefix]) {
        expect(() => make(sha), `${make.name}(${JSON.stringify(sha)})`).toThrow(/Not a content hash/);
      }
    }
  });

  it('refuses a template asset path that could leave assets/_astro/', () => {
    for (const name of ['', '.', '..', '../index.html', 'a/../../b', '/abs.js', 'a//b.js', '.hidden', 'a/.hidden', 'a\\b.js', 'x\0.js', 'a b.js']) {
      expect(() => templateAssetKey(name), JSON.stringify(name)).toThrow(/Unsafe template asset path/);
    }
    for (const hash of ['', '../x', 'a/b', 'a.b']) expect(() => templateAssetsMarkerKey(hash), JSON.stringify(hash)).toThrow(/Unsafe template version/);
  });

  it('accepts every slug and id the server issues', () => {
    expect(siteHtmlKey('k7m2p9q4xa')).toBe('sites/k7m2p9q4xa/index.html');
    expect(uploadKey('AAAAAAAAAAAAAAAAAAAAAA', '-_-_-_-_-_-_-_-_-_-_-_')).toBe('uploads/AAAAAAAAAAAAAAAAAAAAAA/-_-_-_-_-_-_-_-_-_-_-_');
  });
});

describe('where keys are spelled', () => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const FOLDERS = ['control-api/src', 'builder/src', 'bench', 'scripts/src', 'site-template/src', 'dashboard/src', 'shared/src'];
  /** A quote or backtick opening a key of the layout: `uploads/${…}`, 'sites/', "derived/…", `assets/_astro/…`. */
  const SPELLED_KEY = /['"`](?:uploads|derived|sites|assets)\/(?!\{)/;

  function sources(dir: string): string[] {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return [];
    }
    return entries.flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sources(full);
      return /\.(?:ts|tsx|mts|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
    });
  }

  it('spells no storage key outside this module (tests may, to pin what they check)', () => {
    const offenders: string[] = [];
    for (const file of FOLDERS.flatMap((folder) => sources(path.join(root, folder)))) {
      if (file.endsWith(`${path.sep}storage-keys.ts`)) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (SPELLED_KEY.test(line)) offenders.push(`${path.relative(root, file)}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });
});
