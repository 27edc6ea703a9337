/** What a ZIP of a site holds: the site as the principal may see it, and its files (all, or a selection). */
import { isValidId } from '@dropsite/shared';
import type { TDownloadsDeps } from './downloads.deps.ts';
import type { TFileRow, TSiteRow } from '../db/tables.ts';
import { AppError } from '../http/app-error.ts';
import type { TPrincipal } from '../access/principal.ts';
import { listFilesBySite } from '../site-records/site-records.repository.ts';
import { assertSiteOpen } from '../sites/site-access.ts';
import { openSiteBySlug } from '../sites/sites.service.ts';

export const NOTHING_TO_DOWNLOAD = 'No files are currently available for download. Please contact the site owner.';

type TDeps = Pick<TDownloadsDeps, 'db' | 'clock' | 'keys'>;

/** The site of this slug when it is open to the principal: 404, 410 or 401 otherwise. */
export async function openDownloadableSite(deps: TDeps, principal: TPrincipal, slug: string): Promise<TSiteRow> {
  const { site, access } = await openSiteBySlug(deps, principal, slug);
  assertSiteOpen(access);
  if (!site) throw new AppError('not_found', 'Not found');
  return site;
}

/**
 * The site's files in the ZIP: every one, or the selection in the order asked (another site's file is
 * answered like an unknown one); `isWholeSite` when they are all of the site's files.
 */
export async function filesForZip(deps: TDeps, site: TSiteRow, selection: readonly string[] | undefined): Promise<{ files: TFileRow[]; isWholeSite: boolean }> {
  const all = await listFilesBySite(deps.db, site.id);
  let files = all;
  if (selection !== undefined) {
    const wanted = [...new Set(selection)];
    if (wanted.length === 0) throw new AppError('bad_request', 'No files were selected');
    const byId = new Map(files.map((f) => [f.id, f]));
    if (wanted.some((id) => !isValidId(id) || !byId.has(id))) throw new AppError('not_found', 'File not found');
    files = wanted.map((id) => byId.get(id)!);
  }
  if (files.length === 0) throw new AppError('not_found', NOTHING_TO_DOWNLOAD);
  return { files, isWholeSite: files.length === all.length };
}
