/** Whether a site (and so each of its files) may be served right now. */
import type { Request } from 'express';
import type { TAppDeps } from '../deps.ts';
import type { Clock } from '../deps.ts';
import { AppError } from '../http/app-error.ts';
import { cookieName, readCookie, UNLOCK_COOKIE_PREFIX } from '../access/cookies.ts';
import { isUnlockTokenValid } from '../access/unlock-token.ts';
import { readVisitorId } from '../visitors/visitor-identity.ts';

export interface TSiteAccessFields {
  /** The site (project) id: unlocks are bound to it. */
  id: string;
  deleted_at: number | null;
  expires_at: number | null;
  password_hash: string | null;
  /** Bumped on every password change or removal; part of every unlock. */
  password_version: number;
}

export type TSiteAccess = 'open' | 'missing' | 'expired' | 'locked';

/** What the site's state alone allows: a protected site is 'locked' here, whoever asks. */
export function checkSiteAccess(site: Omit<TSiteAccessFields, 'id' | 'password_version'> | null | undefined, clock: Clock): TSiteAccess {
  if (!site || site.deleted_at !== null) return 'missing';
  // Expired at the instant itself, not a millisecond later.
  if (site.expires_at !== null && clock.now() >= site.expires_at) return 'expired';
  if (site.password_hash) return 'locked';
  return 'open';
}

/** Name of a site's unlock cookie (one per site, so unlocking one never touches another). */
export function unlockCookieBase(siteId: string): string {
  return `${UNLOCK_COOKIE_PREFIX}${siteId}`;
}

/** Whether the request carries a valid unlock of this site for its visitor. */
export function hasValidUnlock(deps: Pick<TAppDeps, 'config' | 'clock' | 'keys' | 'caches'>, req: Request, site: TSiteAccessFields): boolean {
  const keys = deps.keys?.cookie;
  if (!keys) return false;
  const visitorId = readVisitorId(deps, req);
  if (!visitorId) return false;
  const token = readCookie(req, cookieName(deps.config, unlockCookieBase(site.id)));
  return isUnlockTokenValid(keys, site, visitorId, token, deps.clock.now());
}

/**
 * The access a request has to a site: the one place every route that serves anything of a
 * site (HTML, files, thumbnails, downloads, engagement) asks. A password-protected site is
 * 'open' only with this site's unlock cookie for this visitor and the current password version.
 * Answers that refuse (locked, expired) are marked `private, no-store` here, so no cache keeps them.
 */
export function resolveSiteAccess(deps: Pick<TAppDeps, 'config' | 'clock' | 'keys' | 'caches'>, req: Request, site: TSiteAccessFields | null | undefined): TSiteAccess {
  let access = checkSiteAccess(site, deps.clock);
  if (access === 'locked' && site && hasValidUnlock(deps, req, site)) access = 'open';
  if (access === 'locked' || access === 'expired') req.res?.set('Cache-Control', 'private, no-store');
  return access;
}

/**
 * Cache-Control for content of an open site: a protected site's content may only be kept by
 * the visitor's own browser and must be revalidated (the unlock is checked again), never by a
 * shared cache or CDN.
 */
export function siteCacheControl(site: Pick<TSiteAccessFields, 'password_hash'>, publicValue: string): string {
  return site.password_hash ? 'private, no-cache' : publicValue;
}

/**
 * Throws the API error for anything but an open site. `missingMessage` is what the route says of
 * a thing that does not exist, so a deleted site's file is answered exactly like an unknown one.
 */
export function assertSiteOpen(access: TSiteAccess, missingMessage = 'Not found'): void {
  if (access === 'missing') throw new AppError('not_found', missingMessage);
  if (access === 'expired') throw new AppError('gone', 'This site has expired');
  if (access === 'locked') throw new AppError('password_required', 'This site is password protected');
}
