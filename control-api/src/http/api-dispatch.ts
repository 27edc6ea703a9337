/**
 * Routers whose every path starts `/api/{segment}`, run in their order, but only those that can
 * answer the request's segment. Express would try each route of each router in turn (a thumbnail
 * request walked some 120 route patterns, and a turn of the event loop per router passed) before
 * reaching the file routes; here a request meets only the routers that declare its segment, and
 * those that declare a path this cannot read (a parameter or pattern for the segment, or a
 * middleware for every path), which meet every API request as before. A path not under `/api/`
 * meets none of them.
 */
import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';

/** The segment after `/api/` (before the next slash); Express matches paths without regard to case. */
const REQUEST_SEGMENT = /^\/api\/([^/]*)/i;
/** A path whose segment after `/api/` is plain text: no parameter, wildcard, optional part or escape. */
const LITERAL_SEGMENT = /^\/api\/([A-Za-z0-9_.~-]+)(?:\/|$)/;

export function createApiDispatch(routers: readonly Router[]): RequestHandler {
  const declared = routers.map(apiSegmentsOf);
  /** Routers that may answer any segment. */
  const everywhere = routers.filter((_, i) => declared[i] === null);
  const bySegment = new Map<string, Router[]>();
  for (const segments of declared) {
    for (const segment of segments ?? []) {
      if (bySegment.has(segment)) continue;
      bySegment.set(
        segment,
        routers.filter((_, i) => declared[i] === null || declared[i]!.has(segment)),
      );
    }
  }
  return (req: Request, res: Response, next: NextFunction) => {
    const path = REQUEST_SEGMENT.exec(req.path);
    // Not under /api/ (a page view): no router here answers it.
    if (!path) {
      next();
      return;
    }
    const candidates = bySegment.get(path[1]!.toLowerCase()) ?? everywhere;
    let index = 0;
    const tryNext = (err?: unknown): void => {
      // A router ends with an error, or with nothing (no route answered, or it said `next('router')`).
      if (err !== undefined && err !== null && err !== 'router') {
        next(err);
        return;
      }
      const router = candidates[index++];
      if (router === undefined) next();
      else router(req, res, tryNext);
    };
    tryNext();
  };
}

/** The segments after `/api/` of every path the router's layers answer, lower-cased; null when one cannot be read. */
export function apiSegmentsOf(router: Router): Set<string> | null {
  const segments = new Set<string>();
  for (const layer of router.stack) {
    const raw: unknown = 'rawPath' in layer ? layer.rawPath : undefined;
    for (const path of Array.isArray(raw) ? raw : [raw]) {
      const match = typeof path === 'string' ? LITERAL_SEGMENT.exec(path) : null;
      if (!match) return null;
      segments.add(match[1]!.toLowerCase());
    }
  }
  return segments;
}
