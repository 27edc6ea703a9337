/** The anonymous creator's calls (spec 7.2). The email-collection modal's submit lives with the accounts (it mails a sign-in link). */
import {
  ZEngagementUpdatesQuerySchema,
  type TAnonymousProjectsResponse,
  type TAnonymousSessionResponse,
  type TEngagementSummaryResponse,
  type TEngagementUpdatesResponse,
} from '@dropsite/shared';
import type { TCreatorsDeps } from './creators.deps.ts';
import { AppError } from '../http/app-error.ts';
import { principalOf } from '../access/principal.ts';
import { limitByAddress } from '../access/request-limits.ts';
import { resolveOwnAnonymousSession } from './anonymous-creator.ts';
import { listAnonymousSites, listAnonymousUpdates, parseSince, summarizeAnonymousEngagement } from './anonymous.service.ts';
import { createApiRouters, type TApiRouters } from '../http/api-routers.ts';

const PRIVATE = 'private, no-store';

export function createCreatorRoutes(deps: TCreatorsDeps): TApiRouters {
  const routes = createApiRouters();
  const limits = deps.limits.requests;
  const limitReads = limitByAddress(limits.reads);

  routes.at('/api/creators').get('/anonymous/session', limitReads, async (_req, res) => {
    const session = await principalOf(res).anonymousSession();
    if (!session) throw new AppError('not_found', 'No anonymous session');
    res.set('Cache-Control', PRIVATE).json({
      success: true,
      sessionId: session.id,
      createdAt: new Date(session.createdAt).toISOString(),
      expiresAt: new Date(session.expiresAt).toISOString(),
    } satisfies TAnonymousSessionResponse);
  });

  routes.at('/api/projects').get('/anonymous/:sessionId', limitReads, async (req, res) => {
    const session = await resolveOwnAnonymousSession(deps, principalOf(res), String(req.params.sessionId));
    const sites = await listAnonymousSites(deps, session);
    res.set('Cache-Control', PRIVATE).json({ success: true, projects: sites } satisfies TAnonymousProjectsResponse);
  });

  routes.at('/api/engagement').get('/anonymous/:sessionId', limitReads, async (req, res) => {
    const session = await resolveOwnAnonymousSession(deps, principalOf(res), String(req.params.sessionId));
    const summary = await summarizeAnonymousEngagement(deps, session);
    res.set('Cache-Control', PRIVATE).json({ success: true, ...summary } satisfies TEngagementSummaryResponse);
  });

  routes.at('/api/engagement').get('/anonymous/:sessionId/updates', limitReads, async (req, res) => {
    const query = ZEngagementUpdatesQuerySchema.parse(req.query);
    const session = await resolveOwnAnonymousSession(deps, principalOf(res), String(req.params.sessionId));
    const updates = await listAnonymousUpdates(deps, session, parseSince(query.since));
    res.set('Cache-Control', PRIVATE).json({ success: true, updates } satisfies TEngagementUpdatesResponse);
  });

  return routes.routers;
}
