/**
 * Wiring of engagement, access and the anonymous creator into the app: what must run before the
 * other routes (cookie key, the creator's token on publish calls) and the routes themselves. Site
 * pages never set the visitor cookie (a cache may keep them): the page's first API call gets it.
 * Background jobs are started by the API process (main.ts).
 */
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { Router } from 'express';
import type { TAppDeps } from '../deps.ts';
import { AppError } from '../http/app-error.ts';
import { createAccessRoutes } from '../access/access.routes.ts';
import { createAnonymousCreatorMiddleware } from '../creators/anonymous-creator.ts';
import { createCreatorRoutes } from '../creators/creators.routes.ts';
import { createAnalyticsRoutes } from '../analytics/analytics.routes.ts';
import { createEngagementRoutes } from './engagement.routes.ts';

/** The publish calls that create a site for the anonymous creator (regular, chunked, direct, direct chunked). */
export const PUBLISH_PATHS = ['/api/upload', '/api/chunked-upload/init', '/api/direct-upload', '/api/direct-upload/init'];

/** `verify` for express.json: a body that is not valid UTF-8 is refused (400) instead of being decoded with U+FFFD. */
export function rejectInvalidUtf8(_req: IncomingMessage, _res: unknown, body: Buffer): void {
  if (!isUtf8(body)) throw new AppError('bad_request', 'Request body is not valid UTF-8');
}

export function createEngagementLayer(deps: TAppDeps): { early: Router; routes: Router } {
  const early = Router();
  early.post(PUBLISH_PATHS, createAnonymousCreatorMiddleware(deps));

  const routes = Router();
  routes.use(createAccessRoutes(deps));
  routes.use(createEngagementRoutes(deps));
  routes.use(createAnalyticsRoutes(deps));
  routes.use(createCreatorRoutes(deps));
  return { early, routes };
}
