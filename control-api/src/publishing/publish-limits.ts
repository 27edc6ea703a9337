/**
 * What anonymous publishing may take (PUBLISH_*, PREVIEW_*, OPEN_UPLOAD_SESSIONS_*, STORAGE_*):
 * publishes (the one-request uploads and the upload-session inits of all four protocols) per hour
 * and their declared bytes per day, per client address and per anonymous creator; open upload
 * sessions per address; previews per hour; and a free-space high-water mark (507) checked before
 * an upload is accepted, so the disk or bucket never fills. Refusals come from the declared size,
 * before the bytes are sent. In memory per API process, like the other limits (no Redis needed).
 */
import { statfs } from 'node:fs/promises';
import path from 'node:path';
import type { Request } from 'express';
import { type Kysely, sql } from 'kysely';
import { type Clock, DAY_MS, HOUR_MS } from '../clock.ts';
import type { TConfig } from '../config/config.ts';
import type { Database } from '../db/tables.ts';
import type { Storage } from '../storage/storage.ts';
import { AppError } from '../http/app-error.ts';
import type { TPrincipal } from '../access/principal.ts';
import { createQuota, type TQuota } from '../access/quota.ts';
import { rateLimitedError } from '../access/rate-limiter.ts';

/** Below the publishing area's deps, which name the gate's type. */
type TDeps = { config: TConfig; clock: Clock; db: Kysely<Database>; storage: Storage };

/** Addresses whose open upload sessions are tracked before old entries are forgotten. */
const MAX_TRACKED_ADDRESSES = 10_000;

export const TOO_MANY_PUBLISHES_MESSAGE = 'You have published a lot in a short time. Please wait a while and try again.';
export const DAILY_BYTES_MESSAGE = 'You have reached the upload allowance for today. Please try again later, or send fewer or smaller files.';
export const OPEN_SESSIONS_MESSAGE = 'You have too many unfinished uploads. Finish or cancel one, or wait until it expires.';
export const TOO_MANY_PREVIEWS_MESSAGE = 'Too many previews in a short time. Please wait a little and try again.';
export const STORAGE_FULL_MESSAGE = 'Not enough storage space on the server right now. Please try again later.';

/** An accepted publish: say how it ended, so the open-session count and the allowances stay right. */
export interface TAdmission {
  /** The upload session this init opened (it counts as open until completed, cancelled or expired). */
  sessionOpened(sessionId: string): void;
  /** The publish was refused after all, or was a replay: nothing is kept, and `refund` gives its allowance back. */
  cancel(options: { refund: boolean }): void;
}

/** Whom a publish call publishes as, when the publish calls' middleware decided it (creators/anonymous-creator.ts). */
export interface TPublishOwner {
  ownerCreatorId: string | null;
  anonymousSessionId: string | null;
}

export interface TPublishGate {
  /** 413, 429 (Retry-After) or 507 when this publish may not start; otherwise takes its share of the allowances. */
  admitPublish(principal: TPrincipal, input: { declaredBytes: number; opensSession: boolean; owner?: TPublishOwner }): Promise<TAdmission>;
  /** 429 (Retry-After) past the preview limit. */
  admitPreview(principal: TPrincipal): Promise<void>;
}

/** One gate per runtime (so each test app has its own), shared by every publishing route: `deps.limits.publish`. */
export function createPublishGate(deps: TDeps): TPublishGate {
  const { config, clock, db } = deps;
  const limits = config.publishLimits;
  const publishes: TQuota = createQuota({ capacity: limits.perHour, windowMs: HOUR_MS, clock });
  const bytes: TQuota = createQuota({ capacity: limits.bytesPerDay, windowMs: DAY_MS, clock });
  const previews: TQuota = createQuota({ capacity: limits.previewsPerHour, windowMs: HOUR_MS, clock });
  /** Upload sessions opened per address, with when (pruned against the database on each check). */
  const openByAddress = new Map<string, Map<string, number>>();
  /** Inits admitted and still running, per address (not yet in openByAddress). */
  const pendingByAddress = new Map<string, number>();

  const addPending = (address: string, delta: number) => {
    const next = (pendingByAddress.get(address) ?? 0) + delta;
    if (next <= 0) pendingByAddress.delete(address);
    else pendingByAddress.set(address, next);
  };

  /** Many addresses: forget sessions opened longer ago than an idle session lives (they are mostly gone). */
  const forgetOldSessions = () => {
    const cutoff = clock.now() - config.uploadSessionTtlMs;
    for (const [address, ids] of openByAddress) {
      for (const [id, openedAt] of ids) if (openedAt < cutoff) ids.delete(id);
      if (ids.size === 0) openByAddress.delete(address);
    }
  };

  /** Open sessions of this address now, and when the first of them expires. */
  async function openSessionsOf(address: string): Promise<{ count: number; firstExpiry: number | undefined }> {
    const ids = openByAddress.get(address);
    if (!ids || ids.size === 0) return { count: 0, firstExpiry: undefined };
    const now = clock.now();
    const asked = [...ids.keys()];
    const rows = await db
      .selectFrom('upload_sessions')
      .select(['id', 'expires_at'])
      .where('id', 'in', asked)
      .where('status', 'in', ['open', 'completing'])
      .where('expires_at', '>', now)
      .execute();
    const stillOpen = new Set(rows.map((r) => r.id));
    // Only the ids asked about are pruned: a session opened meanwhile stays counted.
    for (const id of asked) if (!stillOpen.has(id)) ids.delete(id);
    if (ids.size === 0 && openByAddress.get(address) === ids) openByAddress.delete(address);
    const firstExpiry = rows.length === 0 ? undefined : Math.min(...rows.map((r) => Number(r.expires_at)));
    return { count: ids.size, firstExpiry };
  }

  async function creatorKeyOf(principal: TPrincipal, owner: TPublishOwner | undefined): Promise<string | undefined> {
    // On the publish calls: the signed-in creator's account, the creator's session, or the one this
    // publish will issue (so it counts too).
    if (typeof owner?.ownerCreatorId === 'string') return `account:${owner.ownerCreatorId}`;
    if (typeof owner?.anonymousSessionId === 'string') return `creator:${owner.anonymousSessionId}`;
    const session = await principal.anonymousSession();
    return session && !session.isExpired ? `creator:${session.id}` : undefined;
  }

  async function admitPublish(principal: TPrincipal, input: { declaredBytes: number; opensSession: boolean; owner?: TPublishOwner }): Promise<TAdmission> {
    const declared = Math.max(0, input.declaredBytes);
    if (declared > bytes.capacity) throw new AppError('payload_too_large', 'This upload is larger than the daily upload allowance');
    const address = principal.address;
    const keys = [`address:${address}`];
    const creator = await creatorKeyOf(principal, input.owner);
    if (creator) keys.push(creator);
    const open = input.opensSession ? await openSessionsOf(address) : undefined;

    // From here to the takes nothing awaits, so concurrent requests cannot all pass the same check.
    const openNow = open ? (openByAddress.get(address)?.size ?? 0) + (pendingByAddress.get(address) ?? 0) : 0;
    if (open && openNow >= limits.openSessionsPerAddress) {
      const wait = open.firstExpiry === undefined ? 60 : Math.ceil((open.firstExpiry - clock.now()) / 1000);
      throw rateLimitedError({ allowed: false, retryAfterSeconds: Math.max(1, wait) }, OPEN_SESSIONS_MESSAGE);
    }
    for (const key of keys) {
      const decision = publishes.peek(key);
      if (!decision.allowed) throw rateLimitedError(decision, TOO_MANY_PUBLISHES_MESSAGE);
    }
    for (const key of keys) {
      const decision = bytes.peek(key, declared);
      if (!decision.allowed) throw rateLimitedError(decision, DAILY_BYTES_MESSAGE);
    }
    for (const key of keys) {
      publishes.take(key);
      bytes.take(key, declared);
    }
    if (input.opensSession) addPending(address, 1);

    let settled = false;
    const settle = (refund: boolean) => {
      if (settled) return false;
      settled = true;
      if (input.opensSession) addPending(address, -1);
      if (refund) {
        for (const key of keys) {
          publishes.refund(key);
          bytes.refund(key, declared);
        }
      }
      return true;
    };
    try {
      await assertStorageRoom(deps, declared);
    } catch (error) {
      settle(true);
      throw error;
    }
    return {
      sessionOpened(sessionId) {
        if (!settle(false)) return;
        const ids = openByAddress.get(address) ?? new Map<string, number>();
        ids.set(sessionId, clock.now());
        openByAddress.set(address, ids);
        if (openByAddress.size > MAX_TRACKED_ADDRESSES) forgetOldSessions();
      },
      cancel({ refund }) {
        settle(refund);
      },
    };
  }

  async function admitPreview(principal: TPrincipal): Promise<void> {
    const keys = [`address:${principal.address}`];
    const creator = await creatorKeyOf(principal, undefined);
    if (creator) keys.push(creator);
    for (const key of keys) {
      const decision = previews.peek(key);
      if (!decision.allowed) throw rateLimitedError(decision, TOO_MANY_PREVIEWS_MESSAGE);
    }
    for (const key of keys) previews.take(key);
  }

  return { admitPublish, admitPreview };
}

/**
 * The free-space high-water mark: 507 when storing `declared` more bytes would leave the disk below
 * STORAGE_MIN_FREE_BYTES / STORAGE_MIN_FREE_PERCENT, or the stored and announced upload bytes
 * above STORAGE_BYTE_BUDGET (the only measure a bucket offers).
 */
export async function assertStorageRoom(deps: TDeps, declared: number): Promise<void> {
  const { minFreeBytes, minFreePercent, storageByteBudget } = deps.config.publishLimits;
  if (storageByteBudget !== undefined && (await storedBytes(deps)) + (await announcedBytes(deps)) + declared > storageByteBudget) {
    throw new AppError('insufficient_storage', STORAGE_FULL_MESSAGE);
  }
  if (deps.storage.driver !== 'disk' || deps.config.storage.driver !== 'disk' || (minFreeBytes <= 0 && minFreePercent <= 0)) return;
  const stats = await statfsNearest(deps.config.storage.root);
  const free = stats.bavail * stats.bsize;
  const floor = Math.max(minFreeBytes, (stats.blocks * stats.bsize * minFreePercent) / 100);
  // Open upload sessions will still write what they announced (counted in full: a safe overestimate).
  if (free - (await announcedBytes(deps)) - declared < floor) throw new AppError('insufficient_storage', STORAGE_FULL_MESSAGE);
}

/** Bytes of every stored upload. */
async function storedBytes(deps: Pick<TDeps, 'db'>): Promise<number> {
  const stored = await deps.db.selectFrom('files').select(sql<number | string | null>`sum(size)`.as('n')).executeTakeFirst();
  return Number(stored?.n ?? 0);
}

/** The declared sizes of upload sessions still open. */
async function announcedBytes(deps: Pick<TDeps, 'db'>): Promise<number> {
  const announced = await deps.db
    .selectFrom('upload_files')
    .innerJoin('upload_sessions', 'upload_sessions.id', 'upload_files.session_id')
    .where('upload_sessions.status', 'in', ['open', 'completing'])
    .select(sql<number | string | null>`sum(upload_files.size)`.as('n'))
    .executeTakeFirst();
  return Number(announced?.n ?? 0);
}

/** statfs of the storage folder, or of its nearest existing parent before the first upload made it. */
async function statfsNearest(folder: string) {
  let current = folder;
  for (;;) {
    try {
      return await statfs(current);
    } catch (error) {
      const parent = path.dirname(current);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || parent === current) throw error;
      current = parent;
    }
  }
}

/** A one-request upload's declared size: its Content-Length, or the largest delivery when it sends none. */
export function declaredRequestBytes(req: Request, maxDeliveryBytes: number): number {
  const header = req.get('content-length');
  return header !== undefined && /^\d{1,15}$/.test(header) ? Math.min(Number(header), maxDeliveryBytes) : maxDeliveryBytes;
}
