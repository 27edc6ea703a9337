/** The page's view beacon, the email modal's events, and the creator's analytics panel. */
import { Router } from 'express';
import {
  ZAnalyticsQuerySchema,
  ZProductEventRequestSchema,
  ZViewBeaconRequestSchema,
  type TAnalyticsResponse,
} from '@dropsite/shared';
import type { TAppDeps } from '../deps.ts';
import { newId } from '../db/ids.ts';
import { AppError } from '../http/app-error.ts';
import { createVisitorCookieMiddleware, limitByAddress, visitorIdOf } from '../engagement/engagement.routes.ts';
import { findSiteFile, openEngagementTarget } from '../engagement/engagement.service.ts';
import { isProjectOwner, readAnonymousSession } from '../creators/anonymous-creator.ts';
import { projectExists } from '../creators/anonymous-sessions.repository.ts';
import { findProjectById } from '../projects/projects.repository.ts';
import { recordVisitor } from '../visitors/visitor-identity.ts';
import { insertProductEvent } from './analytics.repository.ts';
import { getAnalytics, recordView } from './analytics.service.ts';

export function createAnalyticsRoutes(deps: TAppDeps): Router {
  const router = Router();
  const limits = deps.limits.requests;
  const visitor = createVisitorCookieMiddleware(deps);

  router.post('/api/analytics/view', limitByAddress(limits.reads), visitor, async (req, res) => {
    const input = ZViewBeaconRequestSchema.parse(req.body ?? {});
    const { site, file } = await openEngagementTarget(deps, req, input.projectId, input.fileId ?? null, 'analytics');
    const visitorId = visitorIdOf(res);
    await recordVisitor(deps, visitorId);
    const counted = await recordView(deps, { projectId: site.project.id, fileId: file?.id ?? null, fileName: file?.name ?? null, visitorId });
    res.set('Cache-Control', 'no-store').json({ success: true, counted });
  });

  router.post('/api/analytics/events', limitByAddress(limits.writes), async (req, res) => {
    const input = ZProductEventRequestSchema.parse(req.body ?? {});
    const session = await readAnonymousSession(deps, req, res);
    const projectId = input.projectId && (await projectExists(deps.db, input.projectId)) ? input.projectId : null;
    await insertProductEvent(deps.db, {
      id: newId(),
      name: input.event,
      trigger: input.trigger ?? null,
      projectId,
      visitorId: null,
      anonymousSessionId: session?.id ?? null,
      now: deps.clock.now(),
    });
    res.status(201).json({ success: true });
  });

  router.get('/api/analytics', limitByAddress(limits.reads), async (req, res) => {
    const query = ZAnalyticsQuerySchema.parse(req.query);
    const project = await findProjectById(deps.db, query.projectId);
    // Someone else's site answers exactly like a missing one.
    if (!project || !(await isProjectOwner(deps, req, res, project))) throw new AppError('not_found', 'Site not found');
    if (query.fileId) await findSiteFile(deps, project, query.fileId);
    const analytics = await getAnalytics(deps, { projectId: project.id, fileId: query.fileId }, query.detailed === 'true');
    res.set('Cache-Control', 'private, no-store').json({ success: true, projectId: project.id, fileId: query.fileId ?? null, analytics } satisfies TAnalyticsResponse);
  });

  return router;
}
