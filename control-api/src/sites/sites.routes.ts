/** GET /{slug}: the built site from storage, or a page that says why there is none. */
import { Router, type Response } from 'express';
import { isValidSlug } from '@dropsite/shared';
import type { TAppDeps } from '../deps.ts';
import { findProjectBySlug } from '../projects/projects.repository.ts';
import { findLatestBuildForProject } from '../builds/builds.repository.ts';
import { StorageNotFoundError } from '../storage/storage.ts';
import { sendStoredBody } from '../http/send-compressed.ts';
import { resolveSiteAccess, siteCacheControl } from './site-access.ts';
import { buildingPage, expiredPage, failedPage, notFoundPage, passwordPage } from './status-pages.ts';

// Site HTML is rendered from escaped data; island scripts are ours. Nothing loads from elsewhere.
const SITE_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

export function siteHtmlKey(slug: string): string {
  return `sites/${slug}/index.html`;
}

function sendPage(res: Response, status: number, html: string): void {
  res.status(status).set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'private, no-store' }).send(html);
}

export function createSiteRoutes(deps: TAppDeps): Router {
  const router = Router();

  router.get('/:slug', async (req, res, next) => {
    const slug = req.params.slug;
    if (!isValidSlug(slug)) {
      next();
      return;
    }
    res.set({ 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'strict-origin-when-cross-origin', 'Content-Security-Policy': SITE_CSP });
    const project = await findProjectBySlug(deps.db, slug);
    const access = resolveSiteAccess(deps, req, project);
    if (!project || access === 'missing') return sendPage(res, 404, notFoundPage());
    if (access === 'expired') return sendPage(res, 410, expiredPage());
    if (access === 'locked') return sendPage(res, 401, passwordPage({ slug, theme: project.theme }));

    try {
      const object = await deps.storage.get(siteHtmlKey(slug));
      res.status(200).set({
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': siteCacheControl(project, 'public, max-age=0, must-revalidate'),
      });
      await sendStoredBody(req, res, object.body, object.size, 'text/html');
    } catch (err) {
      if (!(err instanceof StorageNotFoundError)) throw err;
      if (project.status === 'failed') return sendPage(res, 503, failedPage());
      const build = await findLatestBuildForProject(deps.db, project.id);
      sendPage(res, 202, buildingPage(build?.progress ?? 0, build?.stage ?? 'Queued'));
    }
  });

  /** Shared, content-hashed template assets published by the builder. */
  router.get('/_astro/:name', async (req, res, next) => {
    const name = req.params.name;
    if (!/^[\w.-]+$/.test(name) || name.startsWith('.')) {
      next();
      return;
    }
    try {
      const object = await deps.storage.get(`assets/_astro/${name}`);
      res.set({
        'Content-Type': object.contentType ?? 'application/octet-stream',
        'Cache-Control': 'public, max-age=31536000, immutable',
        'X-Content-Type-Options': 'nosniff',
      });
      await sendStoredBody(req, res, object.body, object.size, object.contentType);
    } catch (err) {
      if (err instanceof StorageNotFoundError) {
        next();
        return;
      }
      throw err;
    }
  });

  return router;
}
