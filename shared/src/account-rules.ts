/**
 * Account rules both sides share, without zod (the replies' schemas are in ./accounts.ts): the
 * shortest password, and where a finished sign-in may send the browser back to.
 */

/** Shortest password an account may have. */
export const PASSWORD_MIN_LENGTH = 8;

// ---- where a flow returns to

/** Pages a finished sign-in must not return to: they would start the flow again. */
const NO_RETURN_PATHS = ['/sign-in', '/reset-password', '/verify-email'];

/**
 * The path a finished sign-in may send the browser back to, or null. Only a path of our own
 * origin: `//host`, `/\host`, schemes and control characters are refused, so a link in a mail
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
  return `${url.pathname}${url.search}${url.hash}`;
}
