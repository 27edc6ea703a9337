/**
 * A page's gzip variant, made from parts: most of a site page (about 100 of 150 KB) is the
 * template's inline CSS, the same in every page of a template version. Its deflate blocks are made
 * once and reused; only the rest of each page is compressed. Each part ends with a full flush, which
 * byte-aligns the output and keeps later blocks from referring to earlier bytes, so parts compressed
 * apart are one valid deflate stream when put side by side (RFC 1951), wrapped as one gzip member
 * with the CRC-32 and length of the whole page (RFC 1952). Any gzip reader reads it; it is a few
 * percent larger than compressing the page in one go, at about a third of the CPU.
 *
 * (Brotli has no such seam that Node exposes: its encoder can only continue another's stream with
 * BROTLI_PARAM_STREAM_OFFSET, which Node's zlib refuses. Brotli variants are compressed whole.)
 */
import { constants as zlibConstants, crc32, deflateRaw, deflateRawSync } from 'node:zlib';
import { promisify } from 'node:util';

/** Inline style elements at least this long are the template's CSS, worth compressing once. */
const SHARED_MIN_CHARS = 8 * 1024;
const STYLE_ELEMENT = /<style\b[^>]*>[\s\S]*?<\/style\s*>/gi;
/** Compressed shared parts kept per thread (one or two per template version). */
const CACHE_ENTRIES = 8;

/** No file name, no time (so the same page gives the same bytes), maximum-compression flag off, Unix. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]);

const deflateRawAsync = promisify(deflateRaw);

export interface TPageParts {
  /** The page's bytes, whole. */
  body: Buffer;
  /** The same bytes in parts; a part with `shared` text is the same in many pages. */
  parts: Array<{ bytes: Buffer; shared: string | null }>;
}

/** Splits a page at its long inline style elements (and encodes it). */
export function splitPage(html: string): TPageParts {
  const parts: TPageParts['parts'] = [];
  let at = 0;
  for (const match of html.matchAll(STYLE_ELEMENT)) {
    if (match[0].length < SHARED_MIN_CHARS) continue;
    if (match.index > at) parts.push({ bytes: Buffer.from(html.slice(at, match.index), 'utf8'), shared: null });
    parts.push({ bytes: Buffer.from(match[0], 'utf8'), shared: match[0] });
    at = match.index + match[0].length;
  }
  if (at < html.length || parts.length === 0) parts.push({ bytes: Buffer.from(html.slice(at), 'utf8'), shared: null });
  return { body: parts.length === 1 ? parts[0]!.bytes : Buffer.concat(parts.map((part) => part.bytes)), parts };
}

/** By level, then by the part's text (a lookup hashes the text once; no key is built per page). */
const cache = new Map<number, Map<string, Buffer>>();

function cachedDeflate(text: string, bytes: Buffer, level: number): Buffer {
  let byText = cache.get(level);
  if (!byText) {
    byText = new Map();
    cache.set(level, byText);
  }
  let deflated = byText.get(text);
  if (deflated) {
    byText.delete(text); // most recently used last
  } else {
    deflated = deflateRawSync(bytes, { level, finishFlush: zlibConstants.Z_FULL_FLUSH });
    if (byText.size >= CACHE_ENTRIES) byText.delete(byText.keys().next().value!);
  }
  byText.set(text, deflated);
  return deflated;
}

/**
 * The gzip variant of a split page. 'sync' deflates on the calling thread (a render thread);
 * 'async' in libuv's pool. The shared parts' blocks come from this thread's cache either way.
 */
export async function gzipPage(page: TPageParts, level: number, mode: 'sync' | 'async'): Promise<Buffer> {
  const last = page.parts.length - 1;
  const blocks = await Promise.all(
    page.parts.map((part, index) => {
      if (part.shared !== null && index < last) return cachedDeflate(part.shared, part.bytes, level);
      const options = { level, finishFlush: index === last ? zlibConstants.Z_FINISH : zlibConstants.Z_FULL_FLUSH };
      return mode === 'sync' ? deflateRawSync(part.bytes, options) : deflateRawAsync(part.bytes, options);
    }),
  );
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(page.body), 0);
  trailer.writeUInt32LE(page.body.length % 2 ** 32, 4);
  return Buffer.concat([GZIP_HEADER, ...blocks, trailer]);
}
