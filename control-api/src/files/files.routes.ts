/** GET /api/files/{id}?mode=preview|download[&size=300]: originals and thumbnails, with Range support. */
import { Router, type Response } from 'express';
import { isValidId, ZFileQuerySchema, ZDerivedMetadataSchema } from '@dropsite/shared';
import type { TAppDeps } from '../deps.ts';
import { AppError } from '../http/app-error.ts';
import { contentDisposition } from '../http/content-disposition.ts';
import { parseRange } from '../http/range.ts';
import { findFileById } from '../projects/projects.repository.ts';
import { assertSiteOpen, resolveSiteAccess } from '../sites/site-access.ts';
import { StorageNotFoundError, type TByteRange } from '../storage/storage.ts';
import { servedTypeFor } from './content-type.ts';

/** Every uploaded byte is served as inert: never sniffed, never able to run script on our origin. */
const FILE_CSP = "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'";

function setFileSecurityHeaders(res: Response): void {
  res.set('X-Content-Type-Options', 'nosniff');
  res.set('Content-Security-Policy', FILE_CSP);
  res.set('Cross-Origin-Resource-Policy', 'same-origin');
}

export function createFileRoutes(deps: TAppDeps): Router {
  const router = Router();

  router.get('/api/files/:id', async (req, res) => {
    setFileSecurityHeaders(res);
    const id = req.params.id;
    if (!isValidId(id)) throw new AppError('not_found', 'File not found');
    const query = ZFileQuerySchema.parse(req.query);
    const file = await findFileById(deps.db, id);
    if (!file) throw new AppError('not_found', 'File not found');
    assertSiteOpen(resolveSiteAccess(deps, req, file.project));

    // Images are previewed through their derived copies: 300 px thumbnails, ~1600 px display copies.
    const metadata = ZDerivedMetadataSchema.safeParse(safeJson(file.metadata));
    const derived = metadata.success ? metadata.data : undefined;
    let key = file.storage_key;
    let contentType: string;
    let disposition: string;
    let variant = '';
    const baseName = file.name.replace(/\.[^.]*$/, '');
    if (query.size) {
      if (!derived?.thumbnail) throw new AppError('not_found', 'No thumbnail for this file');
      key = derived.thumbnail.key;
      contentType = derived.thumbnail.contentType;
      disposition = contentDisposition('inline', `${baseName}-thumbnail.webp`);
      variant = '-t300';
    } else if (query.mode === 'preview' && derived?.display) {
      key = derived.display.key;
      contentType = derived.display.contentType;
      disposition = contentDisposition('inline', `${baseName}.webp`);
      variant = '-display';
    } else {
      const served = servedTypeFor(file.name);
      const asAttachment = query.mode === 'download' || !served.isInlineSafe;
      contentType = query.mode === 'download' ? 'application/octet-stream' : served.contentType;
      disposition = contentDisposition(asAttachment ? 'attachment' : 'inline', file.name);
    }

    const head = await deps.storage.head(key);
    if (!head) throw new AppError('not_found', 'File is not available');
    const range = parseRange(req.get('range'), head.size);
    if (range.kind === 'unsatisfiable') {
      res.set('Content-Range', `bytes */${head.size}`);
      throw new AppError('range_not_satisfiable', 'Requested range is not satisfiable');
    }
    const etag = `"${file.sha256}${variant}"`;
    res.set({
      'Content-Type': contentType,
      'Content-Disposition': disposition,
      'Accept-Ranges': 'bytes',
      'Cache-Control': 'public, max-age=31536000, immutable',
      ETag: etag,
    });
    if (req.get('if-none-match') === etag) {
      res.status(304).end();
      return;
    }
    const byteRange: TByteRange | undefined = range.kind === 'range' ? { start: range.start, end: range.end } : undefined;
    let object;
    try {
      object = await deps.storage.get(key, byteRange);
    } catch (err) {
      if (err instanceof StorageNotFoundError) throw new AppError('not_found', 'File is not available', { cause: err });
      throw err;
    }
    if (byteRange) {
      res.status(206);
      res.set('Content-Range', `bytes ${byteRange.start}-${byteRange.end}/${head.size}`);
      res.set('Content-Length', String(byteRange.end - byteRange.start + 1));
    } else {
      res.set('Content-Length', String(head.size));
    }
    if (req.method === 'HEAD') {
      object.body.destroy();
      res.end();
      return;
    }
    await streamTo(object.body, res);
  });

  return router;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Pipes a stream to the response; a client that goes away stops the read. */
function streamTo(body: NodeJS.ReadableStream & { destroy(error?: Error): void }, res: Response): Promise<void> {
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
