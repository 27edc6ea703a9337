/**
 * GET /api/sites/{slug}/status: whether a site is live, and how far its build has come. A site's
 * route: it answers only what the site's access allows, and reads the build's progress from the
 * builds area (which knows nothing of sites).
 */
import type { TSiteStatusResponse } from '@dropsite/shared';
import type { TSitesDeps } from './sites.deps.ts';
import { AppError } from '../http/app-error.ts';
import { principalOf } from '../access/principal.ts';
import { isSiteSlug } from '../site-records/demo-site-records.ts';
import { buildProgressOf, openSiteBySlug } from './sites.service.ts';
import { createApiRouters, type TApiRouters } from '../http/api-routers.ts';

export function createSiteStatusRoutes(deps: TSitesDeps): TApiRouters {
  const routes = createApiRouters();
  routes.at('/api/sites').get('/:slug/status', async (req, res) => {
    const slug = req.params.slug;
    if (!isSiteSlug(slug)) throw new AppError('not_found', 'Site not found');
    const { site, access } = await openSiteBySlug(deps, principalOf(res), slug);
    if (access === 'missing' || !site) throw new AppError('not_found', 'Site not found');
    const build = await buildProgressOf(deps, site.id);
    const isLive = site.status === 'live';
    res.set('Cache-Control', 'no-store').json({
      success: true,
      slug,
      status: site.status,
      progress: isLive ? 100 : (build?.progress ?? 0),
      stage: isLive ? 'Live' : (build?.stage ?? 'Queued'),
    } satisfies TSiteStatusResponse);
  });
  return routes.routers;
}
