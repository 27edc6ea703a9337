/**
 * The demo sites' card pictures (DEMO_PREVIEW_* in shared/src/templates.ts) for the template
 * gallery and the landing page: each demo's link picture (og.png, 1200x630 and most of a megabyte)
 * made small, at each width in AVIF, WebP and JPEG, so those pages fetch kilobytes instead of every
 * demo's full link picture. Made from the picture the builder drew, so a card shows what the demo's
 * link shows; made again whenever that picture differs from the one a marker says they came from
 * (a rebuild, a new design of either), and left alone otherwise.
 */
import { buffer } from 'node:stream/consumers';
import { createHash } from 'node:crypto';
import sharp, { type Sharp } from 'sharp';
import {
  DEMO_PREVIEW_CONTENT_TYPES,
  DEMO_PREVIEW_FORMATS,
  DEMO_PREVIEW_WIDTHS,
  demoPreviewHeight,
  siteOgImageKey,
  sitePreviewImageKey,
  sitePreviewMarkerKey,
  type TDemoPreviewFormat,
} from '@dropsite/shared';
import type { Storage } from '@dropsite/control-api';

/** Bumped when the sizes or encodings change, so every demo gets new card pictures. */
const PREVIEW_VERSION = 1;

/** Small and sharp enough for a card: the title stays crisp, the photograph shows no blocks. */
function encode(image: Sharp, format: TDemoPreviewFormat): Sharp {
  if (format === 'avif') return image.avif({ quality: 55, effort: 4 });
  if (format === 'webp') return image.webp({ quality: 78, effort: 4 });
  return image.jpeg({ quality: 80, mozjpeg: true });
}

async function readAll(storage: Storage, key: string): Promise<Buffer | null> {
  try {
    const { body } = await storage.get(key);
    return await buffer(body);
  } catch {
    return null; // missing
  }
}

/**
 * Brings a built demo's card pictures to its link picture: 'made' when they were (re)made,
 * 'current' when the stored ones came from this picture, 'no-link-picture' when the demo has none.
 */
export async function writeDemoPreviews(storage: Storage, slug: string): Promise<'made' | 'current' | 'no-link-picture'> {
  const linkPicture = await readAll(storage, siteOgImageKey(slug));
  if (!linkPicture) return 'no-link-picture';
  const source = createHash('sha256').update(linkPicture).digest('hex');
  const markerKey = sitePreviewMarkerKey(slug);
  const marker = await readAll(storage, markerKey);
  if (marker && isMarkerOf(marker, source)) return 'current';
  for (const width of DEMO_PREVIEW_WIDTHS) {
    for (const format of DEMO_PREVIEW_FORMATS) {
      const bytes = await encode(sharp(linkPicture).resize(width, demoPreviewHeight(width), { fit: 'cover' }), format).toBuffer();
      await storage.put(sitePreviewImageKey(slug, width, format), bytes, { contentType: DEMO_PREVIEW_CONTENT_TYPES[format] });
    }
  }
  // Written last: a marker naming this picture means every card picture of it is stored.
  await storage.put(markerKey, JSON.stringify({ version: PREVIEW_VERSION, source }), { contentType: 'application/json' });
  return 'made';
}

function isMarkerOf(marker: Buffer, source: string): boolean {
  try {
    const parsed: unknown = JSON.parse(marker.toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && 'version' in parsed && 'source' in parsed && parsed.version === PREVIEW_VERSION && parsed.source === source;
  } catch {
    return false;
  }
}
