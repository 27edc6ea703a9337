/** Visitor engagement calls (spec 7.1): favourites, approvals, comments, and the visitor's own state. */
import type { Request, RequestHandler } from 'express';
import {
  ZApprovalRequestSchema,
  ZCommentsQuerySchema,
  ZCreateCommentRequestSchema,
  ZEngagementStateQuerySchema,
  ZFavoriteRequestSchema,
  ZVisitorProfileRequestSchema,
  type TApprovalResponse,
  type TCreateCommentResponse,
  type TEngagementStateResponse,
  type TFavoriteResponse,
  type TVisitorProfileResponse,
} from '@dropsite/shared';
import type { TEngagementDeps } from './engagement.deps.ts';
import { principalOf } from '../access/principal.ts';
import { limitByAddress } from '../access/request-limits.ts';
import { enforceRateLimits } from '../access/rate-limiter.ts';
import { createVisitorCookieMiddleware, visitorIdOf } from '../access/visitor-id.ts';
import { engagingVisitor, setVisitorProfile } from '../visitors/visitor-record.ts';
import { createComment, getVisitorState, listCommentsJson, openEngagementFile, openEngagementSite, setApproval, setFavorite } from './engagement.service.ts';
import { createApiRouters, type TApiRouters } from '../http/api-routers.ts';

function hasJsonBody(req: Request): boolean {
  return typeof req.body === 'object' && req.body !== null && Object.keys(req.body as object).length > 0;
}

export function createEngagementRoutes(deps: TEngagementDeps): TApiRouters {
  const routes = createApiRouters();
  const limits = deps.limits.requests;
  const visitor = createVisitorCookieMiddleware(deps);
  const limitWrites = limitByAddress(limits.writes);
  const limitReads = limitByAddress(limits.reads);
  const limitSiteWrites = (siteId: string) => enforceRateLimits([[limits.siteWrites, siteId]]);

  const favorite = (isFavorite: boolean) =>
    (async (req, res) => {
      // DELETE bodies are allowed but some clients send the fields as a query instead.
      const input = ZFavoriteRequestSchema.parse(isFavorite || hasJsonBody(req) ? (req.body ?? {}) : req.query);
      const { site, file } = await openEngagementFile(deps, principalOf(res), input.projectId, input.fileId, 'favorites');
      await limitSiteWrites(site.row.id);
      const visitorId = visitorIdOf(res);
      const result = await setFavorite(deps, site, file, { id: visitorId, ...(await engagingVisitor(deps, visitorId)) }, isFavorite);
      res.set('Cache-Control', 'no-store').json({ success: true, fileId: file.id, ...result } satisfies TFavoriteResponse);
    }) satisfies RequestHandler;

  routes.at('/api/favorites').post('/', limitWrites, visitor, favorite(true));
  routes.at('/api/favorites').delete('/', limitWrites, visitor, favorite(false));

  routes.at('/api/approvals').post('/', limitWrites, visitor, async (req, res) => {
    const input = ZApprovalRequestSchema.parse(req.body ?? {});
    const { site, file } = await openEngagementFile(deps, principalOf(res), input.projectId, input.fileId, 'approvals');
    await limitSiteWrites(site.row.id);
    const visitorId = visitorIdOf(res);
    const result = await setApproval(deps, site, file, { id: visitorId, ...(await engagingVisitor(deps, visitorId)) }, input.status);
    res.set('Cache-Control', 'no-store').json({
      success: true,
      fileId: file.id,
      status: result.status,
      updatedAt: new Date(result.updatedAt).toISOString(),
    } satisfies TApprovalResponse);
  });

  routes.at('/api/comments').get('/', limitReads, visitor, async (req, res) => {
    const query = ZCommentsQuerySchema.parse(req.query);
    const { file } = await openEngagementFile(deps, principalOf(res), query.projectId, query.fileId, 'comments');
    // Written as JSON text from each comment's cached JSON (TCommentsResponse); the tests parse it with its schema.
    res.set({ 'Cache-Control': 'private, no-cache', 'Content-Type': 'application/json; charset=utf-8' }).send(await listCommentsJson(deps, file, visitorIdOf(res)));
  });

  routes.at('/api/comments').post('/', limitWrites, visitor, async (req, res) => {
    const input = ZCreateCommentRequestSchema.parse(req.body ?? {});
    const { site, file } = await openEngagementFile(deps, principalOf(res), input.projectId, input.fileId, 'comments');
    await limitSiteWrites(site.row.id);
    const visitorId = visitorIdOf(res);
    const comment = await createComment(
      deps,
      site,
      file,
      { id: visitorId, ...(await engagingVisitor(deps, visitorId)) },
      { commentText: input.commentText, replyTo: input.parentId ?? input.threadId ?? null },
    );
    res
      .status(201)
      .set('Cache-Control', 'no-store')
      .json({ success: true, comment } satisfies TCreateCommentResponse);
  });

  routes.at('/api/engagement').get('/state', limitReads, visitor, async (req, res) => {
    const query = ZEngagementStateQuerySchema.parse(req.query);
    const site = await openEngagementSite(deps, principalOf(res), query.projectId, null);
    const state = await getVisitorState(deps, site, visitorIdOf(res));
    res.set('Cache-Control', 'private, no-store').json({ success: true, ...state } satisfies TEngagementStateResponse);
  });

  // The visitor names themselves once per device (their cookie), optionally with an address shown to
  // the creators of the sites they engage with. Never trusted for access: the cookie decides who they are.
  routes.at('/api/visitor').put('/profile', limitWrites, visitor, async (req, res) => {
    const input = ZVisitorProfileRequestSchema.parse(req.body ?? {});
    const profile = await setVisitorProfile(deps, visitorIdOf(res), { name: input.name, email: input.email });
    res.set('Cache-Control', 'no-store').json({ success: true, visitor: profile } satisfies TVisitorProfileResponse);
  });

  return routes.routers;
}
