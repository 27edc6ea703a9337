/**
 * Usage (spec 3 'Usage'), per workspace (a personal workspace's id is its account's): storage of its sites' files (originals and what the builder derived
 * from them), active sites, collaborators and this month's API requests. The counts are written to
 * the month's usage row after every publish, replacement, deletion and finished build
 * (refreshUsageSoon); limit checks count the originals live from the database and add the derived
 * bytes last found in storage. `npm run usage:recount` recounts everyone and reports drift.
 */
import { derivedPrefix, type TUsage } from '@dropsite/shared';
import type { TBillingDeps } from './billing.deps.ts';
import {
  countActiveSites,
  countCollaborators,
  findLatestUsageRow,
  findUsageRow,
  listCreatorIdsWithUsage,
  listFileHashes,
  sumOriginalBytes,
  type TUsageRow,
  upsertUsageCounts,
} from './billing.repository.ts';
import { usagePeriodOf } from './usage-period.ts';

type TDeps = Pick<TBillingDeps, 'db' | 'storage' | 'clock' | 'log'>;

export interface TCountedUsage {
  originalBytes: number;
  derivedBytes: number;
  projects: number;
  collaborators: number;
}

/** Bytes stored under each content hash's derived prefix (thumbnails, display copies, converted PDFs). */
async function sumDerivedBytes(deps: Pick<TBillingDeps, 'storage'>, hashes: readonly string[]): Promise<number> {
  let total = 0;
  for (const sha256 of hashes) {
    for await (const object of deps.storage.list(derivedPrefix(sha256))) total += object.size;
  }
  return total;
}

/** Counts everything from the database and storage. */
export async function countUsage(deps: TDeps, creatorId: string): Promise<TCountedUsage> {
  const now = deps.clock.now();
  const [originalBytes, hashes, sites, collaborators] = await Promise.all([
    sumOriginalBytes(deps.db, creatorId),
    listFileHashes(deps.db, creatorId),
    countActiveSites(deps.db, creatorId, now),
    countCollaborators(deps.db, creatorId, now),
  ]);
  return { originalBytes, derivedBytes: await sumDerivedBytes(deps, hashes), projects: sites, collaborators };
}

/** Recounts the creator's usage and writes it to this month's row; answers the row. */
export async function refreshUsage(deps: TDeps, creatorId: string): Promise<TUsageRow> {
  const counted = await countUsage(deps, creatorId);
  const now = deps.clock.now();
  const period = usagePeriodOf(now);
  await upsertUsageCounts(deps.db, {
    workspaceId: creatorId,
    period,
    storageUsed: counted.originalBytes + counted.derivedBytes,
    derivedBytes: counted.derivedBytes,
    projects: counted.projects,
    collaborators: counted.collaborators,
    now,
  });
  const row = await findUsageRow(deps.db, creatorId, period);
  if (!row) throw new Error(`No usage row for creator ${creatorId}`);
  return row;
}

/** Refreshes after a change without holding up its answer; a failure is logged (the next change or a recount corrects it). */
export function refreshUsageSoon(deps: TDeps, creatorId: string | null): void {
  if (!creatorId) return;
  void refreshUsage(deps, creatorId).catch((err: unknown) => deps.log.error({ err, creatorId }, 'could not refresh usage'));
}

/**
 * The creator's usage as the billing page shows it (one count per plan limit): active sites and original bytes counted now
 * (a claim or an expiry changes them without a publish), the derived bytes and API requests of
 * this month's row. The row is recounted first when there is none this month, or when its sites
 * differ from the live count (something changed that did not refresh it, e.g. a claim).
 */
export async function readUsage(deps: TDeps, creatorId: string): Promise<TUsage> {
  const now = deps.clock.now();
  const [row, originals, sites, collaborators] = await Promise.all([
    findUsageRow(deps.db, creatorId, usagePeriodOf(now)),
    sumOriginalBytes(deps.db, creatorId),
    countActiveSites(deps.db, creatorId, now),
    countCollaborators(deps.db, creatorId, now),
  ]);
  const current = row && Number(row.projects_count) === sites ? row : await refreshUsage(deps, creatorId);
  return {
    storage_used: originals + Number(current.derived_bytes),
    projects_count: sites,
    collaborators_count: collaborators,
    api_requests_count: Number(current.api_requests_count),
  };
}

/** Storage in use as limits count it: the originals now, plus the derived bytes last found. */
export async function storageInUse(deps: Pick<TBillingDeps, 'db'>, workspaceIds: string | readonly string[]): Promise<number> {
  const ids = typeof workspaceIds === 'string' ? [workspaceIds] : workspaceIds;
  const [originals, latest] = await Promise.all([sumOriginalBytes(deps.db, ids), Promise.all(ids.map((id) => findLatestUsageRow(deps.db, id)))]);
  return originals + latest.reduce((sum, row) => sum + Number(row?.derived_bytes ?? 0), 0);
}

export interface TUsageDrift {
  creatorId: string;
  /** What this month's row said before the recount (null: no row yet). */
  stored: { storageUsed: number; projects: number; collaborators: number } | null;
  counted: { storageUsed: number; projects: number; collaborators: number };
}

/**
 * Recounts every creator's usage from storage and the database (`npm run usage:recount`), writes
 * the counts, and answers the creators whose stored row differed (or was missing while they have
 * something stored).
 */
export async function recountUsage(deps: TDeps): Promise<{ creators: number; drift: TUsageDrift[] }> {
  const drift: TUsageDrift[] = [];
  const creatorIds = await listCreatorIdsWithUsage(deps.db);
  for (const creatorId of creatorIds) {
    const before = await findUsageRow(deps.db, creatorId, usagePeriodOf(deps.clock.now()));
    const after = await refreshUsage(deps, creatorId);
    const stored = before ? { storageUsed: Number(before.storage_used), projects: Number(before.projects_count), collaborators: Number(before.collaborators_count) } : null;
    const counted = { storageUsed: Number(after.storage_used), projects: Number(after.projects_count), collaborators: Number(after.collaborators_count) };
    const differs = stored
      ? stored.storageUsed !== counted.storageUsed || stored.projects !== counted.projects || stored.collaborators !== counted.collaborators
      : counted.storageUsed > 0 || counted.projects > 0;
    if (differs) drift.push({ creatorId, stored, counted });
  }
  return { creators: creatorIds.length, drift };
}
