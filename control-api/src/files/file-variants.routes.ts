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
import { sendSiteObject, setFileSecurityHeaders } from './serve-object.ts';
import { createApiRouters, type TApiRouters } from '../http/api-routers.ts';
import type { TFileWithSite } from '../site-records/site-records.repository.ts';

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

  /** A variant of a file, shown inline and saved as the file's name and `suffix`; its tag is the file's bytes and the variant. */
  const sendVariant = (req: Request, res: Response, file: TFileWithSite, variant: { key: string; contentType: string; suffix: string; tag: string }) =>
    sendSiteObject(req, res, deps, file.site, {
      key: variant.key,
      contentType: variant.contentType,
      disposition: contentDisposition('inline', `${baseName(file.name)}${variant.suffix}`),
      etag: `"${file.sha256}-${variant.tag}"`,
    });

  routes.at('/api/files').get('/:id/pdf', async (req, res) => {
    setFileSecurityHeaders(res);
    const { file, derived } = await findServableFile(deps, req, res);
    const converted = derived && !derived.error ? derived.pdf : undefined;
    const isPdf = file.kind === 'pdf' && derived?.kind === 'pdf' && !derived.error;
    if (!converted && !isPdf) throw new AppError('not_found', 'This file has no PDF version');
    await sendVariant(req, res, file, { key: converted ? converted.key : file.storage_key, contentType: 'application/pdf', suffix: '.pdf', tag: 'pdf' });
  });

  routes.at('/api/files').get('/:id/poster', async (req, res) => {
    setFileSecurityHeaders(res);
    const { file, derived } = await findServableFile(deps, req, res);
    const poster = derived && !derived.error && derived.kind === 'video' ? derived.display : undefined;
    if (!poster) throw new AppError('not_found', 'This file has no poster');
    await sendVariant(req, res, file, { key: poster.key, contentType: poster.contentType, suffix: '-poster.webp', tag: 'poster' });
  });

  routes.at('/api/files').get('/:id/first-page', async (req, res) => {
    setFileSecurityHeaders(res);
    const { file, derived } = await findServableFile(deps, req, res);
    const hasPdf = !!derived && !derived.error && (derived.pdf !== undefined || (file.kind === 'pdf' && derived.kind === 'pdf'));
    const picture = hasPdf ? derived?.display : undefined;
    if (!picture) throw new AppError('not_found', 'This file has no first-page picture');
    await sendVariant(req, res, file, { key: picture.key, contentType: picture.contentType, suffix: '-page-1.webp', tag: 'first-page' });
  });

  return routes.routers;
}
