/**
 * The server's identity cookies: read without a cookie-parser dependency, written HttpOnly and
 * SameSite=Lax, Secure with the __Host- prefix when the public URL is https (so no subdomain
 * or plain-http page can plant or overwrite them).
 */
import type { Request, Response } from 'express';
import type { TConfig } from '../config/config.ts';

export const VISITOR_COOKIE = 'dropsite_vid';
export const ANONYMOUS_CREATOR_COOKIE = 'dropsite_anon';
export const CREATOR_SESSION_COOKIE = 'dropsite_session';
export const UNLOCK_COOKIE_PREFIX = 'dropsite_unlock_';

function isSecure(config: Pick<TConfig, 'publicUrl'>): boolean {
  return config.publicUrl.startsWith('https:');
}

/** The cookie's name as sent, with the __Host- prefix on https. */
export function cookieName(config: Pick<TConfig, 'publicUrl'>, base: string): string {
  return isSecure(config) ? `__Host-${base}` : base;
}

/** One cookie's value from the request, or undefined. The first of duplicates wins (the most specific path). */
export function readCookie(req: Request, name: string): string | undefined {
  return readCookieFrom(req.headers.cookie, name);
}

/** One cookie's value from a Cookie header, or undefined. */
export function readCookieFrom(header: string | undefined, name: string): string | undefined {
  if (!header || header.length > 16_384) return undefined;
  let from = 0;
  while (from < header.length) {
    let end = header.indexOf(';', from);
    if (end === -1) end = header.length;
    const eq = header.indexOf('=', from);
    if (eq !== -1 && eq < end && header.slice(from, eq).trim() === name) {
      let value = header.slice(eq + 1, end).trim();
      if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
      return value;
    }
    from = end + 1;
  }
  return undefined;
}

export function setCookie(res: Response, config: Pick<TConfig, 'publicUrl'>, base: string, value: string, maxAgeMs: number): void {
  res.cookie(cookieName(config, base), value, {
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecure(config),
    path: '/',
    maxAge: Math.max(0, Math.floor(maxAgeMs)),
    // Values are base64url and dots only; Express would otherwise percent-encode them.
    encode: (v) => v,
  });
}
