/** The files of a site as the file routes serve them: found by id, and only while the principal may see the site. */
import { isValidId, ZDerivedMetadataSchema, type TDerivedMetadata } from '@dropsite/shared';
import type { TFilesDeps } from './files.deps.ts';
import { AppError } from '../http/app-error.ts';
import type { TPrincipal } from '../access/principal.ts';
import { findFileById, type TFileWithSite } from '../site-records/site-records.repository.ts';
import { cachedRead } from '../db/read-cache.ts';
import { assertSiteOpen, resolveSiteAccess } from '../sites/site-access.ts';

interface TServableFile {
  file: TFileWithSite;
  derived: TDerivedMetadata | null;
}

/**
 * A file and its derived metadata (null before it is derived), when its site is open to the
 * principal; a file of a deleted, unknown or locked site is answered like an unknown file.
 * The file, its site's access fields and its parsed metadata come from the read cache while neither
 * the file's row nor its site's changed (a gallery asks for the same thumbnails again and again;
 * another site's publish adds rows of its own); access is decided on every request. The answer is
 * shared: callers only read it.
 */
export async function openServableFile(deps: Pick<TFilesDeps, 'db' | 'clock' | 'keys' | 'caches'>, principal: TPrincipal, id: string): Promise<TServableFile> {
  if (!isValidId(id)) throw new AppError('not_found', 'File not found');
  const found = await cachedRead(
    deps.db,
    deps.caches.reads,
    `servable-file\u0000${id}`,
    ['files', 'projects'],
    async (): Promise<TServableFile | null> => {
      const file = await findFileById(deps.db, id);
      return file && { file, derived: derivedMetadataOf(file.metadata) };
    },
    (servable) =>
      servable && [
        { table: 'files', id: servable.file.id },
        { table: 'projects', id: servable.file.site.id },
      ],
  );
  if (!found) throw new AppError('not_found', 'File not found');
  assertSiteOpen(resolveSiteAccess(deps, principal, found.file.site), 'File not found');
  return found;
}

/** A file's derived metadata (thumbnail, display copy, ...), or null before it was derived. */
export function derivedMetadataOf(text: string): TDerivedMetadata | null {
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not derived yet
  }
  const parsed = ZDerivedMetadataSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}
