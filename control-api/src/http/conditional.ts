/**
 * If-None-Match as RFC 9110 (13.1.2) has an origin server evaluate it: `*` matches any current
 * representation, otherwise the list matches when one of its entity tags matches the response's
 * by the weak comparison (`W/"x"` matches `"x"`). Unlike Express's req.fresh, a request's
 * `Cache-Control: no-cache` does not turn a match into a full answer: it asks caches to check with
 * the origin, and this is the origin checking (fetch() adds it to every conditional request).
 */
import type { Request } from 'express';

const OPAQUE_TAG = /^(?:W\/)?("[^"]*")$/;

/** Whether the request's If-None-Match matches `etag` (the response's quoted tag), so a GET or HEAD is answered 304. */
export function ifNoneMatchMatches(header: string | undefined, etag: string | undefined): boolean {
  if (header === undefined || etag === undefined) return false;
  if (header.trim() === '*') return true;
  const own = OPAQUE_TAG.exec(etag.trim())?.[1];
  if (own === undefined) return false;
  return header.split(',').some((member) => OPAQUE_TAG.exec(member.trim())?.[1] === own);
}

/** A GET or HEAD whose If-None-Match matches the response's ETag header as set so far. */
export function isNotModified(req: Request, etag: string | undefined): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && ifNoneMatchMatches(req.get('if-none-match'), etag);
}
