/** Notification addresses and their confirmation state: the only module that queries those rows. */
import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { Database, EmailAddressesTable } from '../db/tables.ts';

type TDb = Kysely<Database> | Transaction<Database>;

export type TEmailAddressRow = Selectable<EmailAddressesTable>;
export type TEmailAddressStatus = TEmailAddressRow['status'];

/** An account's email and whether its owner confirmed it by link: the account's address as a notification recipient. */
export async function findAccountAddress(db: TDb, creatorId: string): Promise<{ email: string; confirmed: boolean } | null> {
  const row = await db.selectFrom('creators').select(['email', 'email_verified_at']).where('id', '=', creatorId).executeTakeFirst();
  return row ? { email: row.email, confirmed: row.email_verified_at !== null } : null;
}

export async function findEmailAddress(db: TDb, email: string, ownerKey: string): Promise<TEmailAddressRow | null> {
  return (await db.selectFrom('email_addresses').selectAll().where('email', '=', email).where('owner_key', '=', ownerKey).executeTakeFirst()) ?? null;
}

export async function findEmailAddressById(db: TDb, id: string): Promise<TEmailAddressRow | null> {
  return (await db.selectFrom('email_addresses').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

export async function findEmailAddressByTokenHash(db: TDb, tokenHash: string): Promise<TEmailAddressRow | null> {
  return (await db.selectFrom('email_addresses').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst()) ?? null;
}

type TNewAddress = { id: string; email: string; ownerKey: string; now: number };

/** A new address of an owner: pending (a confirmation asked for now) or confirmed now. */
function newAddressRow(row: TNewAddress, status: 'pending' | 'confirmed'): Insertable<EmailAddressesTable> {
  return {
    id: row.id,
    email: row.email,
    owner_key: row.ownerKey,
    status,
    token_hash: null,
    token_expires_at: null,
    confirm_requested_at: status === 'pending' ? row.now : null,
    confirm_sent_at: null,
    confirmed_at: status === 'confirmed' ? row.now : null,
    unsubscribed_at: null,
    created_at: row.now,
    updated_at: row.now,
  };
}

/** Adds a pending address owing a confirmation; an address already known is left as it is. */
export async function insertPendingEmailAddress(db: TDb, row: TNewAddress): Promise<void> {
  await db
    .insertInto('email_addresses')
    .values(newAddressRow(row, 'pending'))
    .onConflict((oc) => oc.columns(['email', 'owner_key']).doNothing())
    .execute();
}

/** Asks for a confirmation of a pending address again (its owner gave it once more). */
export async function markConfirmationOwed(db: TDb, id: string, now: number): Promise<void> {
  await db
    .updateTable('email_addresses')
    .set({ confirm_requested_at: now, confirm_attempts: 0, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('confirm_requested_at', 'is', null)
    .execute();
}

/** Pending addresses owing a confirmation message, oldest request first. */
export async function listOwedConfirmations(db: TDb, limit: number): Promise<TEmailAddressRow[]> {
  return db
    .selectFrom('email_addresses')
    .selectAll()
    .where('confirm_requested_at', 'is not', null)
    .where('status', '=', 'pending')
    .orderBy('confirm_requested_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Confirmation messages sent to this address (for any creator) since `since`. */
export async function countConfirmationsSentTo(db: TDb, email: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('email_addresses')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('email', '=', email)
    .where('confirm_sent_at', '>=', since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Claims an owed confirmation for sending, in one statement: the new token's hash replaces any
 * earlier one. False when another process claimed it first (or it is no longer owed).
 */
export async function claimOwedConfirmation(db: TDb, claim: { id: string; tokenHash: string; expiresAt: number; now: number }): Promise<boolean> {
  const result = await db
    .updateTable('email_addresses')
    .set({ token_hash: claim.tokenHash, token_expires_at: claim.expiresAt, confirm_sent_at: claim.now, confirm_requested_at: null, updated_at: claim.now })
    .where('id', '=', claim.id)
    .where('status', '=', 'pending')
    .where('confirm_requested_at', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** After a failed send: owed again (unless `maxAttempts` is reached), the unsent token forgotten. */
export async function releaseConfirmation(db: TDb, release: { id: string; previousSentAt: number | null; maxAttempts: number; now: number }): Promise<void> {
  await db
    .updateTable('email_addresses')
    .set((eb) => ({
      confirm_attempts: eb('confirm_attempts', '+', 1),
      confirm_sent_at: release.previousSentAt,
      token_hash: null,
      token_expires_at: null,
      confirm_requested_at: eb
        .case()
        .when('confirm_attempts', '>=', release.maxAttempts - 1)
        .then(null)
        .else(release.now)
        .end(),
      updated_at: release.now,
    }))
    .where('id', '=', release.id)
    .execute();
}

/** Drops a request that may not be sent now (rate limited); the owner can ask again later. */
export async function dropOwedConfirmation(db: TDb, id: string, now: number): Promise<void> {
  await db.updateTable('email_addresses').set({ confirm_requested_at: null, updated_at: now }).where('id', '=', id).execute();
}

/** Sets an address confirmed (the token is used up) or unsubscribed. */
export async function setEmailAddressStatus(db: TDb, id: string, status: Exclude<TEmailAddressStatus, 'pending'>, now: number): Promise<void> {
  await db
    .updateTable('email_addresses')
    .set(
      status === 'confirmed'
        ? { status, confirmed_at: now, unsubscribed_at: null, token_hash: null, token_expires_at: null, confirm_requested_at: null, updated_at: now }
        : { status, unsubscribed_at: now, token_hash: null, token_expires_at: null, confirm_requested_at: null, updated_at: now },
    )
    .where('id', '=', id)
    .execute();
}

/** Distinct addresses `requester` asked us to write to on `day`, and whether `email` is one of them. */
export async function countRecipientRequests(db: TDb, requester: string, day: number, email: string): Promise<{ count: number; includes: boolean }> {
  const rows = await db.selectFrom('email_recipient_requests').select('email').where('requester', '=', requester).where('day', '=', day).execute();
  return { count: rows.length, includes: rows.some((r) => r.email === email) };
}

export async function insertRecipientRequest(db: TDb, row: { requester: string; day: number; email: string; now: number }): Promise<void> {
  await db
    .insertInto('email_recipient_requests')
    .values({ requester: row.requester, day: row.day, email: row.email, created_at: row.now })
    .onConflict((oc) => oc.columns(['requester', 'day', 'email']).doNothing())
    .execute();
}

/** Forgets the counts of days before `day`. */
export async function deleteRecipientRequestsBefore(db: TDb, day: number): Promise<void> {
  await db.deleteFrom('email_recipient_requests').where('day', '<', day).execute();
}

/** The live sites of the owner a confirmation covers (`creator:…`, `anon:…` or `project:…`), for naming them on its pages. */
export async function listSitesOfOwner(db: TDb, ownerKey: string): Promise<Array<{ id: string; title: string; settings: string }>> {
  const colon = ownerKey.indexOf(':');
  const kind = ownerKey.slice(0, colon);
  const id = ownerKey.slice(colon + 1);
  const column = kind === 'creator' ? 'owner_creator_id' : kind === 'anon' ? 'anonymous_session_id' : kind === 'project' ? 'id' : null;
  if (!column || !id) return [];
  return db
    .selectFrom('projects')
    .select(['id', 'title', 'settings'])
    .where(column, '=', id)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .limit(200)
    .execute();
}

/**
 * Sites changed owner (an anonymous session claimed into an account): the addresses the old owner
 * confirmed, and those that unsubscribed, count for the new owner too, so notifications neither stop
 * nor start again against someone's wish. An address the new owner already has keeps its own state.
 */
export async function carryEmailAddressStates(db: TDb, fromOwnerKey: string, toOwnerKey: string, now: number, newId: () => string): Promise<void> {
  const rows = await db.selectFrom('email_addresses').selectAll().where('owner_key', '=', fromOwnerKey).where('status', 'in', ['confirmed', 'unsubscribed']).execute();
  if (rows.length === 0) return;
  await db
    .insertInto('email_addresses')
    .values(
      rows.map((row) => ({
        id: newId(),
        email: row.email,
        owner_key: toOwnerKey,
        status: row.status,
        token_hash: null,
        token_expires_at: null,
        confirm_requested_at: null,
        confirm_sent_at: row.confirm_sent_at,
        confirmed_at: row.confirmed_at,
        unsubscribed_at: row.unsubscribed_at,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict((oc) => oc.columns(['email', 'owner_key']).doNothing())
    .execute();
}

/** Forgets every address of an owner (its account was deleted). */
export async function deleteEmailAddressesOfOwner(db: TDb, ownerKey: string): Promise<void> {
  await db.deleteFrom('email_addresses').where('owner_key', '=', ownerKey).execute();
}

/**
 * An address proven by other means (an account's address, verified by its link) counts as
 * confirmed for that owner: a new row is confirmed, a pending one becomes confirmed, an
 * unsubscribed one stays unsubscribed.
 */
export async function confirmEmailAddressOfOwner(db: TDb, row: TNewAddress): Promise<void> {
  await db
    .insertInto('email_addresses')
    .values(newAddressRow(row, 'confirmed'))
    .onConflict((oc) =>
      oc
        .columns(['email', 'owner_key'])
        .doUpdateSet({ status: 'confirmed', confirmed_at: row.now, token_hash: null, token_expires_at: null, confirm_requested_at: null, updated_at: row.now })
        .where('email_addresses.status', '=', 'pending'),
    )
    .execute();
}
