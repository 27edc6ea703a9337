/**
 * Sending a stored object as a file response: the headers that keep uploaded bytes inert, one
 * byte range (206) or the whole object, ETag revalidation, HEAD, and a stream that stops
 * reading storage when the client goes away.
 */
import type { Request, Response } from 'express';
import { parseRange } from '@dropsite/shared';
import { AppError } from '../http/app-error.ts';
import { isNotModified } from '../http/conditional.ts';
import { buffer } from 'node:stream/consumers';
import { StorageNotFoundError, type Storage, type TByteRange } from '../storage/storage.ts';
import type { TObjectMemo } from './object-memo.ts';

/** Every uploaded byte is served as inert: never sniffed, never able to run script on our origin. */
export const FILE_CSP = "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'";

export function setFileSecurityHeaders(res: Response): void {
  res.set('X-Content-Type-Options', 'nosniff');
  res.set('Content-Security-Policy', FILE_CSP);
  res.set('Cross-Origin-Resource-Policy', 'same-origin');
}

export interface TStoredObjectResponse {
  key: string;
  contentType: string;
  disposition: string;
  etag: string;
  cacheControl: string;
}

/** What sending an object of a site reads: the storage, and the memory that keeps small objects. */
interface TSiteObjectDeps {
  storage: Storage;
  caches: { storedObjects: TObjectMemo };
}

/** A stored object of a site (a file, what the builder made from one, a picture of the site), cached as the site's files are. */
export function sendSiteObject(req: Request, res: Response, deps: TSiteObjectDeps, site: TCachedSite, object: Omit<TStoredObjectResponse, 'cacheControl'>): Promise<void> {
  return sendStoredObject(req, res, deps.storage, { ...object, cacheControl: fileCacheControl(site) }, deps.caches.storedObjects);
}

export async function sendStoredObject(req: Request, res: Response, storage: Storage, object: TStoredObjectResponse, memo?: TObjectMemo): Promise<void> {
  // A content-addressed object kept in memory needs nothing from storage, not even its size.
  const kept = memo?.peek(object.key);
  if (kept) {
    const byteRange = answerHeaders(req, res, object, kept.length);
    if (byteRange !== null) sendBytes(req, res, byteRange ? kept.subarray(byteRange.start, byteRange.end + 1) : kept, byteRange, kept.length);
    return;
  }
  const head = await storage.head(object.key);
  if (!head) throw new AppError('not_found', 'File is not available');
  const byteRange = answerHeaders(req, res, object, head.size);
  if (byteRange === null) return;
  // A small whole object (a thumbnail): from memory when kept for its current tag, else read whole and kept.
  if (memo && !byteRange && memo.fits(head.size)) {
    // The object's own tag, or (none was stored with it) its size and time of writing: a rewrite changes it.
    const version = head.etag ?? `${head.size}-${head.modifiedAt}`;
    let bytes = memo.get(object.key, version);
    if (!bytes) {
      bytes = await buffer((await openStored(storage, object.key)).body);
      // Kept under the version read just before: an object rewritten in between is read again next time.
      if (bytes.length === head.size) memo.set(object.key, version, bytes);
    }
    sendBytes(req, res, bytes, undefined, head.size);
    return;
  }
  const opened = await openStored(storage, object.key, byteRange);
  setLength(res, byteRange, head.size);
  if (req.method === 'HEAD') {
    opened.body.destroy();
    res.end();
    return;
  }
  await streamTo(opened.body, res);
}

/**
 * The headers of an object of `size` bytes: 416 for a range outside it (thrown), the file headers,
 * then 304 when the client's copy is current (answered: null). Otherwise the byte range asked for,
 * or undefined for the whole object.
 */
function answerHeaders(req: Request, res: Response, object: TStoredObjectResponse, size: number): TByteRange | undefined | null {
  const range = parseRange(req.get('range'), size);
  if (range.kind === 'unsatisfiable') {
    res.set('Content-Range', `bytes */${size}`);
    throw new AppError('range_not_satisfiable', 'Requested range is not satisfiable');
  }
  res.set({
    'Content-Type': object.contentType,
    'Content-Disposition': object.disposition,
    'Accept-Ranges': 'bytes',
    'Cache-Control': object.cacheControl,
    ETag: object.etag,
  });
  // If-None-Match as RFC 9110 compares it: weak validators, lists and `*`.
  if (isNotModified(req, object.etag)) {
    res.status(304).end();
    return null;
  }
  return range.kind === 'range' ? { start: range.start, end: range.end } : undefined;
}

/** 206 and its Content-Range for a byte range, and the Content-Length of what is sent. */
function setLength(res: Response, byteRange: TByteRange | undefined, size: number): void {
  if (byteRange) {
    res.status(206);
    res.set('Content-Range', `bytes ${byteRange.start}-${byteRange.end}/${size}`);
    res.set('Content-Length', String(byteRange.end - byteRange.start + 1));
  } else {
    res.set('Content-Length', String(size));
  }
}

/** Bytes from memory, in one write (none for HEAD). */
function sendBytes(req: Request, res: Response, bytes: Buffer, byteRange: TByteRange | undefined, size: number): void {
  setLength(res, byteRange, size);
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

/** The stored object, or the 404 a file gone from storage is answered with. */
async function openStored(storage: Storage, key: string, range?: TByteRange): ReturnType<Storage['get']> {
  try {
    return await storage.get(key, range);
  } catch (err) {
    if (err instanceof StorageNotFoundError) throw new AppError('not_found', 'File is not available', { cause: err });
    throw err;
  }
}

/**
 * Pipes a stream to the response; a client that goes away stops the read. A client that went away
 * while the object was being opened closed the response before this could listen for it: its body is
 * closed at once, or its file handle would stay open until the garbage collector found it.
 */
export function streamTo(body: NodeJS.ReadableStream & { destroy(error?: Error): void }, res: Response): Promise<void> {
  if (res.destroyed || res.closed) {
    body.destroy();
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    body.on('error', (err) => {
      res.destroy(err instanceof Error ? err : undefined);
      resolve();
    });
    res.on('close', () => {
      body.destroy();
      resolve();
    });
    body.pipe(res);
  });
}

/**
 * What a browser or shared cache may do with a file of a public site: keep it, but ask again before
 * each use (`no-cache`; the ETag makes that a 304 without a body). A file's address stays the same when
 * its owner sets a password, deletes the site or it is taken down, so a copy reused without asking
 * would outlive that change. A site with a password or an expiry leaves no copy in any cache at all.
 */
export const REVALIDATED_FILE_CACHE_CONTROL = 'public, no-cache';

/** What a site's cache headers depend on: whether it has a password or an expiry. */
type TCachedSite = { password_hash: string | null; expires_at: number | null };

export function fileCacheControl(site: TCachedSite): string {
  return site.password_hash || site.expires_at !== null ? 'private, no-store' : REVALIDATED_FILE_CACHE_CONTROL;
}
