/**
 * Compression done once, at build time, so nothing serving a page or an asset compresses per
 * request: a site page's Brotli and gzip variants (written by build-site.ts next to the page), the
 * template's bundles (publish-assets.ts) and the dashboard's and the template's built files
 * (`precompressDirectory`, run at the end of their builds). Every stored representation gets a
 * strong entity tag: a hash of its own bytes.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { type BrotliOptions, brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { TStoredCoding } from '@dropsite/shared';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export interface TCompressionLevels {
  brotliQuality: number;
  gzipLevel: number;
}

/**
 * A page is compressed at every build, so at levels that cost a few milliseconds for a 140 KB page
 * (Brotli 5 is within 1 % of 6-9 on HTML at a tenth of the time of 9); shared assets once per
 * template or dashboard version, so at the smallest size (Brotli 11 takes a third of a second on a
 * 260 KB bundle and saves 9 %).
 */
export const PAGE_COMPRESSION: TCompressionLevels = { brotliQuality: 5, gzipLevel: 6 };
export const ASSET_COMPRESSION: TCompressionLevels = { brotliQuality: 11, gzipLevel: 9 };

/** The file name suffix a coding's variant gets next to its file (as nginx's gzip_static and brotli_static expect). */
export const VARIANT_SUFFIX: Record<TStoredCoding, string> = { br: '.br', gzip: '.gz' };

/** Files worth compressing, by extension: text and WebAssembly (images and fonts are compressed already). */
const COMPRESSIBLE_EXTENSIONS = new Set(['.js', '.mjs', '.css', '.html', '.json', '.map', '.svg', '.txt', '.xml', '.wasm', '.webmanifest']);

export function isCompressibleFile(file: string): boolean {
  return COMPRESSIBLE_EXTENSIONS.has(path.extname(file).toLowerCase());
}

/** Whether a file name is a stored variant of another (`x.js.br`, `x.js.gz`), not a file of its own. */
export function isVariantFile(file: string): boolean {
  return Object.values(VARIANT_SUFFIX).some((suffix) => file.endsWith(suffix));
}

/** The strong entity tag of some bytes: 128 bits of their SHA-256, base64url (what TPutOptions.etag takes). */
export function contentEtag(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('base64url').slice(0, 22);
}

/** Brotli's options at these levels for `size` bytes. */
export function brotliOptions(levels: TCompressionLevels, size: number): BrotliOptions {
  return { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: levels.brotliQuality, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: size } };
}

/** The Brotli and gzip variants of some bytes (compressed in the thread pool, off the event loop). */
export async function compressVariants(bytes: Uint8Array, levels: TCompressionLevels): Promise<Record<TStoredCoding, Buffer>> {
  const [br, gz] = await Promise.all([brotli(bytes, brotliOptions(levels, bytes.byteLength)), gzipAsync(bytes, { level: levels.gzipLevel })]);
  return { br, gzip: gz };
}

/**
 * Writes `file.br` and `file.gz` next to every compressible file under `dir` (recursively) that
 * they make smaller; answers how many files got variants. Run on freshly built output.
 */
export async function precompressDirectory(dir: string, levels: TCompressionLevels = ASSET_COMPRESSION): Promise<number> {
  const files = (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && isCompressibleFile(entry.name) && !isVariantFile(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
  let compressed = 0;
  for (const file of files) {
    const bytes = await readFile(file);
    const variants = await compressVariants(bytes, levels);
    let wrote = false;
    for (const coding of Object.keys(VARIANT_SUFFIX) as TStoredCoding[]) {
      if (variants[coding].byteLength >= bytes.byteLength) continue; // a tiny file: identity is smaller
      await writeFile(`${file}${VARIANT_SUFFIX[coding]}`, variants[coding]);
      wrote = true;
    }
    if (wrote) compressed++;
  }
  return compressed;
}
