/** Giving the request's visitor an id: the visitor cookie issued (or renewed) when a call needs one. */
import type { RequestHandler, Response } from 'express';
import type { TAccessDeps } from './access.deps.ts';
import { newId } from '../db/ids.ts';
import { AppError } from '../http/app-error.ts';
import { setCookie, VISITOR_COOKIE } from './cookies.ts';
import { principalOf, updatePrincipal } from './principal.ts';
import { signVisitorId, VISITOR_MAX_AGE_MS, VISITOR_RENEW_AFTER_MS } from './visitor-cookie.ts';

type TIdentityDeps = Pick<TAccessDeps, 'config' | 'clock' | 'keys'>;

/**
 * The request's visitor, issuing a new id (and its cookie) when it has none, and its cookie again
 * when that is old; the principal then carries it.
 */
export function ensureVisitorId(deps: TIdentityDeps, res: Response): string {
  const principal = principalOf(res);
  const now = deps.clock.now();
  if (principal.visitorId !== undefined && principal.visitorIssuedAt !== undefined && now - principal.visitorIssuedAt < VISITOR_RENEW_AFTER_MS) {
    return principal.visitorId;
  }
  const keys = deps.keys?.cookie;
  if (!keys) throw new AppError('service_unavailable', 'Please try again in a moment.');
  const id = principal.visitorId ?? newId();
  setCookie(res, deps.config, VISITOR_COOKIE, signVisitorId(keys, id, now), VISITOR_MAX_AGE_MS);
  updatePrincipal(res, { visitorId: id, visitorIssuedAt: now });
  return id;
}

/** Gives the request its visitor id (a new cookie for a first-time visitor). */
export function createVisitorCookieMiddleware(deps: TIdentityDeps): RequestHandler {
  return (_req, res, next) => {
    ensureVisitorId(deps, res);
    next();
  };
}

/** The request's visitor, once the visitor cookie middleware ran. */
export function visitorIdOf(res: Response): string {
  const id = principalOf(res).visitorId;
  if (id === undefined) throw new Error('Visitor middleware did not run');
  return id;
}
