/**
 * What the builder made from a file, served under the file's id:
 * GET /api/files/{id}/pdf     the PDF a presentation or office document was converted to (a PDF: itself), inline, Range-capable
 * GET /api/files/{id}/poster  a video's poster frame at display size (WebP)
 * GET /api/files/{id}/first-page  a PDF's (or converted document's) whole first page, 1200 px wide (WebP),
 *                              what the site's PDF viewer shows before PDF.js loads
 */
import type { Request, Response } from 'express';
import type { TFilesDeps } from './files.deps.ts';
import { AppError } from '../http/app-error.ts';
import { contentDisposition } from '../http/content-disposition.ts';
import { principalOf } from '../access/principal.ts';
import { openServableFile } from './files.service.ts';
import { fileCacheControl, sendStoredObject, setFileSecurityHeaders } from './serve-object.ts';
import { createApiRouters, type TApiRouters } from '../http/api-routers.ts';

/** The file behind `:id` once its site lets this request in, with what the builder derived. */
/** The file of a `/api/files/:id…` request, when the principal may see its site. */
export function findServableFile(deps: TFilesDeps, req: Request, res: Response): ReturnType<typeof openServableFile> {
  return openServableFile(deps, principalOf(res), String(req.params.id ?? ''));
}

function baseName(name: string): string {
  return name.replace(/\.[^.]*$/, '') || 'file';
}

export function createFileVariantRoutes(deps: TFilesDeps): TApiRouters {
  const routes = createApiRouters();

  routes.at('/api/files').get('/:id/pdf', async (req, res) => {
    setFileSecurityHeaders(res);
    const { file, derived } = await findServableFile(deps, req, res);
    const converted = derived && !derived.error ? derived.pdf : undefined;
    const isPdf = file.kind === 'pdf' && derived?.kind === 'pdf' && !derived.error;
    if (!converted && !isPdf) throw new AppError('not_found', 'This file has no PDF version');
    await sendStoredObject(
      req,
      res,
      deps.storage,
      {
        key: converted ? converted.key : file.storage_key,
        contentType: 'application/pdf',
        disposition: contentDisposition('inline', `${baseName(file.name)}.pdf`),
        etag: `"${file.sha256}-pdf"`,
        cacheControl: fileCacheControl(file.project),
      },
      deps.caches.storedObjects,
    );
  });

  routes.at('/api/files').get('/:id/poster', async (req, res) => {
    setFileSecurityHeaders(res);
    const { file, derived } = await findServableFile(deps, req, res);
    const poster = derived && !derived.error && derived.kind === 'video' ? derived.display : undefined;
    if (!poster) throw new AppError('not_found', 'This file has no poster');
    await sendStoredObject(
      req,
      res,
      deps.storage,
      {
        key: poster.key,
        contentType: poster.contentType,
        disposition: contentDisposition('inline', `${baseName(file.name)}-poster.webp`),
        etag: `"${file.sha256}-poster"`,
        cacheControl: fileCacheControl(file.project),
      },
      deps.caches.storedObjects,
    );
  });

  routes.at('/api/files').get('/:id/first-page', async (req, res) => {
    setFileSecurityHeaders(res);
    const { file, derived } = await findServableFile(deps, req, res);
    const hasPdf = !!derived && !derived.error && (derived.pdf !== undefined || (file.kind === 'pdf' && derived.kind === 'pdf'));
    const picture = hasPdf ? derived?.display : undefined;
    if (!picture) throw new AppError('not_found', 'This file has no first-page picture');
    await sendStoredObject(
      req,
      res,
      deps.storage,
      {
        key: picture.key,
        contentType: picture.contentType,
        disposition: contentDisposition('inline', `${baseName(file.name)}-page-1.webp`),
        etag: `"${file.sha256}-first-page"`,
        cacheControl: fileCacheControl(file.project),
      },
      deps.caches.storedObjects,
    );
  });

  return routes.routers;
}
