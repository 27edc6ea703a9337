/** GET /api/files/{id}?mode=preview|download[&size=300]: originals and thumbnails, with Range support. */
import { isValidId, ZFileQuerySchema } from '@dropsite/shared';
import type { TFilesDeps } from './files.deps.ts';
import { AppError } from '../http/app-error.ts';
import { contentDisposition } from '../http/content-disposition.ts';
import { principalOf } from '../access/principal.ts';
import { openServableFile } from './files.service.ts';
import { servedTypeFor } from './content-type.ts';
import { sendSiteObject, setFileSecurityHeaders } from './serve-object.ts';
import { countDownloadWhenComplete } from './download-count.ts';
import { createApiRouters, type TApiRouters } from '../http/api-routers.ts';

export function createFileRoutes(deps: TFilesDeps): TApiRouters {
  const routes = createApiRouters();

  routes.at('/api/files').get('/:id', async (req, res) => {
    setFileSecurityHeaders(res);
    const id = req.params.id;
    if (!isValidId(id)) throw new AppError('not_found', 'File not found');
    const query = ZFileQuerySchema.parse(req.query);
    // Images are previewed through their derived copies: 300 px thumbnails, ~1600 px display copies.
    // (A video's display copy is its poster, served at /poster: its preview is the video itself.)
    const { file, derived } = await openServableFile(deps, principalOf(res), id);
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
    } else if (query.mode === 'preview' && derived?.display && derived.kind === 'image') {
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

    // Downloads are counted by the server, once the whole file (or a resumed range reaching its end) was sent.
    if (query.mode === 'download' && !query.size) countDownloadWhenComplete(deps, req, res, { siteId: file.project_id, fileId: file.id, fileName: file.name });
    await sendSiteObject(req, res, deps, file.site, { key, contentType, disposition, etag: `"${file.sha256}${variant}"` });
  });

  return routes.routers;
}
