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
 * Limits are the workspace's: its plan, its sites and its storage. Free's limits (and an anonymous
 * creator's, which are Free's) also count per person: the sites and storage of every Free workspace
 * the workspace's owner owns are counted together, so making more workspaces makes no more room.
 *
 * A check that adds sites (a publish, a claim) runs again inside the transaction that adds them, with
 * the workspace and its owner held (lockWorkspaceForPlanCheck): parallel publishes at the limit pass
 * one at a time, and each sees the sites the one before added.
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
import { countActiveSites, countCollaborators, findSubscriptionOfCreator, listFreeCandidateWorkspacesOfOwner, ownerOfWorkspace } from './billing.repository.ts';
import { billingError } from './billing-error.ts';
import { deliveryLimitOf, effectivePlanId, planOf } from './plan-of.ts';
import { storageInUse } from './usage.service.ts';

type TDeps = Pick<TBillingDeps, 'db' | 'clock' | 'config'>;

/** The switches only paid plans may turn on (the catalogue's PRO_FEATURES). */
type TFeatureSettings = Partial<Record<TProFeatureSetting, boolean | undefined>>;

/** The plan of a workspace now (a personal workspace's id is its account's). */
export async function planIdOfCreator(deps: TDeps, workspaceId: string): Promise<TPlanId> {
  return effectivePlanId(await findSubscriptionOfCreator(deps.db, workspaceId), deps.clock.now(), deps.config.billing.defaultPlan);
}

/** The plan an upload is measured by: the workspace's, or Free's for an anonymous creator. */
async function planOfOwner(deps: TDeps, workspaceId: string | null): Promise<TPlan> {
  return workspaceId ? planOf(await planIdOfCreator(deps, workspaceId)) : PLANS.free;
}

/**
 * The workspaces whose sites and storage count against the workspace's limits: itself on a paid plan;
 * on Free, every workspace on Free its owner owns (one person's Free room is one Free plan's).
 */
async function workspacesCountedFor(deps: TDeps, workspaceId: string, plan: TPlan): Promise<string[]> {
  if (plan.id !== 'free') return [workspaceId];
  const owner = await ownerOfWorkspace(deps.db, workspaceId);
  if (owner === null) return [workspaceId];
  const now = deps.clock.now();
  const owned = await listFreeCandidateWorkspacesOfOwner(deps.db, owner);
  const free = owned.filter((w) => effectivePlanId(w.subscription, now, deps.config.billing.defaultPlan) === 'free').map((w) => w.id);
  return free.includes(workspaceId) ? free : [workspaceId, ...free];
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
  /** The workspace the site is (or will be) in; null for an anonymous creator's. */
  workspaceId: string | null;
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
  const plan = await planOfOwner(deps, check.workspaceId);
  const delivery = deliveryLimitOf(plan, deps.config.maxUploadBytes);
  if (check.bytes > delivery) throw billingError('delivery_too_large', { details: { plan_id: plan.id, limit: delivery, used: 0, requested: check.bytes } });
  if (!check.workspaceId) return { delivery, storageLeft: Number.POSITIVE_INFINITY };
  const counted = await workspacesCountedFor(deps, check.workspaceId, plan);
  if (check.newSite) {
    assertWithinLimit(plan, 'projects', await countActiveSites(deps.db, counted, deps.clock.now()), 1);
  }
  const used = Math.max(0, (await storageInUse(deps, counted)) - (check.freesBytes ?? 0));
  assertWithinLimit(plan, 'storage', used, check.bytes);
  assertFeatures(plan, check.settings);
  return { delivery, storageLeft: plan.limits.storage === -1 ? Number.POSITIVE_INFINITY : plan.limits.storage - used - check.bytes };
}

/**
 * Holds the workspace's plan checks until `trx` ends: on PostgreSQL its owner's account row is locked
 * (the next publish or claim into any workspace of that owner waits here until this transaction
 * commits, then counts what it added: Free counts their workspaces together); SQLite has one writer at
 * a time, and a transaction that reads before writing fails rather than writing past another's commit,
 * so the count and the insert in one transaction are enough there.
 */
async function lockWorkspaceForPlanCheck(trx: Transaction<Database>, workspaceId: string): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  const owner = (await ownerOfWorkspace(trx, workspaceId)) ?? workspaceId;
  await trx.selectFrom('creators').select('id').where('id', '=', owner).forUpdate().execute();
}

/** assertUploadAllowed inside the transaction that creates the site, with the account held until it commits. */
export async function assertUploadAllowedIn(deps: TDeps, trx: Transaction<Database>, check: TUploadCheck): Promise<TUploadRoom> {
  if (check.workspaceId) await lockWorkspaceForPlanCheck(trx, check.workspaceId);
  return assertUploadAllowed({ ...deps, db: trx }, check);
}

/**
 * Refuses `adding` active sites (a claim) past the account's plan, all of them or none: inside the
 * transaction that moves them, with the account held until it commits.
 */
export async function assertSiteRoomIn(deps: TDeps, trx: Transaction<Database>, workspaceId: string, adding: number): Promise<void> {
  if (adding === 0) return;
  await lockWorkspaceForPlanCheck(trx, workspaceId);
  const inTrx = { ...deps, db: trx };
  const plan = planOf(await planIdOfCreator(inTrx, workspaceId));
  assertWithinLimit(plan, 'projects', await countActiveSites(trx, await workspacesCountedFor(inTrx, workspaceId, plan), deps.clock.now()), adding);
}

/**
 * Refuses `adding` seats (an invitation) past the plan's collaborators: members plus invitations still
 * open. Inside the transaction that adds them, with the workspace held until it commits. `adding` 0
 * checks that what is taken still fits (an invitation accepted after the plan lost its seats).
 */
export async function assertSeatRoomIn(deps: TDeps, trx: Transaction<Database>, workspaceId: string, adding: number): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) await trx.selectFrom('workspaces').select('id').where('id', '=', workspaceId).forUpdate().execute();
  const plan = planOf(await planIdOfCreator({ ...deps, db: trx }, workspaceId));
  assertWithinLimit(plan, 'collaborators', await countCollaborators(trx, workspaceId, deps.clock.now()), adding);
}

/** Turning on a Pro feature of a signed-in creator's site. */
export async function assertFeaturesAllowed(deps: TDeps, workspaceId: string | null, settings: TFeatureSettings | undefined): Promise<void> {
  if (!workspaceId) return;
  assertFeatures(await planOfOwner(deps, workspaceId), settings);
}

/** Whether the workspace is over its plan's storage or active sites (after a downgrade; on Free, counted per person). */
async function isOverPlanLimits(deps: TDeps, workspaceId: string): Promise<boolean> {
  const plan = planOf(await planIdOfCreator(deps, workspaceId));
  const counted = await workspacesCountedFor(deps, workspaceId, plan);
  const [sites, storage] = await Promise.all([countActiveSites(deps.db, counted, deps.clock.now()), storageInUse(deps, counted)]);
  return !withinLimit(plan.limits.projects, sites) || !withinLimit(plan.limits.storage, storage);
}

/** A change to a site of a workspace over its plan's limits is refused; deleting stays possible. */
export async function assertChangesAllowed(deps: TDeps, workspaceId: string | null): Promise<void> {
  if (workspaceId && (await isOverPlanLimits(deps, workspaceId))) throw billingError('over_plan_limits');
}
