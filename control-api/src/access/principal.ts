/**
 * Who is asking. One middleware reads it once per request, from the request's address and
 * cookies, into a value routes take with `principalOf(res)` and hand to services, which never see
 * Express's request or response: the visitor (the visitor cookie), the sites the request carries an
 * unlock for (the unlock cookies), and the anonymous creator (the creator cookie, looked up once, on
 * first use) and the signed-in creator (the session cookie, looked up once, on first use; the
 * accounts code renews the session and this middleware sends the renewed cookie).
 */
import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import type { TAccessDeps } from './access.deps.ts';
import type { TSiteRow } from '../db/tables.ts';
import { AppError } from '../http/app-error.ts';
import { ANONYMOUS_CREATOR_COOKIE, CREATOR_SESSION_COOKIE, cookieName, readCookieFrom, setCookie, UNLOCK_COOKIE_PREFIX, VISITOR_COOKIE } from './cookies.ts';
import { clientAddress } from './request-limits.ts';
import { readVisitorCookie } from './visitor-cookie.ts';

export interface TAnonymousSession {
  id: string;
  createdAt: number;
  expiresAt: number;
  isExpired: boolean;
}

/** The creator a session cookie proves. */
export interface TSignedInCreator {
  id: string;
  email: string;
  name: string;
  avatarUrl: string;
  emailVerified: boolean;
  sessionId: string;
  /**
   * When an emailed link (sign-in, reset, undone address change) opened this session, null for a
   * password: such a session claims no site the browser made before, and for a while proves the inbox.
   */
  linkSignedInAt: number | null;
}

/** What a session lookup finds: the creator, and the new expiry when the session was renewed (the cookie is sent again). */
export interface TCreatorSessionLookup {
  creator: TSignedInCreator;
  renewedUntil: number | null;
}

export interface TPrincipal {
  /** The client's address as per-address limits count it (see clientAddress). */
  readonly address: string;
  /** The visitor the visitor cookie proves; undefined without one (or with a forged or too old one). */
  readonly visitorId: string | undefined;
  /** When that cookie was issued (it is issued again once it is a month old). */
  readonly visitorIssuedAt: number | undefined;
  /** The unlock the request carries for a site (its cookie's token); checked against the site where it is used. */
  unlockTokenFor(siteId: string): string | undefined;
  /** The anonymous creator session the creator cookie proves (looked up once, on first use); null for none, a claimed or an unknown one. */
  anonymousSession(): Promise<TAnonymousSession | null>;
  /** The signed-in creator the session cookie proves (looked up once, on first use); null when signed out. */
  signedInCreator(): Promise<TSignedInCreator | null>;
}

/** How the principal's parts that need the database are found (given by the app, which wires the folders). */
export interface TPrincipalResolvers {
  lookUpAnonymousSession(token: string): Promise<TAnonymousSession | null>;
  lookUpCreatorSession(token: string): Promise<TCreatorSessionLookup | null>;
}

/** Name of a site's unlock cookie (one per site, so unlocking one never touches another). */
export function unlockCookieBase(siteId: string): string {
  return `${UNLOCK_COOKIE_PREFIX}${siteId}`;
}

/** The middleware that resolves the principal; mounted before every router. */
export function createPrincipalMiddleware(deps: Pick<TAccessDeps, 'config' | 'clock' | 'keys' | 'caches'>, resolvers: TPrincipalResolvers): RequestHandler {
  const visitorCookie = cookieName(deps.config, VISITOR_COOKIE);
  const creatorCookie = cookieName(deps.config, ANONYMOUS_CREATOR_COOKIE);
  const sessionCookie = cookieName(deps.config, CREATOR_SESSION_COOKIE);
  return (req, res, next) => {
    const header = req.headers.cookie;
    const keys = deps.keys?.cookie;
    const visitor = keys ? readVisitorCookie(keys, readCookieFrom(header, visitorCookie), deps.clock.now(), deps.caches.visitorCookies) : undefined;
    let session: Promise<TAnonymousSession | null> | undefined;
    let signedIn: Promise<TSignedInCreator | null> | undefined;
    const principal: TPrincipal = {
      address: clientAddress(req),
      visitorId: visitor?.id,
      visitorIssuedAt: visitor?.issuedAt,
      unlockTokenFor: (siteId) => readCookieFrom(header, cookieName(deps.config, unlockCookieBase(siteId))),
      anonymousSession() {
        if (!session) {
          const token = readCookieFrom(header, creatorCookie);
          session = token ? resolvers.lookUpAnonymousSession(token) : Promise.resolve(null);
        }
        return session;
      },
      signedInCreator() {
        if (!signedIn) {
          const token = readCookieFrom(header, sessionCookie);
          signedIn = token
            ? resolvers.lookUpCreatorSession(token).then((found) => {
                // A renewed session's cookie is sent again with its new lifetime (unless the answer already went).
                if (found?.renewedUntil != null && !res.headersSent) setCookie(res, deps.config, CREATOR_SESSION_COOKIE, token, found.renewedUntil - deps.clock.now());
                return found?.creator ?? null;
              })
            : Promise.resolve(null);
        }
        return signedIn;
      },
    };
    res.locals.principal = principal;
    next();
  };
}

/** The request's principal (the middleware runs before every router). */
export function principalOf(res: Response): TPrincipal {
  const principal: unknown = res.locals.principal;
  if (typeof principal !== 'object' || principal === null || !('address' in principal)) throw new Error('The principal middleware did not run');
  return principal as TPrincipal;
}

/** Replaces the request's principal, e.g. once a visitor id or a creator session was issued during it. */
export function updatePrincipal(res: Response, changes: Partial<Pick<TPrincipal, 'visitorId' | 'visitorIssuedAt' | 'anonymousSession' | 'signedInCreator'>>): TPrincipal {
  const next: TPrincipal = { ...principalOf(res), ...changes };
  res.locals.principal = next;
  return next;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Whether the caller's anonymous session (within its window) is this one. */
export async function holdsAnonymousSession(principal: TPrincipal, sessionId: string): Promise<TAnonymousSession | null> {
  const session = await principal.anonymousSession();
  return session && sameText(session.id, sessionId) ? session : null;
}

export const AUTHENTICATION_REQUIRED = 'Authentication required. Please sign in and try again.';

/** The signed-in creator, or the 401 every creator call answers when signed out. */
export async function requireSignedInCreator(principal: TPrincipal): Promise<TSignedInCreator> {
  const creator = await principal.signedInCreator();
  if (!creator) throw new AppError('unauthorized', AUTHENTICATION_REQUIRED);
  return creator;
}

/**
 * Whether the principal is the creator who owns the site: the signed-in creator it belongs to,
 * or the anonymous creator holding its session's token, within the window.
 */
export async function isSiteOwner(principal: TPrincipal, site: Pick<TSiteRow, 'anonymous_session_id' | 'owner_creator_id'>): Promise<boolean> {
  if (site.owner_creator_id !== null) {
    const creator = await principal.signedInCreator();
    return creator !== null && sameText(creator.id, site.owner_creator_id);
  }
  if (site.anonymous_session_id === null) return false;
  const session = await principal.anonymousSession();
  return session !== null && !session.isExpired && sameText(session.id, site.anonymous_session_id);
}
