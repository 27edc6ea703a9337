/**
 * The plan limits the server enforces (issue 13), with the code and message of BILLING_ERRORS and
 * the figures the upgrade prompt shows ({ plan_id, limit, used, requested }):
 * - delivery size and storage at every upload protocol's init (declared sizes, before a byte is
 *   stored) and again when the site or file is created from the received bytes;
 * - active sites when a site is published;
 * - Pro features (comments, approvals, notifications) for a signed-in creator's sites on a plan without them;
 * - a creator over their plan's storage or sites (after a downgrade) changes nothing until they are
 *   under it again (over_plan_limits); nothing is deleted and every site stays live.
 * Anonymous creators publish within Free's delivery size and keep every feature in their 7-day window.
 *
 * A check that adds sites (a publish, a claim) runs again inside the transaction that adds them, with
 * the account held (lockAccountForPlanCheck): parallel publishes at the limit pass one at a time, and
 * each sees the sites the one before added.
 */
import { PostgresAdapter, type Transaction } from 'kysely';
import {
  limitErrorCode,
  PLANS,
  PRO_FEATURE_SETTINGS,
  PRO_FEATURES,
  type TEnforcedLimitKey,
  type TPlan,
  type TPlanId,
  type TProFeatureSetting,
  withinLimit,
} from '@dropsite/shared';
import type { TBillingDeps } from './billing.deps.ts';
import type { Database } from '../db/tables.ts';
import { countActiveSites, findSubscriptionOfCreator } from './billing.repository.ts';
import { billingError } from './billing-error.ts';
import { deliveryLimitOf, effectivePlanId, planOf } from './plan-of.ts';
import { storageInUse } from './usage.service.ts';

type TDeps = Pick<TBillingDeps, 'db' | 'clock' | 'config'>;

/** The switches only paid plans may turn on (the catalogue's PRO_FEATURES). */
type TFeatureSettings = Partial<Record<TProFeatureSetting, boolean | undefined>>;

export async function planIdOfCreator(deps: TDeps, creatorId: string): Promise<TPlanId> {
  return effectivePlanId(await findSubscriptionOfCreator(deps.db, creatorId), deps.clock.now(), deps.config.billing.defaultPlan);
}

/** The plan an upload is measured by: the account's, or Free's for an anonymous creator. */
async function planOfOwner(deps: TDeps, ownerCreatorId: string | null): Promise<TPlan> {
  return ownerCreatorId ? planOf(await planIdOfCreator(deps, ownerCreatorId)) : PLANS.free;
}

/** The most bytes any plan may send in one delivery (the multipart parser's own cap; each request is cut at its owner's). */
export function largestDeliveryLimit(deps: Pick<TBillingDeps, 'config'>): number {
  return Math.max(...Object.values(PLANS).map((plan) => deliveryLimitOf(plan, deps.config.maxUploadBytes)));
}

/** Refuses `adding` more of an enforced limit past the plan's figure, with its row's error and what was refused. */
function assertWithinLimit(plan: TPlan, key: TEnforcedLimitKey, used: number, adding: number): void {
  const limit = plan.limits[key];
  if (!withinLimit(limit, used, adding)) throw billingError(limitErrorCode(key), { details: { plan_id: plan.id, limit, used, requested: adding } });
}

function assertFeatures(plan: TPlan, settings: TFeatureSettings | undefined): void {
  if (plan.proFeatures || !settings) return;
  if (PRO_FEATURES.some((feature) => settings[PRO_FEATURE_SETTINGS[feature]])) throw billingError('pro_feature', { details: { plan_id: plan.id } });
}

export interface TUploadCheck {
  ownerCreatorId: string | null;
  /** Bytes the upload adds (declared at init, received at completion). */
  bytes: number;
  /** The upload publishes a new site (else it adds to or replaces files of `projectId`). */
  newSite: boolean;
  /** Bytes the upload frees (a replaced file's). */
  freesBytes?: number;
  settings?: TFeatureSettings | undefined;
}

/** What an upload the plan allows may still take: its delivery size, and the owner's storage left (bytes, Infinity for unlimited). */
export interface TUploadRoom {
  delivery: number;
  storageLeft: number;
}

/** Refuses an upload past the owner's plan (one read of the plan per check); answers the room it leaves. */
export async function assertUploadAllowed(deps: TDeps, check: TUploadCheck): Promise<TUploadRoom> {
  const plan = await planOfOwner(deps, check.ownerCreatorId);
  const delivery = deliveryLimitOf(plan, deps.config.maxUploadBytes);
  if (check.bytes > delivery) throw billingError('delivery_too_large', { details: { plan_id: plan.id, limit: delivery, used: 0, requested: check.bytes } });
  if (!check.ownerCreatorId) return { delivery, storageLeft: Number.POSITIVE_INFINITY };
  if (check.newSite) {
    assertWithinLimit(plan, 'projects', await countActiveSites(deps.db, check.ownerCreatorId, deps.clock.now()), 1);
  }
  const used = Math.max(0, (await storageInUse(deps, check.ownerCreatorId)) - (check.freesBytes ?? 0));
  assertWithinLimit(plan, 'storage', used, check.bytes);
  assertFeatures(plan, check.settings);
  return { delivery, storageLeft: plan.limits.storage === -1 ? Number.POSITIVE_INFINITY : plan.limits.storage - used - check.bytes };
}

/**
 * Holds the account's plan checks until `trx` ends: on PostgreSQL the account's row is locked (the
 * next publish or claim into the account waits here until this transaction commits, then counts what
 * it added); SQLite has one writer at a time, and a transaction that reads before writing fails rather
 * than writing past another's commit, so the count and the insert in one transaction are enough there.
 */
async function lockAccountForPlanCheck(trx: Transaction<Database>, creatorId: string): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) await trx.selectFrom('creators').select('id').where('id', '=', creatorId).forUpdate().execute();
}

/** assertUploadAllowed inside the transaction that creates the site, with the account held until it commits. */
export async function assertUploadAllowedIn(deps: TDeps, trx: Transaction<Database>, check: TUploadCheck): Promise<TUploadRoom> {
  if (check.ownerCreatorId) await lockAccountForPlanCheck(trx, check.ownerCreatorId);
  return assertUploadAllowed({ ...deps, db: trx }, check);
}

/**
 * Refuses `adding` active sites (a claim) past the account's plan, all of them or none: inside the
 * transaction that moves them, with the account held until it commits.
 */
export async function assertSiteRoomIn(deps: TDeps, trx: Transaction<Database>, creatorId: string, adding: number): Promise<void> {
  if (adding === 0) return;
  await lockAccountForPlanCheck(trx, creatorId);
  const plan = planOf(await planIdOfCreator({ ...deps, db: trx }, creatorId));
  assertWithinLimit(plan, 'projects', await countActiveSites(trx, creatorId, deps.clock.now()), adding);
}

/** Turning on a Pro feature of a signed-in creator's site. */
export async function assertFeaturesAllowed(deps: TDeps, ownerCreatorId: string | null, settings: TFeatureSettings | undefined): Promise<void> {
  if (!ownerCreatorId) return;
  assertFeatures(await planOfOwner(deps, ownerCreatorId), settings);
}

/** Whether the creator is over their plan's storage or active sites (after a downgrade). */
async function isOverPlanLimits(deps: TDeps, creatorId: string): Promise<boolean> {
  const limits = planOf(await planIdOfCreator(deps, creatorId)).limits;
  const [sites, storage] = await Promise.all([countActiveSites(deps.db, creatorId, deps.clock.now()), storageInUse(deps, creatorId)]);
  return !withinLimit(limits.projects, sites) || !withinLimit(limits.storage, storage);
}

/** A change to a site of a creator over their plan's limits is refused; deleting stays possible. */
export async function assertChangesAllowed(deps: TDeps, ownerCreatorId: string | null): Promise<void> {
  if (ownerCreatorId && (await isOverPlanLimits(deps, ownerCreatorId))) throw billingError('over_plan_limits');
}
