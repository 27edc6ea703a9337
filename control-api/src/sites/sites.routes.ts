/** GET /{slug}: the built site from storage, or a page that says why there is none. */
import { Router, type Response } from 'express';
import { siteHtmlKey, templateAssetKey } from '@dropsite/shared';
import type { TAppDeps } from '../deps.ts';
import { StorageNotFoundError } from '../storage/storage.ts';
import { sendStoredBody } from '../http/send-compressed.ts';
import { principalOf } from '../access/principal.ts';
import { isSiteSlug } from '../projects/demo-projects.ts';
import { REFUSAL_CACHE_CONTROL, siteCacheControl } from './site-access.ts';
import { buildProgressOf, isTakenDown, openSiteBySlug } from './sites.service.ts';
import { ASSET_CSP, readStoredScriptHashes, siteCsp, siteScriptHashes } from './site-csp.ts';
import { buildingPage, expiredPage, failedPage, passwordPage, takenDownPage } from './status-pages.ts';

function sendPage(res: Response, status: number, html: string): void {
  res.status(status).set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': REFUSAL_CACHE_CONTROL }).send(html);
}

export function createSiteRoutes(deps: TAppDeps): Router {
  const router = Router();

  router.get('/:slug', async (req, res, next) => {
    const slug = req.params.slug;
    // A creator's slug, or a demo site's reserved path (the dashboard's own pages were matched before).
    if (!isSiteSlug(slug)) {
      next();
      return;
    }
    // Status pages run no script; a built page's own inline scripts are allowed by hash below.
    res.set({ 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'strict-origin-when-cross-origin', 'Content-Security-Policy': siteCsp([]) });
    const { project, access } = await openSiteBySlug(deps, principalOf(res), slug);
    if (!project || access === 'missing') {
      // A site an operator took down says so (451, Unavailable For Legal Reasons); its files stay 404.
      if (await isTakenDown(deps, slug)) return sendPage(res, 451, takenDownPage());
      // No site at this address: the product's one 404 page, as for any other unknown path.
      res.set('Cache-Control', REFUSAL_CACHE_CONTROL);
      next();
      return;
    }
    if (access === 'expired') return sendPage(res, 410, expiredPage());
    if (access === 'locked') return sendPage(res, 401, passwordPage({ slug, theme: project.theme }));

    try {
      const [object, stored] = await Promise.all([deps.storage.get(siteHtmlKey(slug)), readStoredScriptHashes(deps.storage, slug).catch(() => undefined)]);
      const { hashes, body } = await siteScriptHashes(object, stored);
      res.status(200).set({
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': siteCacheControl(project, 'public, max-age=0, must-revalidate'),
        'Content-Security-Policy': siteCsp(hashes),
      });
      await sendStoredBody(req, res, body, object.size, 'text/html');
    } catch (err) {
      if (!(err instanceof StorageNotFoundError)) throw err;
      if (project.status === 'failed') return sendPage(res, 503, failedPage());
      const build = await buildProgressOf(deps, project.id);
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
      const object = await deps.storage.get(templateAssetKey(name));
      res.set({
        'Content-Type': object.contentType ?? 'application/octet-stream',
        'Cache-Control': 'public, max-age=31536000, immutable',
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': ASSET_CSP,
        // Public and content-hashed: the wizard's sandboxed preview (an opaque origin) loads them as modules.
        'Access-Control-Allow-Origin': '*',
        'Cross-Origin-Resource-Policy': 'cross-origin',
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
