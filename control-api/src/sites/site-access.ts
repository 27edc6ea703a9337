/** Whether a site (and so each of its files) may be served right now. */
import type { Request } from 'express';
import type { Clock } from '../deps.ts';
import { AppError } from '../http/app-error.ts';

export interface TSiteAccessFields {
  deleted_at: number | null;
  expires_at: number | null;
  password_hash: string | null;
}

export type TSiteAccess = 'open' | 'missing' | 'expired' | 'locked';

export function checkSiteAccess(site: TSiteAccessFields | null | undefined, clock: Clock): TSiteAccess {
  if (!site || site.deleted_at !== null) return 'missing';
  // Expired at the instant itself, not a millisecond later.
  if (site.expires_at !== null && clock.now() >= site.expires_at) return 'expired';
  if (site.password_hash) return 'locked';
  return 'open';
}

/**
 * The access a request has to a site: the one place every route that serves anything of a
 * site (HTML, files, thumbnails, downloads, engagement) asks. Unlock cookies are checked here.
 */
export function resolveSiteAccess(deps: { clock: Clock }, _req: Request, site: TSiteAccessFields | null | undefined): TSiteAccess {
  return checkSiteAccess(site, deps.clock);
}

/** Throws the API error for anything but an open site. */
export function assertSiteOpen(access: TSiteAccess): void {
  if (access === 'missing') throw new AppError('not_found', 'Not found');
  if (access === 'expired') throw new AppError('gone', 'This site has expired');
  if (access === 'locked') throw new AppError('password_required', 'This site is password protected');
}
