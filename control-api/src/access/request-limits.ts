/**
 * The API's rate limits: one set per runtime (so each test app has its own), in `deps.limits.requests`,
 * counted in the runtime's limiter store (in memory, or Redis shared by every API process).
 */
import type { Request, RequestHandler } from 'express';
import type { TConfig } from '../config/config.ts';
import { addressKey } from '../http/address-key.ts';
import { enforceRateLimits, type RateLimiter } from './rate-limiter.ts';
import type { TGuessBackoff } from './guess-backoff.ts';
import type { TLimiterStore } from './limiter-store.ts';

export interface TRequestLimits {
  /** Engagement reads and view beacons, per client address. */
  reads: RateLimiter;
  /** Favourites, approvals, comments, email collection, events, per client address. */
  writes: RateLimiter;
  /** Engagement writes on one site from everyone together. */
  siteWrites: RateLimiter;
  /** Failed password guesses per client address. */
  unlock: RateLimiter;
  /** Failed password guesses on one site from everyone together. */
  unlockSite: RateLimiter;
  /** Back-off of failed password guesses per (site, address). */
  unlockBackoff: TGuessBackoff;
  /** Anonymous-session lookups that named someone else's session, per client address. */
  lookupMisses: RateLimiter;
}

/** The limits of one runtime, made once from its config (createRuntime). */
export function createRequestLimits(rates: TConfig['rateLimits'], store: TLimiterStore): TRequestLimits {
  // Load limits count in this process while Redis cannot answer; password guesses are refused (503) instead.
  const load = (name: string, perMinute: number) => store.rateLimiter(name, { perMinute, whenUnavailable: 'local' });
  const guesses = (name: string, perMinute: number) => store.rateLimiter(name, { perMinute, whenUnavailable: 'closed' });
  return {
    reads: load('reads', rates.readsPerMinute),
    writes: load('writes', rates.writesPerMinute),
    siteWrites: load('site-writes', rates.siteWritesPerMinute),
    unlock: guesses('unlock', rates.unlockPerMinute),
    unlockSite: guesses('unlock-site', rates.unlockSitePerMinute),
    unlockBackoff: store.guessBackoff('unlock-backoff', { whenUnavailable: 'closed' }),
    // Anonymous session ids are 128-bit random: per-process counting while Redis is down guesses none of them.
    lookupMisses: load('lookup-misses', rates.lookupMissesPerMinute),
  };
}

/** Middleware: a per-address limit before any work is done. */
export function limitByAddress(limiter: RateLimiter): RequestHandler {
  return async (req, _res, next) => {
    await enforceRateLimits([[limiter, clientAddress(req)]]);
    next();
  };
}

/**
 * The key of the client's address for per-address limits: the address Express resolves (the
 * right-most one not appended by a TRUST_PROXY proxy), IPv4-mapped IPv6 as the IPv4 and other IPv6
 * addresses by their /64 (one subscriber's whole prefix is one client).
 */
export function clientAddress(req: Request): string {
  return addressKey(req.ip ?? req.socket.remoteAddress ?? 'unknown');
}
