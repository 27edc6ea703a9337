/** The page's view beacon, the email modal's events, and the creator's analytics panel. */
import { ZAnalyticsQuerySchema, ZProductEventRequestSchema, ZViewBeaconRequestSchema, type TAnalyticsResponse } from '@dropsite/shared';
import type { TAnalyticsDeps } from './analytics.deps.ts';
import { principalOf } from '../access/principal.ts';
import { limitByAddress } from '../access/request-limits.ts';
import { createVisitorCookieMiddleware, visitorIdOf } from '../access/visitor-id.ts';
import { openEngagementTarget } from '../engagement/engagement.service.ts';
import { recordVisitor } from '../visitors/visitor-record.ts';
import { getOwnAnalytics, recordProductEvent, recordView } from './analytics.service.ts';
import { createApiRouters, type TApiRouters } from '../http/api-routers.ts';

export function createAnalyticsRoutes(deps: TAnalyticsDeps): TApiRouters {
  const routes = createApiRouters();
  const limits = deps.limits.requests;
  const visitor = createVisitorCookieMiddleware(deps);

  routes.at('/api/analytics').post('/view', limitByAddress(limits.reads), visitor, async (req, res) => {
    const input = ZViewBeaconRequestSchema.parse(req.body ?? {});
    const { site, file } = await openEngagementTarget(deps, principalOf(res), input.projectId, input.fileId ?? null, 'analytics');
    const visitorId = visitorIdOf(res);
    await recordVisitor(deps, visitorId);
    const counted = await recordView(deps, { siteId: site.row.id, fileId: file?.id ?? null, fileName: file?.name ?? null, visitorId });
    res.set('Cache-Control', 'no-store').json({ success: true, counted });
  });

  routes.at('/api/analytics').post('/events', limitByAddress(limits.writes), async (req, res) => {
    const input = ZProductEventRequestSchema.parse(req.body ?? {});
    await recordProductEvent(deps, principalOf(res), input);
    res.status(201).json({ success: true });
  });

  routes.at('/api/analytics').get('/', limitByAddress(limits.reads), async (req, res) => {
    const query = ZAnalyticsQuerySchema.parse(req.query);
    const analytics = await getOwnAnalytics(deps, principalOf(res), query);
    res.set('Cache-Control', 'private, no-store').json({ success: true, projectId: query.projectId, fileId: query.fileId ?? null, analytics } satisfies TAnalyticsResponse);
  });

  return routes.routers;
}
