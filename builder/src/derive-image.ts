/**
 * Image derivation with sharp: dimensions and format, a 300 px wide WebP thumbnail and a WebP
 * display copy (long edge at most 1600 px), EXIF orientation applied. Results are cached by
 * content hash (derivedKeys in @dropsite/shared's storage-keys.ts); meta.json is written last and marks a complete entry.
 * Failures never throw: they come back as metadata with `error` set.
 */
import type { Readable } from 'node:stream';
import type { Sharp } from 'sharp';
import { loadSharp } from './sharp.ts';
import { DISPLAY_IMAGE_SIZE, THUMBNAIL_SIZE, ZDerivedMetadataSchema, derivedKeys, fileTypeOf, getExtension, type TDerivedMetadata } from '@dropsite/shared';
import type { BuilderStorage, TBuildFile } from './types.ts';

export const DERIVED_CONTENT_TYPE = 'image/webp';
/** WebP encoder effort: 2 is within a few per cent of 4 in size at about 60 % of the time. */
const WEBP_EFFORT = 2;
/** Derived objects are addressed by content hash, so they never change once written. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export interface TDeriveImageOptions {
  /** Refuse images with more pixels than this (pixel-flood guard). Default 100 megapixels. */
  maxInputPixels?: number;
  /** Refuse originals larger than this many bytes (sharp holds a streamed input in memory). Default 256 MiB. */
  maxInputBytes?: number;
  /** Give up on one pipeline after this many seconds. Default 120. */
  timeoutSeconds?: number;
}

export interface TDeriveImageOutcome {
  metadata: TDerivedMetadata;
  /** True when the image was processed in this call (a cache miss), false when the cache answered. */
  derived: boolean;
}

const DEFAULTS = { maxInputPixels: 100_000_000, maxInputBytes: 256 * 1024 * 1024, timeoutSeconds: 120 } as const;

/** True for files the builder rasterises: the catalogue's raster formats only (file-types.ts), never SVG. */
export function isDerivableImage(file: Pick<TBuildFile, 'name' | 'type'>): boolean {
  const ext = getExtension(file.name);
  const mime = file.type.toLowerCase();
  if (ext === 'svg' || mime.includes('svg')) return false;
  if (ext) return fileTypeOf(file.name)?.derivation === 'image';
  return mime.startsWith('image/');
}

/** The cached derivation for a file's content, from its row or from derived/{sha}/meta.json; null on a miss. */
export async function readCachedDerivation(storage: BuilderStorage, file: Pick<TBuildFile, 'sha256' | 'metadata'>): Promise<TDerivedMetadata | null> {
  const row = file.metadata;
  if (row && row.sha256 === file.sha256 && row.thumbnail && !row.error) return row;
  const key = derivedKeys(file.sha256).meta;
  if (!(await storage.head(key))) return null;
  try {
    const { body } = await storage.get(key);
    const parsed = ZDerivedMetadataSchema.safeParse(JSON.parse((await readAll(body)).toString('utf8')));
    return parsed.success && parsed.data.sha256 === file.sha256 && parsed.data.thumbnail ? parsed.data : null;
  } catch {
    return null; // an unreadable cache entry is a miss: derive again and overwrite it
  }
}

/**
 * Derives one image (or answers from the cache). Streams the original from storage into sharp,
 * writes thumbnail and display copy, then meta.json. Never throws.
 */
export async function deriveImage(
  storage: BuilderStorage,
  file: Pick<TBuildFile, 'storageKey' | 'sha256' | 'name' | 'type' | 'size' | 'metadata'>,
  options: TDeriveImageOptions = {},
): Promise<TDeriveImageOutcome> {
  const base: TDerivedMetadata = { sha256: file.sha256, kind: 'image' };
  try {
    const cached = await readCachedDerivation(storage, file);
    if (cached) return { metadata: cached, derived: false };
  } catch {
    // storage trouble while looking at the cache: try the work itself, which reports its own error
  }
  try {
    const metadata = await processImage(storage, file, { ...DEFAULTS, ...options });
    const keys = derivedKeys(file.sha256);
    await storage.put(keys.meta, JSON.stringify(metadata), { contentType: 'application/json', cacheControl: IMMUTABLE_CACHE_CONTROL });
    return { metadata, derived: true };
  } catch (error) {
    return { metadata: { ...base, error: describeError(error) }, derived: true };
  }
}

async function processImage(storage: BuilderStorage, file: Pick<TBuildFile, 'storageKey' | 'sha256' | 'size'>, options: Required<TDeriveImageOptions>): Promise<TDerivedMetadata> {
  if (file.size > options.maxInputBytes) throw new Error(`Image is too large to preview (${file.size} bytes)`);
  const keys = derivedKeys(file.sha256);
  const { body } = await storage.get(file.storageKey);
  // sharp would hold a streamed input in memory anyway; having the bytes first lets them be checked before any decoder sees them.
  const input = await readAll(body, options.maxInputBytes);

  // Rasterised by content, never by name: SVG (librsvg), PDF and anything else under an
  // image's name stays a plain download. The magic bytes decide before libvips is called,
  // and the format libvips then reports must be on the same list.
  if (!sniffRasterFormat(input)) throw new Error(NOT_A_RASTER_IMAGE);
  const sharp = await loadSharp();
  const source = sharp(input, { limitInputPixels: options.maxInputPixels, failOn: 'error', sequentialRead: true });
  const meta = await source.metadata();
  if (!meta.format || !RASTER_FORMATS.has(meta.format)) throw new Error(NOT_A_RASTER_IMAGE);

  // One decode: the original is shrunk on load straight to the display size, and the
  // thumbnail is made from that copy, not from the original again (about 40 % less work).
  const decoded = await source
    .rotate() // EXIF orientation
    .resize({ width: DISPLAY_IMAGE_SIZE, height: DISPLAY_IMAGE_SIZE, fit: 'inside', withoutEnlargement: true })
    .timeout({ seconds: options.timeoutSeconds })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (!width || !height) throw new Error('Image has no dimensions');
  const raw = { raw: { width: decoded.info.width, height: decoded.info.height, channels: decoded.info.channels } };
  const encode = (image: Sharp, quality: number) => image.webp({ quality, effort: WEBP_EFFORT }).timeout({ seconds: options.timeoutSeconds }).toBuffer({ resolveWithObject: true });
  const [display, thumbnail] = await Promise.all([
    encode(sharp(decoded.data, raw), 82),
    encode(sharp(decoded.data, raw).resize({ width: THUMBNAIL_SIZE, withoutEnlargement: true }), 78),
  ]);

  const put = { contentType: DERIVED_CONTENT_TYPE, cacheControl: IMMUTABLE_CACHE_CONTROL };
  await storage.put(keys.thumbnail, thumbnail.data, put);
  await storage.put(keys.display, display.data, put);
  return {
    sha256: file.sha256,
    kind: 'image',
    width,
    height,
    ...(meta.format ? { format: meta.format } : {}),
    thumbnail: { key: keys.thumbnail, width: thumbnail.info.width, height: thumbnail.info.height, contentType: DERIVED_CONTENT_TYPE },
    display: { key: keys.display, width: display.info.width, height: display.info.height, contentType: DERIVED_CONTENT_TYPE },
  };
}

async function readAll(stream: Readable, maxBytes = Number.POSITIVE_INFINITY): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    total += bytes.length;
    if (total > maxBytes) {
      stream.destroy();
      throw new Error(`Image is too large to preview (more than ${maxBytes} bytes)`);
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

export const NOT_A_RASTER_IMAGE = 'Not a supported image format: this file is offered as a download.';

/** The raster formats the builder decodes, as sharp's metadata names them (AVIF and HEIC are both 'heif'). */
const RASTER_FORMATS: ReadonlySet<string> = new Set(['jpeg', 'png', 'webp', 'gif', 'tiff', 'heif']);
/** ISO-BMFF brands of AVIF and HEIC/HEIF images. */
const HEIF_BRANDS = new Set(['avif', 'avis', 'heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);

/** The allowed raster format the bytes begin with, or null (SVG, PDF, text, anything else). */
export function sniffRasterFormat(bytes: Buffer): string | null {
  const ascii = (start: number, end: number) => bytes.subarray(start, end).toString('latin1');
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'gif';
  if (ascii(0, 4) === 'II*\0' || ascii(0, 4) === 'MM\0*') return 'tiff';
  if (ascii(4, 8) === 'ftyp' && HEIF_BRANDS.has(ascii(8, 12))) return 'heif';
  return null;
}

function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.slice(0, 300) || 'Image could not be processed';
}
