/**
 * Account rules both sides share, without zod (the replies' schemas are in ./accounts.ts): the
 * shortest password, and where a finished sign-in may send the browser back to.
 */
import { APP_PATHS } from './app-routes.ts';

/** Shortest password an account may have. */
export const PASSWORD_MIN_LENGTH = 8;

// ---- where a flow returns to

/** Pages a finished sign-in must not return to: they would start the flow again. */
const NO_RETURN_PATHS: readonly string[] = [APP_PATHS['sign-in'], APP_PATHS['reset-password'], APP_PATHS['verify-email'], APP_PATHS['undo-email-change']];
/** A path starting with two slashes or a slash and a backslash (`//host`, `/\\host`). */
const LEAVES_ORIGIN = /^\/[/\\]/;
/** A slash or backslash percent-encoded in the path: a router that decodes it may read `/%2F%2Fhost` as `//host`. */
const ENCODED_SEPARATOR = /%(?:2f|5c)/i;

/**
 * The path a finished sign-in may send the browser back to, or null. Only a path of our own
 * origin: `//host`, `/\host` (as typed or once normalised, e.g. `/.//host`), encoded slashes in the path, schemes and control characters are refused, so a link in a mail
 * or a crafted `?returnTo=` cannot send a creator who just signed in to another site.
 */
export function toSafeReturnPath(value: string | null | undefined): string | null {
  if (!value || value.length > 2000 || !value.startsWith('/') || value.startsWith('//')) return null;
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, 'http://origin.invalid');
  } catch {
    return null;
  }
  if (url.origin !== 'http://origin.invalid') return null;
  const pathname = url.pathname.replace(/\/+$/, '') || '/';
  if (NO_RETURN_PATHS.includes(pathname)) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // The normalised path is what the browser follows (`/.//host` comes out as `//host`): it is the one checked.
  if (LEAVES_ORIGIN.test(path) || ENCODED_SEPARATOR.test(url.pathname)) return null;
  return path;
}
