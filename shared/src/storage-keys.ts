/**
 * The storage layout: the one place an object key is spelled. Objects already stored are found by
 * these keys, so changing one strands existing data (storage-keys.test.ts pins them).
 *
 *   uploads/{projectId}/{fileId}          a delivery file as uploaded
 *   derived/{sha256}/thumb-300.webp       its 300 px thumbnail (image, PDF page, video poster)
 *   derived/{sha256}/display.webp         its display copy (image, video poster)
 *   derived/{sha256}/document.pdf         an office document converted to PDF
 *   derived/{sha256}/meta.json            what was derived; written last, marks a finished entry
 *   sites/{slug}/index.html               the built site page
 *   sites/{slug}/index.html.br, .gz       its Brotli and gzip variants, written before it (each keeps its
 *                                         inline scripts' hashes in its metadata; a csp.json beside them
 *                                         is what pages stored them in before, unread, removed with the site)
 *   sites/{slug}/og.png, og.png.json      its link picture, and the input it was made from
 *   sites/{slug}/preview-{w}.{format}     a demo site's card picture (its link picture made small)
 *   sites/{slug}/preview.json             the link picture the card pictures were made from
 *   assets/_astro/{path}                  the template's island bundles, content-hashed
 *   assets/_astro/{path}.br, .gz          their Brotli and gzip variants (text assets only)
 *   assets/.published-{version}           marker: that template version's bundles are all stored
 *   assets/.unreferenced-{version}        when the asset sweep first found no stored page using that version
 *   public/{slug}/index.html              a copy of the page of a site public right now, read by the edge
 *   public/{slug}/index.html.br, .gz      its variants; each carries the headers the edge sends in metadata
 *
 * Every part is checked before it becomes a key: a slug, id, hash or path that could climb out of
 * its folder throws instead.
 */
import { THUMBNAIL_SIZE } from './constants.ts';
import { demoPreviewFileName, type TDemoPreviewFormat, type TDemoPreviewWidth } from './templates.ts';

/** Builder-made slugs and the API's slug rule both fit; no dot, slash or other separator does. */
const SAFE_SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
/** Row ids are url-safe random text; no dot or slash. */
const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;
const CONTENT_HASH = /^[a-f0-9]{16,128}$/i;
/** One folder or file name of a built template asset: word characters, dots and dashes, never leading with a dot. */
const SAFE_ASSET_SEGMENT = /^[\w-][\w.-]*$/;
const SAFE_VERSION = /^[A-Za-z0-9_-]{1,128}$/;

function siteSlug(slug: string): string {
  if (!SAFE_SLUG.test(slug)) throw new Error(`Unsafe site slug: ${JSON.stringify(slug)}`);
  return slug;
}

function rowId(id: string): string {
  if (!SAFE_ID.test(id)) throw new Error(`Unsafe id in a storage key: ${JSON.stringify(id)}`);
  return id;
}

function contentHash(sha256: string): string {
  if (!CONTENT_HASH.test(sha256)) throw new Error(`Not a content hash: ${JSON.stringify(sha256)}`);
  return sha256.toLowerCase();
}

/** A key never written: readiness checks ask the store for it, and an answer of 'not found' means the store is reachable. */
export const READINESS_PROBE_KEY = '.readiness-probe';

/** Prefix of every uploaded file (the orphaned-multipart sweep lists under it). */
export const UPLOADS_PREFIX = 'uploads/';

/** Where a project's uploaded files live, for deleting them together. */
export function projectUploadsPrefix(projectId: string): string {
  return `${UPLOADS_PREFIX}${rowId(projectId)}/`;
}

/** A delivery file's bytes as uploaded. */
export function uploadKey(projectId: string, fileId: string): string {
  return `${projectUploadsPrefix(projectId)}${rowId(fileId)}`;
}

/** Prefix of everything derived from uploaded bytes: content-addressed, never rewritten with other bytes. */
const DERIVED_PREFIX = 'derived/';

/** Whether a key is a derived object's (content-addressed: what it holds depends only on the hash in it). */
export function isDerivedKey(key: string): boolean {
  return key.startsWith(DERIVED_PREFIX);
}

/** Everything derived from one content hash, for deleting it together. */
export function derivedPrefix(sha256: string): string {
  return `${DERIVED_PREFIX}${contentHash(sha256)}/`;
}

/** The thumbnail, display copy and metadata derived from one content hash (shared by every file with those bytes). */
export function derivedKeys(sha256: string): { thumbnail: string; display: string; meta: string } {
  const base = derivedPrefix(sha256);
  return { thumbnail: `${base}thumb-${THUMBNAIL_SIZE}.webp`, display: `${base}display.webp`, meta: `${base}meta.json` };
}

/** The PDF an office document with this content hash was converted to. */
export function derivedPdfKey(sha256: string): string {
  return `${derivedPrefix(sha256)}document.pdf`;
}

/** Prefix of every site's stored page and sidecars (the template asset sweep lists its pages). */
export const SITES_PREFIX = 'sites/';

/** Everything stored for one site (page and sidecars), for deleting it together. */
export function sitePrefix(slug: string): string {
  return `${SITES_PREFIX}${siteSlug(slug)}/`;
}

/** A site's built page, written last by a build so a rebuild swaps it in one put. */
export function siteHtmlKey(slug: string): string {
  return `${sitePrefix(slug)}index.html`;
}

/** The content codings a page or asset is stored in besides identity, as HTTP names them. */
export const STORED_CODINGS = ['br', 'gzip'] as const;
export type TStoredCoding = (typeof STORED_CODINGS)[number];

/** The file name suffix of each stored coding: the one nginx's gzip_static and brotli_static look for. */
const CODING_SUFFIX: Record<TStoredCoding, string> = { br: '.br', gzip: '.gz' };

/** The site page compressed in one coding, next to the page itself (written before it). */
export function siteHtmlVariantKey(slug: string, coding: TStoredCoding): string {
  return `${siteHtmlKey(slug)}${CODING_SUFFIX[coding]}`;
}

/** The site's link picture (Open Graph), served at /{slug}/og.png. */
export function siteOgImageKey(slug: string): string {
  return `${sitePrefix(slug)}og.png`;
}

/** The hash of the input the stored link picture was made from, written after the picture. */
export function siteOgImageMarkerKey(slug: string): string {
  return `${siteOgImageKey(slug)}.json`;
}

/** A demo site's card picture at one width and format, served at /{slug}/preview-{width}.{format}. */
export function sitePreviewImageKey(slug: string, width: TDemoPreviewWidth, format: TDemoPreviewFormat): string {
  return `${sitePrefix(slug)}${demoPreviewFileName(width, format)}`;
}

/** The hash of the link picture the stored card pictures were made from, written after them. */
export function sitePreviewMarkerKey(slug: string): string {
  return `${sitePrefix(slug)}preview.json`;
}

/** Prefix of the template's island bundles, served at /_astro/{path}. */
export const TEMPLATE_ASSETS_PREFIX = 'assets/_astro/';

/** One template bundle, by its path under the template's _astro/ folder. */
export function templateAssetKey(assetPath: string): string {
  if (!assetPath.split('/').every((segment) => SAFE_ASSET_SEGMENT.test(segment))) {
    throw new Error(`Unsafe template asset path: ${JSON.stringify(assetPath)}`);
  }
  return `${TEMPLATE_ASSETS_PREFIX}${assetPath}`;
}

/** A template bundle compressed in one coding, next to the bundle itself. */
export function templateAssetVariantKey(assetPath: string, coding: TStoredCoding): string {
  return `${templateAssetKey(assetPath)}${CODING_SUFFIX[coding]}`;
}

/** Prefix of the markers of the published template versions (the asset sweep lists them). */
export const TEMPLATE_ASSETS_MARKER_PREFIX = 'assets/.published-';

function templateVersion(version: string): string {
  if (!SAFE_VERSION.test(version)) throw new Error(`Unsafe template version: ${JSON.stringify(version)}`);
  return version;
}

/** Written after a template version's bundles are all stored, so later publishes of it do nothing. */
export function templateAssetsMarkerKey(version: string): string {
  return `${TEMPLATE_ASSETS_MARKER_PREFIX}${templateVersion(version)}`;
}

/** The template version a marker key names, or null for any other key. */
export function templateAssetsMarkerVersion(key: string): string | null {
  if (!key.startsWith(TEMPLATE_ASSETS_MARKER_PREFIX)) return null;
  const version = key.slice(TEMPLATE_ASSETS_MARKER_PREFIX.length);
  return SAFE_VERSION.test(version) ? version : null;
}

/** Prefix of the asset sweep's notes of when it first found a version no stored page used. */
export const TEMPLATE_ASSETS_UNREFERENCED_PREFIX = 'assets/.unreferenced-';

/** The asset sweep's note that no stored page used this template version (its grace period runs from then). */
export function templateAssetsUnreferencedKey(version: string): string {
  return `${TEMPLATE_ASSETS_UNREFERENCED_PREFIX}${templateVersion(version)}`;
}

/** The template version an unreferenced note names, or null for any other key. */
export function templateAssetsUnreferencedVersion(key: string): string | null {
  if (!key.startsWith(TEMPLATE_ASSETS_UNREFERENCED_PREFIX)) return null;
  const version = key.slice(TEMPLATE_ASSETS_UNREFERENCED_PREFIX.length);
  return SAFE_VERSION.test(version) ? version : null;
}

/** Prefix of the public copies: the only part of the bucket anyone may read without a signature (the edge reads it). */
export const PUBLIC_SITES_PREFIX = 'public/';

/** Everything of one site's public copy. */
export function publicSitePrefix(slug: string): string {
  return `${PUBLIC_SITES_PREFIX}${siteSlug(slug)}/`;
}

/** The public copy of a site's page, which the edge serves at /{slug} while it exists. */
export function publicSiteHtmlKey(slug: string): string {
  return `${publicSitePrefix(slug)}index.html`;
}

/** The public copy's variant in one coding (written before the identity copy, removed with it). */
export function publicSiteHtmlVariantKey(slug: string, coding: TStoredCoding): string {
  return `${publicSiteHtmlKey(slug)}${CODING_SUFFIX[coding]}`;
}

const STORED_PAGE = /^(?:sites|public)\/[A-Za-z0-9][A-Za-z0-9_-]{0,127}\/index\.html(\.br|\.gz)?$/;

/**
 * Whether a key is a stored site page (sites/{slug}/index.html or its public copy under public/{slug}/,
 * or a variant of either), and in which coding: what the template asset sweep reads.
 */
export function storedPageCoding(key: string): 'identity' | TStoredCoding | null {
  const match = STORED_PAGE.exec(key);
  if (!match) return null;
  if (match[1] === undefined) return 'identity';
  return STORED_CODINGS.find((coding) => CODING_SUFFIX[coding] === match[1]) ?? null;
}

/** Every key of a site's public copy: the variants first, then the page. */
export function publicSiteKeys(slug: string): string[] {
  return [...STORED_CODINGS.map((coding) => publicSiteHtmlVariantKey(slug, coding)), publicSiteHtmlKey(slug)];
}
