/** The Express app: API, built sites, and the dashboard, wired from explicit dependencies. */
import { loggedPath } from './http/logged-path.ts';
import { createWorkspaceMemberRoutes } from './members/members.routes.ts';
import { randomUUID } from 'node:crypto';
import express from 'express';
import type { TAppDeps } from './deps.ts';
import { createErrorMiddleware, notFoundApi } from './http/error-middleware.ts';
import { createOriginCheck } from './http/origin-check.ts';
import { mountApiRouters } from './http/api-routers.ts';
import { createBodyTimeouts } from './http/slow-clients.ts';
import { rejectInvalidUtf8 } from './http/json-body.ts';
import { createPrincipalMiddleware } from './access/principal.ts';
import { createAnonymousCreatorMiddleware, lookUpAnonymousSession } from './creators/anonymous-creator.ts';
import { createCreatorRoutes } from './creators/creators.routes.ts';
import { validateSessionToken } from './accounts/sessions.ts';
import { createAccountRoutes } from './accounts/accounts.routes.ts';
import { createEngagementRoutes } from './engagement/engagement.routes.ts';
import { createAnalyticsRoutes } from './analytics/analytics.routes.ts';
import { createCreatorDashboardRoutes } from './dashboard-api/creator-dashboard.routes.ts';
import { createSiteManagementRoutes } from './site-management/site-management.routes.ts';
import { createUnlockRoutes } from './sites/unlock.routes.ts';
import { createEmailRoutes } from './notifications/email.routes.ts';
import { mailClaimLinkOnceConfirmed } from './accounts/claim-link.ts';
import { createInboxRoutes, createNewsletterLinkRoutes } from './inbox/inbox.routes.ts';
import { createDashboardRoutes } from './http/dashboard-routes.ts';
import { dashboardCsp } from './sites/site-csp.ts';
import { createUploadRoutes } from './publishing/upload.routes.ts';
import { createFileRoutes } from './files/files.routes.ts';
import { createSiteRoutes } from './sites/sites.routes.ts';
import { createSiteStatusRoutes } from './sites/site-status.routes.ts';
import { createPreviewRoutes } from './preview/preview.routes.ts';
import { createFileVariantRoutes } from './files/file-variants.routes.ts';
import { createDownloadRoutes } from './downloads/downloads.routes.ts';
import { createUploadSessionBodyParser, createUploadSessionRoutes } from './publishing/upload-sessions.routes.ts';
import { createBillingRoutes, createBillingWebhookRoutes } from './billing/billing.routes.ts';
import { createWorkspaceRoutes } from './workspaces/workspaces.routes.ts';
import { deleteWorkspaceSite } from './site-management/site-management.service.ts';
import { answerOpsRequest } from './observability/ops-endpoints.ts';
import { REQUEST_ID_PATTERN, runInRequestContext } from './observability/request-context.ts';

/** The publish calls that create a site for the anonymous creator (regular, chunked, direct, direct chunked). */
const PUBLISH_PATHS = ['/api/upload', '/api/chunked-upload/init', '/api/direct-upload', '/api/direct-upload/init'];

export function createApp(deps: TAppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.trustProxy);
  app.set('query parser', 'simple');
  // API answers are no-store or private; hashing each JSON body for an ETag cost every call a SHA-1.
  // Files, site assets and the dashboard send their own validators.
  app.set('etag', false);

  // Slow bodies: a deadline for ordinary requests, an idle timer and a minimum rate for uploads.
  app.use(createBodyTimeouts(deps.config.http, deps.clock));
  // Liveness, readiness and (to a bearer of METRICS_TOKEN) metrics, before any other work.
  const metricsToken = deps.config.ops.metricsToken ?? null;
  app.use((req, res, next) => {
    if (!answerOpsRequest(req, res, deps, metricsToken)) next();
  });
  app.use((req, res, next) => {
    // A proxy's id is kept when it is safe to log and pass on; otherwise the request gets its own.
    const given = req.get('x-request-id');
    const requestId = given !== undefined && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
    res.locals.requestId = requestId;
    res.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    const socket = req.socket;
    const readBefore = socket.bytesRead;
    const writtenBefore = socket.bytesWritten;
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // The route pattern (never the path itself, which would make a series per slug or file).
      const route = routeLabelOf(req);
      const declared = Number(req.headers['content-length'] ?? 0);
      const received = Math.max(Number.isFinite(declared) ? declared : 0, socket.bytesRead - readBefore);
      deps.metrics.observeRequest(route, req.method, res.statusCode, seconds, received, socket.bytesWritten - writtenBefore);
      deps.log.debug({ requestId, method: req.method, path: loggedPath(req.path), status: res.statusCode, ms: Math.round(seconds * 1000) }, 'request');
    });
    // Every log line written while this request is handled, and every build it queues, carries its id.
    runInRequestContext(requestId, next);
  });
  // Who is asking (visitor, unlocked sites, anonymous creator, signed-in creator), once per request, for every router.
  app.use(
    createPrincipalMiddleware(deps, {
      lookUpAnonymousSession: (token) => lookUpAnonymousSession(deps, token),
      lookUpCreatorSession: (token) => validateSessionToken(deps, token),
    }),
  );

  app.get('/api/health', (_req, res) => {
    res.json({ success: true, status: 'ok' });
  });
  // The API's routers are mounted at their /api/{segment} prefixes (http/api-routers.ts): a request
  // meets only the routers of its prefix, and a page view none of them.
  // Confirmation and unsubscribe links: their signed token is the authority, and a mail client's
  // one-click unsubscribe POST comes from no page of ours.
  mountApiRouters(
    app,
    createEmailRoutes(deps, (address) => mailClaimLinkOnceConfirmed(deps, address)),
    createNewsletterLinkRoutes(deps),
  );
  app.use('/api', createOriginCheck(deps.config));
  // Before the general JSON parser: a draft of a 500-file site needs a larger body than 64 KB.
  app.use(createPreviewRoutes(deps));
  // Stripe's signature covers the raw body: read before the JSON parser.
  mountApiRouters(app, createBillingWebhookRoutes(deps));
  app.use(createUploadSessionBodyParser());
  app.use('/api', express.json({ limit: '64kb', verify: rejectInvalidUtf8 }));
  // The anonymous creator a publish call publishes under (site pages set no cookie).
  app.post(PUBLISH_PATHS, createAnonymousCreatorMiddleware(deps));
  // An API call meets only the routers of its segment (/api/files/…), in this order. Engagement is the
  // hottest traffic of a published site's calls: first.
  mountApiRouters(
    app,
    ...[
      createUnlockRoutes,
      createEngagementRoutes,
      createAnalyticsRoutes,
      createAccountRoutes,
      createInboxRoutes,
      createCreatorRoutes,
      createCreatorDashboardRoutes,
      createBillingRoutes,
      createWorkspaceMemberRoutes,
      (d: TAppDeps) => createWorkspaceRoutes(d, { deleteSite: (siteId) => deleteWorkspaceSite(d, siteId) }),
      createSiteManagementRoutes,
      createUploadRoutes,
      createUploadSessionRoutes,
      createFileRoutes,
      createFileVariantRoutes,
    ].map((routes) => routes(deps)),
  );
  // Also serves a site's link pictures (/{slug}/og.png and the card pictures).
  app.use(createDownloadRoutes(deps));
  mountApiRouters(app, createSiteStatusRoutes(deps));
  app.use('/api', notFoundApi);

  const dashboard = createDashboardRoutes({ dashboardDir: deps.config.dashboardDir, csp: dashboardCsp(deps.config), publicUrl: deps.config.publicUrl });
  app.use(dashboard.router);
  app.use(createSiteRoutes(deps));
  app.use((_req, res) => dashboard.sendNotFound(res));
  app.use(createErrorMiddleware(deps.log));
  return app;
}

/**
 * The pattern of the route that answered (`/:slug`, `/api/projects/:id`), never the path itself, which
 * would make a metric series per site; of a route with several paths, the one asked for. A route of a
 * router mounted at a prefix counts under the prefix (literal, so its lower case is the pattern).
 */
function routeLabelOf(req: express.Request): string {
  const route: unknown = req.route;
  if (typeof route !== 'object' || route === null || !('path' in route)) return 'unmatched';
  const paths: unknown[] = Array.isArray(route.path) ? route.path : [route.path];
  const asked = req.path.toLowerCase();
  const exact = paths.find((p) => typeof p === 'string' && p.toLowerCase() === asked);
  const pattern = String(exact ?? paths.map(String).join('|'));
  const prefix = req.baseUrl.toLowerCase();
  return prefix !== '' && pattern === '/' ? prefix : `${prefix}${pattern}`;
}
