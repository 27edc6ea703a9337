/**
 * Sends a representation compressed ahead of time: the stored variant (Brotli, gzip, identity) the
 * client accepts, with its strong ETag, a 304 when the client's copy is current, HEAD, and one byte
 * range where the route allows it. Nothing is compressed here: a coding without a stored variant is
 * skipped, and identity is the last resort whatever the client said (rather than a 406).
 */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { parseRange } from '@dropsite/shared';
import { isNotModified } from './conditional.ts';
import { acceptableCodings, type TContentCoding } from './content-coding.ts';

export interface TOpenedVariant {
  body: Readable;
  /** Size of the whole variant (not of the range). */
  size: number;
  /** Strong entity tag of exactly these bytes, unquoted; undefined when none was recorded. */
  etag: string | undefined;
  /** The same bytes as `body`, when the source holds them in memory: sent in one write, `body` left unread. */
  bytes?: Buffer;
  /** The metadata stored with exactly these bytes, if any. */
  metadata?: Readonly<Record<string, string>> | undefined;
}

export interface TVariantSource {
  /** The codings stored besides identity, e.g. ['br', 'gzip']. */
  codings: readonly Exclude<TContentCoding, 'identity'>[];
  /** Opens the variant of one coding (a byte range of it), or null when none is stored. */
  open(coding: TContentCoding, range?: { start: number; end: number }): Promise<TOpenedVariant | null>;
  /** Size and entity tag of a variant without opening it (used for Range requests), or null when none is stored. */
  stat(coding: TContentCoding): Promise<Omit<TOpenedVariant, 'body'> | null>;
  /**
   * Called once a variant's headers are to be sent (GET or HEAD, not a 304), to add headers of its
   * own or replace its body; null passes to the next coding. Not called for ranges.
   */
  prepare?(variant: TOpenedVariant, coding: TContentCoding, res: Response): Promise<TOpenedVariant | null>;
}

/** Which stored variants to try for this request, best first; identity always last. */
export function variantOrder(req: Request, codings: TVariantSource['codings']): TContentCoding[] {
  const accepted = acceptableCodings(req.get('accept-encoding'), [...codings, 'identity']);
  return [...accepted.filter((c) => c !== 'identity'), 'identity'];
}

/**
 * Pipes the body to the response; a client that goes away closes the stored object (pipeline, not
 * pipe). pipeline leaves the body open when the response was destroyed before it started (the
 * client left while the object was being opened), so the body is destroyed here too: otherwise its
 * file handle waits for the garbage collector.
 */
async function stream(body: Readable, res: Response): Promise<void> {
  try {
    await pipeline(body, res);
  } catch (err) {
    body.destroy();
    res.destroy(err instanceof Error ? err : undefined);
  }
}

function describe(res: Response, coding: TContentCoding, etag: string | undefined, ranges: boolean): void {
  // A response any cache may keep carries no cookie: a shared cache would hand it to every visitor.
  // Whatever set one (a renewed session) sets it again on a later, private answer.
  if (/\bpublic\b/i.test(String(res.get('Cache-Control') ?? ''))) res.removeHeader('Set-Cookie');
  if (coding !== 'identity') res.set('Content-Encoding', coding);
  else res.removeHeader('Content-Encoding');
  if (etag !== undefined) res.set('ETag', `"${etag}"`);
  else res.removeHeader('ETag');
  if (ranges) res.set('Accept-Ranges', 'bytes');
}

/** The client's copy is current (If-None-Match: strong, weak, lists and `*`, compared weakly as RFC 9110 says). */
function answerNotModified(req: Request, res: Response, etag: string | undefined): boolean {
  if (etag === undefined || !isNotModified(req, `"${etag}"`)) return false;
  // A 304 carries the validator, Vary and caching headers, not the body's metadata. Nor a policy:
  // a browser puts the 304's headers on its stored copy, and a page's CSP lists that page's scripts.
  res.removeHeader('Content-Encoding');
  res.removeHeader('Content-Type');
  res.removeHeader('Content-Security-Policy');
  res.status(304).end();
  return true;
}

/**
 * Answers the request from the source. Headers the caller set (type, caching, security) stay;
 * this adds Vary, Content-Encoding, ETag, Content-Length and, with `ranges`, Accept-Ranges and
 * Content-Range. Resolves false, having sent nothing, when not even identity is stored.
 */
export async function sendVariant(req: Request, res: Response, source: TVariantSource, options: { ranges?: boolean } = {}): Promise<boolean> {
  const ranges = options.ranges === true;
  res.vary('Accept-Encoding');
  const order = variantOrder(req, source.codings);
  if (ranges && req.headers.range !== undefined) return sendRange(req, res, source, order);

  // A client with a copy is most likely answered 304: its tag is looked up without opening the body.
  const conditional = req.headers['if-none-match'] !== undefined;
  for (const coding of order) {
    if (conditional) {
      const info = await source.stat(coding);
      if (!info) continue;
      describe(res, coding, info.etag, ranges);
      if (answerNotModified(req, res, info.etag)) return true;
    }
    const opened = await source.open(coding);
    if (!opened) continue;
    describe(res, coding, opened.etag, ranges);
    if (answerNotModified(req, res, opened.etag)) {
      opened.body.destroy();
      return true;
    }
    const variant = source.prepare ? await source.prepare(opened, coding, res) : opened;
    if (!variant) continue;
    res.set('Content-Length', String(variant.size));
    if (req.method === 'HEAD') {
      variant.body.destroy();
      res.end();
      return true;
    }
    if (variant.bytes !== undefined) {
      // No stream to pipe: the bytes go out with the headers (a pipeline per view cost more than the write).
      res.end(variant.bytes);
      return true;
    }
    await stream(variant.body, res);
    return true;
  }
  return false;
}

async function sendRange(req: Request, res: Response, source: TVariantSource, order: TContentCoding[]): Promise<boolean> {
  for (const coding of order) {
    const info = await source.stat(coding);
    if (!info) continue;
    describe(res, coding, info.etag, true);
    if (answerNotModified(req, res, info.etag)) return true;
    // If-Range: the range only if the client's copy is this very representation (a strong match), else the whole.
    const ifRange = req.get('if-range');
    const rangeHolds = ifRange === undefined || (info.etag !== undefined && ifRange.trim() === `"${info.etag}"`);
    const range = rangeHolds ? parseRange(req.get('range'), info.size) : ({ kind: 'none' } as const);
    if (range.kind === 'unsatisfiable') {
      res.removeHeader('Content-Encoding');
      res.status(416).set('Content-Range', `bytes */${info.size}`).end();
      return true;
    }
    const byteRange = range.kind === 'range' ? { start: range.start, end: range.end } : undefined;
    if (byteRange) {
      res.status(206).set({ 'Content-Range': `bytes ${byteRange.start}-${byteRange.end}/${info.size}`, 'Content-Length': String(byteRange.end - byteRange.start + 1) });
    } else {
      res.set('Content-Length', String(info.size));
    }
    if (req.method === 'HEAD') {
      res.end();
      return true;
    }
    const variant = await source.open(coding, byteRange);
    if (!variant) throw new Error(`The ${coding} variant went away between its stat and its read`);
    await stream(variant.body, res);
    return true;
  }
  return false;
}
