/**
 * What archive downloads may cost the server. Extracting an entry inflates stored bytes, so a
 * ZIP of a few hundred KB can ask for gigabytes of work; these limits bound that work before it
 * starts, from the sizes the central directory declares (yauzl cuts an entry off past its
 * declared size, so the declared size is what extraction can cost at most):
 * - one request extracts at most `entryMaxBytes`, its entries together (413);
 * - an entry claiming more than `entryMaxRatio` bytes per compressed byte is not extracted (413);
 *   these two are the shared rule (isEntryExtractable, archive-rules.ts) the builder marks the
 *   site's archive tree with, so the site offers no entry this refuses;
 * - one client address extracts at most `entryBytesPerMinute` (429 with Retry-After; a HEAD
 *   charges nothing but is refused the same way, so a viewer can ask before it downloads);
 * - one process streams at most `maxConcurrentZips` archive-entry and ZIP responses (503 with Retry-After).
 */
import type { RequestHandler, Response } from 'express';
import type { Clock } from '../clock.ts';
import type { TArchiveConfig } from '../config/config.ts';
import { entryRefusal } from '@dropsite/shared';
import { AppError } from '../http/app-error.ts';
/** Byte budgets past this many addresses are swept of full (idle) ones. */
const SWEEP_THRESHOLD = 10_000;
/** Seconds a refused ZIP download is asked to wait. */
const BUSY_RETRY_SECONDS = 5;

export const ENTRY_TOO_LARGE = 'These archive entries are too large to extract one by one. Download the whole archive instead.';
export const ENTRY_TOO_COMPRESSED = 'This archive entry is compressed too tightly to extract safely. Download the whole archive instead.';
export const ENTRY_BUDGET_SPENT = 'Too much was extracted from archives in the last minute. Please wait a moment and try again.';
export const ZIPS_BUSY = 'Too many downloads are being prepared right now. Please try again in a few seconds.';

export interface TByteBudget {
  /** Charges `bytes` to the key, or throws 429 with the seconds until they would fit. `dryRun` only checks. */
  charge(key: string, bytes: number, dryRun?: boolean): void;
}

/** A token bucket counted in bytes: `perMinute` bytes a minute, bursts up to the same amount. */
export function createByteBudget(perMinute: number, clock: { now(): number }): TByteBudget {
  const perMs = perMinute / 60_000;
  const buckets = new Map<string, { bytes: number; at: number }>();
  return {
    charge(key, bytes, dryRun = false) {
      const now = clock.now();
      const held = buckets.get(key);
      const available = held ? Math.min(perMinute, held.bytes + Math.max(0, now - held.at) * perMs) : perMinute;
      if (bytes > available) {
        buckets.set(key, { bytes: available, at: now });
        const seconds = Math.max(1, Math.ceil((Math.min(bytes, perMinute) - available) / perMs / 1000));
        throw new AppError('rate_limited', ENTRY_BUDGET_SPENT, { headers: { 'Retry-After': String(seconds) } });
      }
      if (dryRun) return;
      buckets.delete(key); // re-inserted last: Map order keeps the most recently used keys at the end
      buckets.set(key, { bytes: available - bytes, at: now });
      if (buckets.size > SWEEP_THRESHOLD) {
        for (const [k, b] of buckets) if (b.bytes + (now - b.at) * perMs >= perMinute) buckets.delete(k);
        // Still too many busy addresses: forget the oldest (failing open for them) rather than grow without end.
        for (const k of buckets.keys()) {
          if (buckets.size <= SWEEP_THRESHOLD) break;
          buckets.delete(k);
        }
      }
    },
  };
}

export interface TArchiveLimiter {
  config: TArchiveConfig;
  /** Refuses (413/429) entries that would cost too much to inflate, and charges the address for the rest (`dryRun`, for a HEAD: checks only). */
  chargeEntries(address: string, dryRun: boolean, entries: ReadonlyArray<{ size: number; compressedSize: number }>): void;
  /** Middleware holding one of the process's ZIP slots until the response is over (503 when none is free). */
  zipSlot: RequestHandler;
  /** Slots in use (for tests). */
  active(): number;
}

/** The archive limits of one runtime, made once from its config (createRuntime): `deps.limits.archives`. */
export function createArchiveLimiter(config: TArchiveConfig, clock: Clock): TArchiveLimiter {
  const budget = createByteBudget(config.entryBytesPerMinute, clock);
  let active = 0;

  const limiter: TArchiveLimiter = {
    config,
    chargeEntries(address, dryRun, entries) {
      let total = 0;
      for (const entry of entries) {
        if (entryRefusal(entry, config) === 'too_compressed') throw new AppError('payload_too_large', ENTRY_TOO_COMPRESSED);
        total += entry.size;
      }
      if (total > config.entryMaxBytes) throw new AppError('payload_too_large', ENTRY_TOO_LARGE);
      budget.charge(address, total, dryRun);
    },
    zipSlot(_req, res: Response, next) {
      if (active >= config.maxConcurrentZips) {
        throw new AppError('service_unavailable', ZIPS_BUSY, { headers: { 'Retry-After': String(BUSY_RETRY_SECONDS) } });
      }
      active++;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        active--;
      };
      res.once('close', release);
      res.once('finish', release);
      next();
    },
    active: () => active,
  };
  return limiter;
}
