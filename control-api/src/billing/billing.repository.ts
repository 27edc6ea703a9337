/** Billing's rows: subscriptions, the Stripe events applied, trial slots per address, and usage. The only module that queries them. */
import { type Insertable, type Kysely, type Selectable, type Transaction, sql } from 'kysely';
import type { Database, SubscriptionsTable, UsageTable } from '../db/tables.ts';
import { newId } from '../db/ids.ts';

type TDb = Kysely<Database> | Transaction<Database>;

export type TSubscriptionRow = Selectable<SubscriptionsTable>;
export type TUsageRow = Selectable<UsageTable>;

export async function findSubscriptionOfCreator(db: TDb, workspaceId: string): Promise<TSubscriptionRow | undefined> {
  return db.selectFrom('subscriptions').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
}

export async function findSubscriptionByCustomer(db: TDb, customerId: string): Promise<TSubscriptionRow | undefined> {
  return db.selectFrom('subscriptions').selectAll().where('stripe_customer_id', '=', customerId).executeTakeFirst();
}

/** Whether the creator's email address is confirmed (a trial needs it); undefined when there is no such creator. */
export async function isCreatorEmailConfirmed(db: TDb, creatorId: string): Promise<boolean | undefined> {
  const row = await db.selectFrom('creators').select('email_verified_at').where('id', '=', creatorId).executeTakeFirst();
  return row ? row.email_verified_at !== null : undefined;
}

/** A creator's subscription row before anything was bought: Free, active, no Stripe customer, no trial used. */
export function freeSubscriptionRow(id: string, workspaceId: string, now: number): Insertable<SubscriptionsTable> {
  return {
    id,
    workspace_id: workspaceId,
    plan_id: 'free',
    status: 'active',
    stripe_customer_id: null,
    stripe_subscription_id: null,
    current_period_end: null,
    last_event_at: 0,
    created_at: now,
    updated_at: now,
    billing_interval: null,
    trial_end: null,
    trial_used_at: null,
    grace_period_end: null,
    last_checkout_session_id: null,
    open_checkout_session_id: null,
    open_checkout_price: null,
  };
}

/** The creator's row, made on first use (Free, no Stripe customer); concurrent first uses make one. */
export async function ensureSubscriptionRow(db: TDb, workspaceId: string, now: number): Promise<TSubscriptionRow> {
  const existing = await findSubscriptionOfCreator(db, workspaceId);
  if (existing) return existing;
  await db
    .insertInto('subscriptions')
    .values(freeSubscriptionRow(newId(), workspaceId, now))
    .onConflict((oc) => oc.column('workspace_id').doNothing())
    .execute();
  const row = await findSubscriptionOfCreator(db, workspaceId);
  if (!row) throw new Error(`No subscription row for workspace ${workspaceId}`);
  return row;
}

/** Stores the creator's Stripe customer unless one was stored meanwhile; answers the one stored. */
export async function setStripeCustomer(db: TDb, workspaceId: string, customerId: string, now: number): Promise<string> {
  await db
    .updateTable('subscriptions')
    .set({ stripe_customer_id: customerId, updated_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('stripe_customer_id', 'is', null)
    .execute();
  const row = await findSubscriptionOfCreator(db, workspaceId);
  if (!row?.stripe_customer_id) throw new Error(`No Stripe customer stored for workspace ${workspaceId}`);
  return row.stripe_customer_id;
}

/** Starts the one trial, unless the creator had one or a paid plan (answers whether it started). */
export async function startTrial(db: TDb, workspaceId: string, input: { planId: string; now: number; trialEnd: number }): Promise<boolean> {
  const result = await db
    .updateTable('subscriptions')
    .set({ plan_id: input.planId, status: 'trialing', trial_end: input.trialEnd, trial_used_at: input.now, current_period_end: input.trialEnd, updated_at: input.now })
    .where('workspace_id', '=', workspaceId)
    .where('trial_used_at', 'is', null)
    .where('stripe_subscription_id', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Takes one of the address's `limit` trial slots: a free one, or one whose trial started before
 * `freeBefore`. Each take is a single insert-if-absent or conditional update, so two sign-ups from
 * one address at once cannot both take the last slot. Answers whether one was taken.
 */
export async function takeTrialAddressSlot(db: TDb, input: { addressHash: string; limit: number; now: number; freeBefore: number }): Promise<boolean> {
  for (let slot = 0; slot < input.limit; slot += 1) {
    const inserted = await db
      .insertInto('trial_address_slots')
      .values({ address_hash: input.addressHash, slot, started_at: input.now })
      .onConflict((oc) => oc.columns(['address_hash', 'slot']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return true;
    const reused = await db
      .updateTable('trial_address_slots')
      .set({ started_at: input.now })
      .where('address_hash', '=', input.addressHash)
      .where('slot', '=', slot)
      .where('started_at', '<', input.freeBefore)
      .executeTakeFirst();
    if (Number(reused.numUpdatedRows) === 1) return true;
  }
  return false;
}

/** Remembers the Checkout Session just opened, unless another was remembered since `expected` was read. */
export async function setOpenCheckoutSession(db: TDb, workspaceId: string, input: { expected: string | null; sessionId: string; price: string; now: number }): Promise<boolean> {
  const result = await db
    .updateTable('subscriptions')
    .set({ open_checkout_session_id: input.sessionId, open_checkout_price: input.price, updated_at: input.now })
    .where('workspace_id', '=', workspaceId)
    .where((eb) => (input.expected === null ? eb('open_checkout_session_id', 'is', null) : eb('open_checkout_session_id', '=', input.expected)))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Forgets the open Checkout Session once it is paid or expired (only if it is still the one remembered). */
export async function clearOpenCheckoutSession(db: TDb, workspaceId: string, sessionId: string, now: number): Promise<void> {
  await db
    .updateTable('subscriptions')
    .set({ open_checkout_session_id: null, open_checkout_price: null, updated_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('open_checkout_session_id', '=', sessionId)
    .execute();
}

/**
 * Records a Stripe event as applied; false when it already was (a redelivery). Inside the
 * transaction of its effect: a concurrent duplicate waits on the key and then finds it taken.
 */
export async function recordBillingEvent(trx: TDb, event: { id: string; type: string; created: number; processedAt: number }): Promise<boolean> {
  const result = await trx
    .insertInto('billing_events')
    .values({ id: event.id, type: event.type, created_at: event.created, processed_at: event.processedAt })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function isBillingEventRecorded(db: TDb, eventId: string): Promise<boolean> {
  return (await db.selectFrom('billing_events').select('id').where('id', '=', eventId).executeTakeFirst()) !== undefined;
}

export type TSubscriptionChange = Partial<
  Pick<
    TSubscriptionRow,
    | 'plan_id'
    | 'status'
    | 'stripe_customer_id'
    | 'stripe_subscription_id'
    | 'current_period_end'
    | 'billing_interval'
    | 'cancel_at_period_end'
    | 'trial_end'
    | 'trial_used_at'
    | 'grace_period_end'
    | 'last_checkout_session_id'
  >
>;

/**
 * Applies what an event says about a subscription, in one conditional update: only when the event
 * is not older than the newest one applied, and never to a Stripe subscription already cancelled
 * (a deleted subscription is final; only a new one, from a new checkout, changes the plan again).
 */
export async function applySubscriptionChange(
  trx: TDb,
  rowId: string,
  change: TSubscriptionChange,
  guard: { eventCreatedMs: number; stripeSubscriptionId: string | null; now: number },
): Promise<boolean> {
  let query = trx
    .updateTable('subscriptions')
    .set({ ...change, last_event_at: sql<number>`case when last_event_at > ${guard.eventCreatedMs} then last_event_at else ${guard.eventCreatedMs} end`, updated_at: guard.now })
    .where('id', '=', rowId)
    .where('last_event_at', '<=', guard.eventCreatedMs);
  if (guard.stripeSubscriptionId !== null) {
    const subscriptionId = guard.stripeSubscriptionId;
    query = query.where((eb) => eb.not(eb.and([eb('status', '=', 'cancelled'), eb('stripe_subscription_id', '=', subscriptionId)])));
  }
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Fields that hold whatever the order of events (e.g. which Checkout Session was fulfilled). */
export async function setLastCheckoutSession(trx: TDb, rowId: string, sessionId: string, now: number): Promise<void> {
  await trx.updateTable('subscriptions').set({ last_checkout_session_id: sessionId, updated_at: now }).where('id', '=', rowId).execute();
}

// ---- usage

export async function findUsageRow(db: TDb, workspaceId: string, period: string): Promise<TUsageRow | undefined> {
  return db.selectFrom('usage').selectAll().where('workspace_id', '=', workspaceId).where('period', '=', period).executeTakeFirst();
}

/** The latest row of the creator (the derived bytes last found carry over into a new month). */
export async function findLatestUsageRow(db: TDb, workspaceId: string): Promise<TUsageRow | undefined> {
  return db.selectFrom('usage').selectAll().where('workspace_id', '=', workspaceId).orderBy('period', 'desc').limit(1).executeTakeFirst();
}

/** Writes the counted storage, sites and collaborators of the period's row (its API requests stay). */
export async function upsertUsageCounts(
  db: TDb,
  row: { workspaceId: string; period: string; storageUsed: number; derivedBytes: number; projects: number; collaborators: number; now: number },
): Promise<void> {
  const counts = {
    storage_used: row.storageUsed,
    derived_bytes: row.derivedBytes,
    projects_count: row.projects,
    collaborators_count: row.collaborators,
    updated_at: row.now,
  };
  await db
    .insertInto('usage')
    .values({ workspace_id: row.workspaceId, period: row.period, api_requests_count: 0, ...counts })
    .onConflict((oc) => oc.columns(['workspace_id', 'period']).doUpdateSet(counts))
    .execute();
}

// ---- what usage counts, from the database

/** Bytes of the originals of the creator's sites that are not deleted. */
export async function sumOriginalBytes(db: TDb, workspaceId: string | readonly string[]): Promise<number> {
  const ids = typeof workspaceId === 'string' ? [workspaceId] : workspaceId;
  if (ids.length === 0) return 0;
  const row = await db
    .selectFrom('files')
    .innerJoin('projects', 'projects.id', 'files.project_id')
    .select((eb) => eb.fn.sum<number | string | null>('files.size').as('bytes'))
    .where('projects.workspace_id', 'in', ids)
    .where('projects.deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.bytes ?? 0);
}

/** Content hashes of the creator's files (their derived images and PDFs are stored per hash). */
export async function listFileHashes(db: TDb, workspaceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('files')
    .innerJoin('projects', 'projects.id', 'files.project_id')
    .select('files.sha256')
    .distinct()
    .where('projects.workspace_id', '=', workspaceId)
    .where('projects.deleted_at', 'is', null)
    .execute();
  return rows.map((r) => r.sha256);
}

/** Active sites: not deleted, not taken down, not expired. */
export async function countActiveSites(db: TDb, workspaceId: string | readonly string[], now: number, exceptSiteId?: string): Promise<number> {
  const ids = typeof workspaceId === 'string' ? [workspaceId] : workspaceId;
  if (ids.length === 0) return 0;
  let query = db
    .selectFrom('projects')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('workspace_id', 'in', ids)
    .where('deleted_at', 'is', null)
    .where('taken_down_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  if (exceptSiteId) query = query.where('id', '!=', exceptSiteId);
  const row = await query.executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The owner of a workspace (its first owner by joining, when ownership was shared); null for none. */
export async function ownerOfWorkspace(db: TDb, workspaceId: string): Promise<string | null> {
  const row = await db
    .selectFrom('workspace_members')
    .select('creator_id')
    .where('workspace_id', '=', workspaceId)
    .where('role', '=', 'owner')
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  return row?.creator_id ?? null;
}

/** Every workspace the person owns, with its subscription (the caller decides which are on Free now). */
export async function listFreeCandidateWorkspacesOfOwner(db: TDb, creatorId: string): Promise<Array<{ id: string; subscription: TSubscriptionRow | undefined }>> {
  const owned = await db.selectFrom('workspace_members').select('workspace_id').where('creator_id', '=', creatorId).where('role', '=', 'owner').execute();
  const ids = owned.map((r) => r.workspace_id);
  if (ids.length === 0) return [];
  const subscriptions = await db.selectFrom('subscriptions').selectAll().where('workspace_id', 'in', ids).execute();
  const byWorkspace = new Map(subscriptions.map((row) => [row.workspace_id, row]));
  return ids.map((id) => ({ id, subscription: byWorkspace.get(id) }));
}

/** Members plus invitations still open (not accepted, revoked or expired): the seats a workspace takes of its plan's collaborators. */
export async function countCollaborators(db: TDb, workspaceId: string, now: number): Promise<number> {
  const [members, invitations] = await Promise.all([
    db
      .selectFrom('workspace_members')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst(),
    db
      .selectFrom('workspace_invitations')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst(),
  ]);
  return Number(members?.n ?? 0) + Number(invitations?.n ?? 0);
}

/** Every workspace with a site or a usage row (what a recount visits). */
export async function listCreatorIdsWithUsage(db: TDb): Promise<string[]> {
  const rows = await db
    .selectFrom('workspaces')
    .select('workspaces.id')
    .where((eb) =>
      eb.or([
        eb.exists(eb.selectFrom('projects').select('projects.id').whereRef('projects.workspace_id', '=', 'workspaces.id')),
        eb.exists(eb.selectFrom('usage').select('usage.workspace_id').whereRef('usage.workspace_id', '=', 'workspaces.id')),
      ]),
    )
    .execute();
  return rows.map((r) => r.id);
}
