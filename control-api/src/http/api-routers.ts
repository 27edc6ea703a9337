/**
 * An area's API routers, one per `/api/{segment}` prefix, each mounted at its prefix by app.ts
 * (`app.use('/api/files', router)`). A request meets only the routers of its prefix: Express tries
 * every route of a router it enters, and a router that answers nothing hands on only at the next
 * turn of the event loop (a thumbnail request once walked some 120 route patterns first). A path
 * not under `/api/` enters none of them.
 */
import { Router } from 'express';

export type TApiPrefix = `/api/${string}`;

/** Where each router goes, in the order they are mounted. */
export type TApiRouters = ReadonlyArray<readonly [prefix: TApiPrefix, router: Router]>;

/** A router per prefix, made the first time its prefix is asked for; routes are declared relative to it. */
export function createApiRouters(): { at(prefix: TApiPrefix): Router; routers: TApiRouters } {
  const byPrefix = new Map<TApiPrefix, Router>();
  return {
    at(prefix) {
      let router = byPrefix.get(prefix);
      if (!router) {
        router = Router();
        byPrefix.set(prefix, router);
      }
      return router;
    },
    get routers() {
      return [...byPrefix];
    },
  };
}

/** Mounts each router at its prefix, in order. */
export function mountApiRouters(app: Router, ...areas: TApiRouters[]): void {
  for (const routers of areas) for (const [prefix, router] of routers) app.use(prefix, router);
}
