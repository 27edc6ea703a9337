/** Where the dashboard finds a file's 300 px thumbnail. */
import { z } from 'zod';

const ZThumbnailPresenceSchema = z.object({ thumbnail: z.object({ key: z.string() }).optional(), error: z.string().optional() });

/**
 * The file route's URL of the thumbnail derived for a file; null when none was (not yet derived, or
 * it failed). A replaced file's URL names its version, as the site's URLs do: file answers are cached
 * for long. Whether the site serves it to this caller is the caller's check.
 */
export function thumbnailUrlOf(file: { id: string; metadata: string; version: number | null }): string | null {
  if (!hasThumbnail(file.metadata)) return null;
  const version = file.version !== null && file.version > 1 ? `&v=${file.version}` : '';
  return `/api/files/${file.id}?mode=preview&size=300${version}`;
}

/**
 * The owner's URL of the same thumbnail (GET /api/projects/{id}/files/{fileId}/thumbnail): it answers
 * only the signed-in owner, so the dashboard shows the covers of its locked and expired sites while
 * the public file route keeps refusing them to everyone else.
 */
export function ownerThumbnailUrlOf(siteId: string, file: { id: string; metadata: string; version: number | null }): string | null {
  if (!hasThumbnail(file.metadata)) return null;
  const version = file.version !== null && file.version > 1 ? `?v=${file.version}` : '';
  return `/api/projects/${siteId}/files/${file.id}/thumbnail${version}`;
}

function hasThumbnail(metadata: string): boolean {
  // Nothing derived yet: no need to read it (a list of a thousand sites reads a thousand of these).
  if (metadata === '{}') return false;
  let json: unknown = null;
  try {
    json = JSON.parse(metadata);
  } catch {
    return false;
  }
  const derived = ZThumbnailPresenceSchema.safeParse(json);
  return derived.success && derived.data.error === undefined && derived.data.thumbnail !== undefined;
}
