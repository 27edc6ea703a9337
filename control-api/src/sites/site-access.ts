/** Whether a site (and so each of its files) may be served right now. */
import type { Clock } from '../clock.ts';
import type { TSitesDeps } from './sites.deps.ts';
import { AppError } from '../http/app-error.ts';
import type { TPrincipal } from '../access/principal.ts';
import { isUnlockTokenValid } from '../access/unlock-token.ts';

export interface TSiteAccessFields {
  /** The site's id: unlocks are bound to it. */
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

type TAccessDeps = Pick<TSitesDeps, 'clock' | 'keys'>;

/** Whether the principal carries a valid unlock of this site for its visitor. */
export function hasValidUnlock(deps: TAccessDeps, principal: TPrincipal, site: TSiteAccessFields): boolean {
  const keys = deps.keys?.cookie;
  if (!keys || principal.visitorId === undefined) return false;
  return isUnlockTokenValid(keys, site, principal.visitorId, principal.unlockTokenFor(site.id), deps.clock.now());
}

/**
 * The access a principal has to a site: the one place every route that serves anything of a
 * site (HTML, files, thumbnails, downloads, engagement) asks. A password-protected site is
 * 'open' only with this site's unlock cookie for this visitor and the current password version.
 * Answers that refuse (locked, expired) must not be kept by a cache: assertSiteOpen's errors say
 * `private, no-store`, and a route answering a refusal itself sends REFUSAL_CACHE_CONTROL.
 */
export function resolveSiteAccess(deps: TAccessDeps, principal: TPrincipal, site: TSiteAccessFields | null | undefined): TSiteAccess {
  const access = checkSiteAccess(site, deps.clock);
  return access === 'locked' && site && hasValidUnlock(deps, principal, site) ? 'open' : access;
}

/** Headers every site page is sent with besides its CSP (by the API, and by the edge from its public copy's metadata: edge/public-page.ts). */
export const SITE_PAGE_SECURITY_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'strict-origin-when-cross-origin' } as const;

/** Cache-Control of a public page: any cache may keep it but must ask again each time (its ETag makes that a 304). */
export const SITE_PAGE_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

/** Cache-Control of an answer that refuses a site (locked, expired): only for this browser, never stored. */
export const REFUSAL_CACHE_CONTROL = 'private, no-store';

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
  const headers = { 'Cache-Control': REFUSAL_CACHE_CONTROL };
  if (access === 'expired') throw new AppError('gone', 'This site has expired', { headers });
  if (access === 'locked') throw new AppError('password_required', 'This site is password protected', { headers });
}
