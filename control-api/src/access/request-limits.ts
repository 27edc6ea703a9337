/** The API's rate limits, one set per configuration (so each test app has its own). */
import type { Request } from 'express';
import type { TAppDeps } from '../deps.ts';
import { createRateLimiter, type RateLimiter } from './rate-limiter.ts';

export interface TRequestLimits {
  /** Engagement reads and view beacons, per client address. */
  reads: RateLimiter;
  /** Favourites, approvals, comments, email collection, events, per client address. */
  writes: RateLimiter;
  /** Engagement writes on one site from everyone together. */
  siteWrites: RateLimiter;
  /** Password guesses per client address. */
  unlock: RateLimiter;
  /** Password guesses on one site from everyone together. */
  unlockSite: RateLimiter;
  /** Anonymous-session lookups that named someone else's session, per client address. */
  lookupMisses: RateLimiter;
}

const limitsByConfig = new WeakMap<object, TRequestLimits>();

export function requestLimitsFor(deps: Pick<TAppDeps, 'config' | 'clock'>): TRequestLimits {
  let limits = limitsByConfig.get(deps.config);
  if (!limits) {
    const r = deps.config.rateLimits;
    const make = (perMinute: number) => createRateLimiter({ perMinute, clock: deps.clock });
    limits = {
      reads: make(r.readsPerMinute),
      writes: make(r.writesPerMinute),
      siteWrites: make(r.siteWritesPerMinute),
      unlock: make(r.unlockPerMinute),
      unlockSite: make(r.unlockSitePerMinute),
      lookupMisses: make(r.lookupMissesPerMinute),
    };
    limitsByConfig.set(deps.config, limits);
  }
  return limits;
}

/** The client's address as Express resolves it (honouring TRUST_PROXY), for per-address limits. */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}
