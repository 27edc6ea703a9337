/** Streams a stored text object (HTML, CSS, JS, JSON, SVG) gzipped when the client accepts it. */
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { createGzip, constants as zlibConstants } from 'node:zlib';
import type { Request, Response } from 'express';

const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml|wasm)|image\/svg\+xml)/;

export function isCompressible(contentType: string | undefined): boolean {
  return contentType !== undefined && COMPRESSIBLE.test(contentType);
}

/**
 * Sends the body, gzipped (level 6) when it is text and the client accepts gzip; otherwise
 * as is with its length. Headers other than length and encoding are the caller's.
 */
export async function sendStoredBody(req: Request, res: Response, body: Readable, size: number, contentType: string | undefined): Promise<void> {
  res.vary('Accept-Encoding');
  const acceptsGzip = /\bgzip\b/.test(req.get('accept-encoding') ?? '');
  if (!acceptsGzip || !isCompressible(contentType) || size < 1024) {
    res.set('Content-Length', String(size));
    // pipeline (not pipe) so a client that goes away also closes the stored object's file handle.
    try {
      await pipeline(body, res);
    } catch (err) {
      res.destroy(err instanceof Error ? err : undefined);
    }
    return;
  }
  res.removeHeader('Content-Length');
  res.set('Content-Encoding', 'gzip');
  try {
    await pipeline(body, createGzip({ level: 6, flush: zlibConstants.Z_NO_FLUSH }), res);
  } catch (err) {
    res.destroy(err instanceof Error ? err : undefined);
  }
}
