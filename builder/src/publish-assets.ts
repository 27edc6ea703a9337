/**
 * Uploads the template's island bundles (dist/client/_astro/*) to assets/_astro/ once per
 * template version, each text bundle with its Brotli and gzip variants (the ones the template's
 * build wrote next to it, else compressed here) and every object with a strong ETag of its bytes.
 * The version is the hash of the asset manifest (paths and content hashes, and the layout of what
 * is stored); a marker object assets/.published-<hash> is written last and makes later calls no-ops.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { STORED_CODINGS, templateAssetKey, templateAssetVariantKey, templateAssetsMarkerKey } from '@dropsite/shared';
import type { BuilderStorage } from './types.ts';
import { templatePaths } from './render.ts';
import { IMMUTABLE_CACHE_CONTROL } from './derive-image.ts';
import { PAGE_COMPRESSION, VARIANT_SUFFIX, compressVariants, contentEtag, isCompressibleFile, isVariantFile } from './precompress.ts';

/**
 * What a published version stores besides its bundles; part of the version's hash, so a template
 * published before variants and ETags were stored is published again, with them.
 */
const STORED_LAYOUT = 'variants-br-gzip,etag';

export interface TPublishAssetsResult {
  /** False when the marker showed this version was already published. */
  published: boolean;
  markerKey: string;
  files: number;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

export function assetContentType(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

export interface TAssetManifest {
  /** Paths relative to _astro/, sorted, with the sha256 of each file. */
  files: { path: string; sha256: string }[];
  hash: string;
}

/** Lists and hashes the built assets. An empty manifest when the template has no client assets. */
export async function readAssetManifest(clientDir = templatePaths().clientDir): Promise<TAssetManifest> {
  const astroDir = path.join(clientDir, '_astro');
  const files: TAssetManifest['files'] = [];
  if (existsSync(astroDir)) {
    const names = (await readdir(astroDir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile() && !isVariantFile(entry.name))
      .map((entry) => path.relative(astroDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
      .sort();
    for (const name of names) {
      files.push({
        path: name,
        sha256: createHash('sha256')
          .update(await readFile(path.join(astroDir, name)))
          .digest('hex'),
      });
    }
  }
  const hash = createHash('sha256')
    .update(`${STORED_LAYOUT}\n${files.map((f) => `${f.path} ${f.sha256}\n`).join('')}`)
    .digest('hex')
    .slice(0, 20);
  return { files, hash };
}

/** The variants the template's build wrote next to a bundle, or, when it wrote none, compressed now. */
async function builtVariants(source: string, bytes: Buffer): Promise<Partial<Record<(typeof STORED_CODINGS)[number], Buffer>>> {
  const built = await Promise.all(STORED_CODINGS.map((coding) => readFile(`${source}${VARIANT_SUFFIX[coding]}`).catch(() => undefined)));
  if (built.some((variant) => variant !== undefined)) return Object.fromEntries(STORED_CODINGS.map((coding, i) => [coding, built[i]]));
  return compressVariants(bytes, PAGE_COMPRESSION);
}

export async function publishTemplateAssets(storage: BuilderStorage, options: { clientDir?: string } = {}): Promise<TPublishAssetsResult> {
  const clientDir = options.clientDir ?? templatePaths().clientDir;
  if (!existsSync(path.join(clientDir, '..', 'server'))) {
    throw new Error(`The site template is not built (${clientDir} is missing). Run npm run build first (npm run build -w @dropsite/site-template).`);
  }
  const manifest = await readAssetManifest(clientDir);
  const markerKey = templateAssetsMarkerKey(manifest.hash);
  if (await storage.head(markerKey)) return { published: false, markerKey, files: manifest.files.length };

  for (const file of manifest.files) {
    const source = path.join(clientDir, '_astro', file.path);
    const bytes = await readFile(source);
    const options = { contentType: assetContentType(file.path), cacheControl: IMMUTABLE_CACHE_CONTROL };
    if (isCompressibleFile(file.path)) {
      const variants = await builtVariants(source, bytes);
      await Promise.all(
        STORED_CODINGS.flatMap((coding) => {
          const variant = variants[coding];
          // A variant no smaller than the bundle is not stored; the bundle is sent as it is.
          if (!variant || variant.byteLength >= bytes.byteLength) return [];
          return [storage.put(templateAssetVariantKey(file.path, coding), variant, { ...options, etag: contentEtag(variant) })];
        }),
      );
    }
    await storage.put(templateAssetKey(file.path), bytes, { ...options, etag: contentEtag(bytes) });
  }
  await storage.put(markerKey, JSON.stringify(manifest), { contentType: 'application/json; charset=utf-8', cacheControl: 'no-cache' });
  return { published: true, markerKey, files: manifest.files.length };
}
