/** The signed-in creator's dashboard calls (issue 11's contract, 'Creator dashboard reads'; spec 7.2-7.4). */
import {
  ZActivityQuerySchema,
  ZCreatorReplyRequestSchema,
  ZDailyAnalyticsQuerySchema,
  ZEngagementUpdatesQuerySchema,
  ZFileCommentsQuerySchema,
  type TActivityResponse,
  type TCreatorProjectsResponse,
  type TCreatorReplyResponse,
  type TDailyAnalyticsResponse,
  type TEngagementUpdatesResponse,
  type TFileCommentsResponse,
  type TProjectDetailsResponse,
} from '@dropsite/shared';
import type { TDashboardApiDeps } from './dashboard-api.deps.ts';
import { principalOf } from '../access/principal.ts';
import { limitByAddress } from '../access/request-limits.ts';
import { contentDisposition } from '../http/content-disposition.ts';
import { sendStoredObject, setFileSecurityHeaders } from '../files/serve-object.ts';
import {
  exportEngagementCsv,
  getOwnDailyAnalytics,
  getSiteDetails,
  listAccountUpdates,
  listNewActivity,
  listOwnFileComments,
  listOwnSites,
  openOwnSite,
  openOwnThumbnail,
  parseSince,
  replyAsCreator,
} from './creator-dashboard.service.ts';
import { createApiRouters, type TApiRouters } from '../http/api-routers.ts';

const PRIVATE = 'private, no-store';

export function createCreatorDashboardRoutes(deps: TDashboardApiDeps): TApiRouters {
  const routes = createApiRouters();
  const limits = deps.limits.requests;
  const limitReads = limitByAddress(limits.reads);
  const limitWrites = limitByAddress(limits.writes);

  routes.at('/api/creators').get('/me/projects', limitReads, async (_req, res) => {
    const result = await listOwnSites(deps, principalOf(res));
    res.set('Cache-Control', PRIVATE).json({ success: true, ...result } satisfies TCreatorProjectsResponse);
  });

  // The bell of a signed-in creator: what visitors did on the account's sites (the anonymous bell's shape).
  routes.at('/api/creators').get('/me/updates', limitReads, async (req, res) => {
    const query = ZEngagementUpdatesQuerySchema.parse(req.query);
    const updates = await listAccountUpdates(deps, principalOf(res), parseSince(query.since));
    res.set('Cache-Control', PRIVATE).json({ success: true, updates } satisfies TEngagementUpdatesResponse);
  });

  routes.at('/api/creators').get('/projects/:creatorId', limitReads, async (req, res) => {
    const result = await listOwnSites(deps, principalOf(res), String(req.params.creatorId));
    res.set('Cache-Control', PRIVATE).json({ success: true, ...result } satisfies TCreatorProjectsResponse);
  });

  routes.at('/api/projects').get('/:id/details', limitReads, async (req, res) => {
    const { site } = await openOwnSite(deps, principalOf(res), String(req.params.id), 'sites.read');
    const details = await getSiteDetails(deps, site);
    res.set('Cache-Control', PRIVATE).json({ success: true, project: details } satisfies TProjectDetailsResponse);
  });

  routes.at('/api/projects').get('/:id/files/:fileId/comments', limitReads, async (req, res) => {
    const { site } = await openOwnSite(deps, principalOf(res), String(req.params.id), 'sites.read');
    const query = ZFileCommentsQuerySchema.parse(req.query);
    const page = await listOwnFileComments(deps, site, String(req.params.fileId), query.before);
    res.set('Cache-Control', PRIVATE).json({ success: true, ...page } satisfies TFileCommentsResponse);
  });

  routes.at('/api/projects').get('/:id/analytics/daily', limitReads, async (req, res) => {
    const { site } = await openOwnSite(deps, principalOf(res), String(req.params.id), 'sites.read');
    const query = ZDailyAnalyticsQuerySchema.parse(req.query);
    const daily = await getOwnDailyAnalytics(deps, site, query.fileId, Number(query.days));
    res.set('Cache-Control', PRIVATE).json({ success: true, ...daily } satisfies TDailyAnalyticsResponse);
  });

  routes.at('/api/projects').get('/:id/activity', limitReads, async (req, res) => {
    const { site } = await openOwnSite(deps, principalOf(res), String(req.params.id), 'sites.read');
    const query = ZActivityQuerySchema.parse(req.query);
    const result = await listNewActivity(deps, site, parseSince(query.since));
    res.set('Cache-Control', PRIVATE).json({ success: true, ...result } satisfies TActivityResponse);
  });

  // A cover on the owner's dashboard: the thumbnail of any file of the caller's own site, locked or expired
  // too (the public file route refuses those to everyone). Private, revalidated by its tag.
  routes.at('/api/projects').get('/:id/files/:fileId/thumbnail', limitReads, async (req, res) => {
    setFileSecurityHeaders(res);
    const { site } = await openOwnSite(deps, principalOf(res), String(req.params.id), 'sites.read');
    const thumbnail = await openOwnThumbnail(deps, site, String(req.params.fileId));
    await sendStoredObject(
      req,
      res,
      deps.storage,
      { ...thumbnail, disposition: contentDisposition('inline', 'thumbnail.webp'), cacheControl: 'private, no-cache' },
      deps.caches.storedObjects,
    );
  });

  routes.at('/api/projects').get('/:id/engagement.csv', limitReads, async (req, res) => {
    const { site } = await openOwnSite(deps, principalOf(res), String(req.params.id), 'sites.export');
    const csv = await exportEngagementCsv(deps, site);
    res
      .set('Cache-Control', PRIVATE)
      .set('Content-Type', 'text/csv; charset=utf-8')
      .set('Content-Disposition', contentDisposition('attachment', `${site.slug}-engagement.csv`))
      .set('X-Content-Type-Options', 'nosniff')
      .send(csv);
  });

  routes.at('/api/projects').post('/:id/comments/:commentId/replies', limitWrites, async (req, res) => {
    const { creator, site } = await openOwnSite(deps, principalOf(res), String(req.params.id), 'comments.reply');
    const input = ZCreatorReplyRequestSchema.parse(req.body ?? {});
    const comment = await replyAsCreator(deps, creator, site, String(req.params.commentId), input.text);
    res
      .status(201)
      .set('Cache-Control', 'no-store')
      .json({ success: true, comment } satisfies TCreatorReplyResponse);
  });

  return routes.routers;
}
