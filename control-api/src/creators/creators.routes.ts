/** The anonymous creator's calls (spec 7.2) and the email-collection modal's submit. */
import { Router } from 'express';
import {
  ZEmailCollectionRequestSchema,
  ZEngagementUpdatesQuerySchema,
  type TAnonymousProjectsResponse,
  type TAnonymousSessionResponse,
  type TEngagementSummaryResponse,
  type TEngagementUpdatesResponse,
} from '@dropsite/shared';
import type { TAppDeps } from '../deps.ts';
import { newId } from '../db/ids.ts';
import { AppError } from '../http/app-error.ts';
import { limitByAddress } from '../engagement/engagement.routes.ts';
import { clientAddress } from '../access/request-limits.ts';
import { admitNotificationRecipient, anonymousOwnerKey, normalizeEmail, requestEmailConfirmation } from '../notifications/email-confirmation.service.ts';
import { readAnonymousSession, resolveOwnAnonymousSession } from './anonymous-creator.ts';
import { insertEmailCollection, projectExists } from './anonymous-sessions.repository.ts';
import { listAnonymousProjects, listAnonymousUpdates, parseSince, summarizeAnonymousEngagement } from './anonymous.service.ts';

const PRIVATE = 'private, no-store';

export function createCreatorRoutes(deps: TAppDeps): Router {
  const router = Router();
  const limits = deps.limits.requests;
  const limitReads = limitByAddress(limits.reads);
  const limitWrites = limitByAddress(limits.writes);

  router.get('/api/creators/anonymous/session', limitReads, async (req, res) => {
    const session = await readAnonymousSession(deps, req, res);
    if (!session) throw new AppError('not_found', 'No anonymous session');
    res.set('Cache-Control', PRIVATE).json({
      success: true,
      sessionId: session.id,
      createdAt: new Date(session.createdAt).toISOString(),
      expiresAt: new Date(session.expiresAt).toISOString(),
    } satisfies TAnonymousSessionResponse);
  });

  router.get('/api/projects/anonymous/:sessionId', limitReads, async (req, res) => {
    const session = await resolveOwnAnonymousSession(deps, req, res, String(req.params.sessionId));
    const projects = await listAnonymousProjects(deps, session);
    res.set('Cache-Control', PRIVATE).json({ success: true, projects } satisfies TAnonymousProjectsResponse);
  });

  router.get('/api/engagement/anonymous/:sessionId', limitReads, async (req, res) => {
    const session = await resolveOwnAnonymousSession(deps, req, res, String(req.params.sessionId));
    const summary = await summarizeAnonymousEngagement(deps, session);
    res.set('Cache-Control', PRIVATE).json({ success: true, ...summary } satisfies TEngagementSummaryResponse);
  });

  router.get('/api/engagement/anonymous/:sessionId/updates', limitReads, async (req, res) => {
    const query = ZEngagementUpdatesQuerySchema.parse(req.query);
    const session = await resolveOwnAnonymousSession(deps, req, res, String(req.params.sessionId));
    const updates = await listAnonymousUpdates(deps, session, parseSince(query.since));
    res.set('Cache-Control', PRIVATE).json({ success: true, updates } satisfies TEngagementUpdatesResponse);
  });

  router.post('/api/email-collection', limitWrites, async (req, res) => {
    const input = ZEmailCollectionRequestSchema.parse(req.body ?? {});
    const email = normalizeEmail(input.email);
    await admitNotificationRecipient(deps, clientAddress(req), email);
    const session = await readAnonymousSession(deps, req, res);
    const projectId = input.projectId && (await projectExists(deps.db, input.projectId)) ? input.projectId : null;
    await insertEmailCollection(deps.db, {
      id: newId(),
      email: input.email,
      trigger: input.trigger,
      projectId,
      // The caller's proven session; the payload's anonymousSessionId is never trusted.
      anonymousSessionId: session?.id ?? null,
      now: deps.clock.now(),
    });
    deps.log.info({ trigger: input.trigger, hasSession: session !== null }, 'email collected');
    // The address hears from us only after confirming the link sent now (once; it covers this creator's sites).
    if (session) await requestEmailConfirmation(deps, { email, ownerKey: anonymousOwnerKey(session.id) });
    res.status(201).json({ success: true });
  });

  return router;
}
