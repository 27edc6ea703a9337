/**
 * Downloads of many files at once, and the site's link-preview picture:
 * GET /api/sites/{slug}/download[?files=id,id…]  one streamed ZIP of the site's files (or a selection)
 * GET /api/files/{id}/entry?path=…[&path=…]      one entry of a ZIP archive, or a ZIP of several
 * GET /{slug}/og.png                              the Open Graph picture the builder made
 * GET /{slug}/preview-{width}.{avif|webp|jpg}      a demo site's card picture (that picture made small)
 * Every route asks resolveSiteAccess first, like the file routes. The two that read archives
 * (a site's ZIP, an archive's entries) count against the per-address read limit: each one makes
 * the server read and inflate stored bytes.
 */
import { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { DEMO_PREVIEW_CONTENT_TYPES, parseDemoPreviewFileName, sanitizeFileName, siteOgImageKey, sitePreviewImageKey, UPLOAD_LIMITS } from '@dropsite/shared';
import { isZipArchive, openZipArchive, PreviewUnavailableError, type TZipArchive } from '@dropsite/builder';
import type { TDownloadsDeps } from './downloads.deps.ts';
import { AppError } from '../http/app-error.ts';
import { contentDisposition } from '../http/content-disposition.ts';
import { principalOf } from '../access/principal.ts';
import { limitByAddress } from '../access/request-limits.ts';
import { findServableFile } from '../files/file-variants.routes.ts';
import { isSiteSlug } from '../site-records/demo-site-records.ts';
import { fileCacheControl, sendSiteObject, setFileSecurityHeaders, streamTo } from '../files/serve-object.ts';
import { dedupeNames, sendZip, zipSafeName, type TZipItem } from './zip-stream.ts';
import { filesForZip, openDownloadableSite } from './downloads.service.ts';
import { countDownloadWhenComplete } from '../files/download-count.ts';
import { entryRefusedPage } from '../sites/status-pages.ts';

/** Spec 8, 'Download-all with nothing available'. */
const MAX_ENTRY_PATHS = 1000;

const oneOrMany = (item: z.ZodString) => z.union([item, z.array(item)]).transform((v) => (Array.isArray(v) ? v : [v]));

const ZSiteDownloadQuerySchema = z.object({
  files: oneOrMany(z.string().max(UPLOAD_LIMITS.maxFilesPerSite * 70))
    .transform((parts) =>
      parts
        .flatMap((p) => p.split(','))
        .map((id) => id.trim())
        .filter(Boolean),
    )
    .optional(),
});

const ZEntryQuerySchema = z.object({
  path: oneOrMany(z.string().min(1).max(4096)).pipe(z.array(z.string()).min(1).max(MAX_ENTRY_PATHS)),
});

/**
 * A refused entry download, for a browser that navigated to it (a new tab, a download the
 * archive viewer did not ask about first): the message as a small page with the same status
 * and headers (Retry-After), not the JSON error. Scripts and fetch keep the JSON.
 */
function entryRefusalAsPage(error: unknown, req: Request, res: Response, next: NextFunction): void {
  if (!(error instanceof AppError) || res.headersSent || req.method !== 'GET' || req.accepts(['json', 'html']) !== 'html') {
    next(error);
    return;
  }
  setFileSecurityHeaders(res);
  res
    .status(error.status)
    .set({ ...error.headers, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'private, no-store' })
    .send(entryRefusedPage(error.message));
}

/** The file name of a downloaded ZIP: the site's title, or a plain fallback. */
function zipFileName(title: string, fallback: string): string {
  const cleaned = zipSafeName(title)
    .replace(/[<>:"|?*]/g, '')
    .trim();
  return `${cleaned && cleaned !== 'file' ? cleaned.slice(0, 150) : fallback}.zip`;
}

export function createDownloadRoutes(deps: TDownloadsDeps): Router {
  const router = Router();
  const limitReads = limitByAddress(deps.limits.requests.reads);
  const archiveLimits = deps.limits.archives;
  const zipSlot = archiveLimits.zipSlot;

  router.get('/api/sites/:slug/download', limitReads, zipSlot, async (req, res) => {
    setFileSecurityHeaders(res);
    const slug = typeof req.params.slug === 'string' ? req.params.slug : '';
    if (!isSiteSlug(slug)) throw new AppError('not_found', 'Not found');
    const query = ZSiteDownloadQuerySchema.parse(req.query);
    const site = await openDownloadableSite(deps, principalOf(res), slug);
    const { files, isWholeSite } = await filesForZip(deps, site, query.files);

    const names = dedupeNames(files.map((f) => zipSafeName(f.name)));
    const items: TZipItem[] = files.map((file, i) => ({
      name: names[i]!,
      size: file.size,
      mtime: new Date(file.created_at),
      open: async () => (await deps.storage.get(file.storage_key)).body,
    }));
    // One download of the site (no single file) once the whole ZIP was sent: 'all files' when it held every
    // one (a Download All, whether or not it listed them), else how many of them (a section's Download All).
    countDownloadWhenComplete(deps, req, res, {
      siteId: site.id,
      fileId: null,
      fileName: null,
      ...(isWholeSite ? {} : { zipLabel: `${files.length} ${files.length === 1 ? 'file' : 'files'}` }),
    });
    await sendZip(req, res, items, zipFileName(site.title, 'files'), deps.log);
  });

  router.get(
    '/api/files/:id/entry',
    limitReads,
    zipSlot,
    async (req: Request, res: Response) => {
      setFileSecurityHeaders(res);
      const { file } = await findServableFile(deps, req, res);
      const query = ZEntryQuerySchema.parse(req.query);
      if (file.kind !== 'archive' || !isZipArchive(file)) throw new AppError('not_found', 'This file is not a ZIP archive');

      let archive: TZipArchive;
      try {
        archive = await openZipArchive(deps.storage, file.storage_key, file.size);
      } catch (error) {
        if (error instanceof PreviewUnavailableError) throw new AppError('not_found', error.message, { cause: error });
        throw error;
      }
      try {
        const paths = [...new Set(query.path)];
        // Only paths of the safe tree exist: '..', absolute paths and symlinks were never in it.
        const entries = paths.map((path) => archive.files.get(path));
        if (entries.some((entry) => !entry?.extractable)) throw new AppError('not_found', 'File not found in this archive');
        // Bounded before anything is inflated: yauzl never lets an entry inflate past its declared size.
        archiveLimits.chargeEntries(
          principalOf(res).address,
          req.method === 'HEAD',
          entries.map((entry) => entry!),
        );

        if (entries.length === 1) {
          const entry = entries[0]!;
          res.status(200).set({
            'Content-Type': 'application/octet-stream',
            // Named like an uploaded file (the tree's names are cleaned already; this keeps the two rules one).
            'Content-Disposition': contentDisposition('attachment', sanitizeFileName(entry.path.split('/').at(-1)!)),
            'Content-Length': String(entry.size),
            'Cache-Control': fileCacheControl(file.site),
          });
          if (req.method === 'HEAD') {
            res.end();
            return;
          }
          await streamTo(await archive.openEntry(entry.path), res);
          return;
        }
        const items: TZipItem[] = entries.map((entry) => ({
          name: entry!.path,
          size: entry!.size,
          mtime: entry!.modified ?? new Date(file.created_at),
          // Stored, not deflated again: the server inflates once and spends nothing more.
          compress: false,
          open: () => archive.openEntry(entry!.path),
        }));
        await sendZip(req, res, items, zipFileName(`${file.name.replace(/\.zip$/i, '')} (selection)`, 'selection'), deps.log);
      } finally {
        archive.close();
      }
    },
    entryRefusalAsPage,
  );

  /**
   * A picture stored for a site (its link picture, a demo's card picture), served inline once the
   * site may be downloaded; its ETag names the kind of picture and the stored version.
   */
  async function sendSitePicture(req: Request, res: Response, slug: string, picture: { key: string; contentType: string; fileName: string; etagPrefix: string }): Promise<void> {
    setFileSecurityHeaders(res);
    const site = await openDownloadableSite(deps, principalOf(res), slug);
    const head = await deps.storage.head(picture.key);
    if (!head) throw new AppError('not_found', 'Not found');
    // The same URL gets a new picture when the site changes, and refuses it once the site is locked or gone.
    await sendSiteObject(req, res, deps, site, {
      key: picture.key,
      contentType: picture.contentType,
      disposition: contentDisposition('inline', picture.fileName),
      etag: `"${picture.etagPrefix}-${head.modifiedAt.toString(36)}-${head.size.toString(36)}"`,
    });
  }

  router.get('/:slug/og.png', async (req, res, next) => {
    const slug = req.params.slug;
    if (!isSiteSlug(slug)) {
      next();
      return;
    }
    await sendSitePicture(req, res, slug, { key: siteOgImageKey(slug), contentType: 'image/png', fileName: 'og.png', etagPrefix: 'og' });
  });

  // The template gallery's and the landing page's pictures (scripts/src/demo/previews.ts). Made again
  // only when a deployment changes a demo; caches revalidate them by ETag, a 304 when nothing changed.
  router.get('/:slug/:picture', async (req, res, next) => {
    const { slug, picture } = req.params;
    const preview = parseDemoPreviewFileName(picture);
    if (!preview || !isSiteSlug(slug)) {
      next();
      return;
    }
    await sendSitePicture(req, res, slug, {
      key: sitePreviewImageKey(slug, preview.width, preview.format),
      contentType: DEMO_PREVIEW_CONTENT_TYPES[preview.format],
      fileName: picture,
      etagPrefix: 'preview',
    });
  });

  return router;
}
