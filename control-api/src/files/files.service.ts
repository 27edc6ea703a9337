/** The files of a site as the file routes serve them: found by id, and only while the principal may see the site. */
import { isValidId, ZDerivedMetadataSchema, type TDerivedMetadata } from '@dropsite/shared';
import type { TAppDeps } from '../deps.ts';
import { AppError } from '../http/app-error.ts';
import type { TPrincipal } from '../access/principal.ts';
import { findFileById, type TFileWithProject } from '../projects/projects.repository.ts';
import { assertSiteOpen, resolveSiteAccess } from '../sites/site-access.ts';

/**
 * A file and its derived metadata (null before it is derived), when its site is open to the
 * principal; a file of a deleted, unknown or locked site is answered like an unknown file.
 */
export async function openServableFile(
  deps: Pick<TAppDeps, 'db' | 'clock' | 'keys'>,
  principal: TPrincipal,
  id: string,
): Promise<{ file: TFileWithProject; derived: TDerivedMetadata | null }> {
  if (!isValidId(id)) throw new AppError('not_found', 'File not found');
  const file = await findFileById(deps.db, id);
  if (!file) throw new AppError('not_found', 'File not found');
  assertSiteOpen(resolveSiteAccess(deps, principal, file.project), 'File not found');
  let json: unknown = null;
  try {
    json = JSON.parse(file.metadata);
  } catch {
    // not derived yet
  }
  const parsed = ZDerivedMetadataSchema.safeParse(json);
  return { file, derived: parsed.success ? parsed.data : null };
}
