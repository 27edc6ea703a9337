/**
 * The site's link picture (siteOgImageKey), drawn only when what it shows changed: a marker next
 * to it (siteOgImageMarkerKey) holds the hash of the input it was drawn from, so a rebuild of an
 * unchanged site, in this process or another, draws nothing.
 */
import { createHash } from 'node:crypto';
import { siteOgImageKey, siteOgImageMarkerKey, type TDerivedMetadata } from '@dropsite/shared';
import type { TGate } from './limiter.ts';
import { OG_CONTENT_TYPE, renderOgImage, type TOgImageInput } from './og-image.ts';
import { fileKindOf } from './render-model.ts';
import type { BuilderStorage, TBuildFile, TBuildSite } from './types.ts';

/** Bumped when the Open Graph picture's design changes, so every site gets the new one. */
const OG_DESIGN_VERSION = 1;

export interface TOgImageCacheDeps {
  storage: BuilderStorage;
  /** Absolute origin of the public sites; the picture's URL is absolute, as link previews need. */
  siteOrigin: string;
  /** Drawing decodes a picture and rasterises: it takes a derivation slot like any other such work. */
  workGate: TGate;
}

/** What a site's link-picture marker holds: the hash of what the picture shows, and of its design. */
export function ogImageInputHash(input: TOgImageInput): string {
  return createHash('sha256')
    .update(JSON.stringify({ v: OG_DESIGN_VERSION, ...input }))
    .digest('hex');
}

/** Writes the site's link picture unless the stored one was made from the same input; answers its absolute URL. */
export async function writeSiteOgImage(deps: TOgImageCacheDeps, site: TBuildSite, files: TBuildFile[], derived: Record<string, TDerivedMetadata>): Promise<string> {
  const { storage } = deps;
  const input = ogImageInput(site, files, derived);
  const inputHash = ogImageInputHash(input);
  const markerKey = siteOgImageMarkerKey(site.slug);
  // The marker is written after the picture, so a marker with this input means the picture is there.
  if (!(await isSameOgInput(storage, markerKey, inputHash))) {
    const png = await deps.workGate(() => renderOgImage(storage, input));
    await storage.put(siteOgImageKey(site.slug), png, { contentType: OG_CONTENT_TYPE, cacheControl: 'public, max-age=3600' });
    await putOgImageMarker(storage, site.slug, inputHash);
  }
  return `${deps.siteOrigin.replace(/\/+$/, '')}/${encodeURIComponent(site.slug)}/og.png`;
}

/** What the picture shows: everything that goes into its hash. */
export function ogImageInput(site: TBuildSite, files: TBuildFile[], derived: Record<string, TDerivedMetadata>): TOgImageInput {
  return {
    title: site.title,
    authorName: site.authorName,
    theme: site.theme,
    fileCount: files.length,
    backgroundKey: ogBackgroundKey(files, derived),
  };
}

/** The first image's display copy (or else a video's poster) makes the background. */
function ogBackgroundKey(files: TBuildFile[], derived: Record<string, TDerivedMetadata>): string | null {
  const usable = (f: TBuildFile) => {
    const m = derived[f.id];
    return m && !m.error && m.display ? m.display.key : null;
  };
  for (const file of files) if (fileKindOf(file) === 'image' && usable(file)) return usable(file);
  for (const file of files) if (fileKindOf(file) === 'video' && usable(file)) return usable(file);
  return null;
}

/** The marker's metadata entry holding the input hash, so a rebuild compares it from a head, not by reading the marker. */
const MARKER_INPUT_HASH = 'input-hash';

/** Records that the site's link picture was drawn from the input with this hash (after the picture itself is stored). */
export async function putOgImageMarker(storage: BuilderStorage, slug: string, inputHash: string): Promise<void> {
  await storage.put(siteOgImageMarkerKey(slug), JSON.stringify({ inputHash }), { contentType: 'application/json', metadata: { [MARKER_INPUT_HASH]: inputHash } });
}

async function isSameOgInput(storage: BuilderStorage, markerKey: string, inputHash: string): Promise<boolean> {
  try {
    const info = await storage.head(markerKey);
    if (info === null) return false;
    const kept = info.metadata?.[MARKER_INPUT_HASH];
    if (kept !== undefined) return kept === inputHash;
    // A marker written before the hash was kept in its metadata: its body holds it.
    const { body } = await storage.get(markerKey); // gone since the head: not the same
    let text = '';
    for await (const chunk of body) text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && (parsed as { inputHash?: unknown }).inputHash === inputHash;
  } catch {
    return false;
  }
}
