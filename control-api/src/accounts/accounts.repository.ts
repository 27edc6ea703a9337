/** Creator accounts and their one-time tokens: the only module that queries creators and account_tokens. */
import type { ExpressionBuilder, Kysely, Selectable, Transaction } from 'kysely';
import type { AccountTokensTable, CreatorsTable, Database, TAccountTokenPurpose } from '../db/tables.ts';
import { insertPersonalWorkspace } from '../workspaces/workspaces.repository.ts';

type TDb = Kysely<Database> | Transaction<Database>;

export type TCreatorRow = Selectable<CreatorsTable>;
export type TAccountTokenRow = Selectable<AccountTokensTable>;

/**
 * A new account, with its personal workspace (id = the account's, named after it or 'Personal') and
 * the account as that workspace's owner, in one transaction (the caller's, when it passes one): no
 * account ever exists without its workspace. Every place that makes an account (sign-up, a pending
 * sign-up's link, test seeding) goes through here.
 */
export async function insertCreator(
  db: TDb,
  row: { id: string; email: string; name: string; passwordHash: string | null; emailVerifiedAt: number | null; now: number },
): Promise<void> {
  if (db.isTransaction) await insertCreatorRows(db, row);
  else await db.transaction().execute((trx) => insertCreatorRows(trx, row));
}

async function insertCreatorRows(
  db: TDb,
  row: { id: string; email: string; name: string; passwordHash: string | null; emailVerifiedAt: number | null; now: number },
): Promise<void> {
  await db
    .insertInto('creators')
    .values({
      id: row.id,
      email: row.email,
      name: row.name,
      avatar_url: '',
      external_user_id: null,
      password_hash: row.passwordHash,
      created_at: row.now,
      updated_at: row.now,
      email_verified_at: row.emailVerifiedAt,
    })
    .execute();
  await insertPersonalWorkspace(db, { id: row.id, name: row.name, now: row.now });
}

export async function findCreatorById(db: TDb, id: string): Promise<TCreatorRow | null> {
  return (await db.selectFrom('creators').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

export async function findCreatorByEmail(db: TDb, email: string): Promise<TCreatorRow | null> {
  return (await db.selectFrom('creators').selectAll().where('email', '=', email).executeTakeFirst()) ?? null;
}

export async function updateCreator(
  db: TDb,
  id: string,
  changes: { name?: string; email?: string; passwordHash?: string | null; emailVerifiedAt?: number | null; now: number },
): Promise<void> {
  await db
    .updateTable('creators')
    .set({
      updated_at: changes.now,
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.email !== undefined ? { email: changes.email } : {}),
      ...(changes.passwordHash !== undefined ? { password_hash: changes.passwordHash } : {}),
      ...(changes.emailVerifiedAt !== undefined ? { email_verified_at: changes.emailVerifiedAt } : {}),
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteCreatorRow(db: TDb, id: string): Promise<void> {
  await db.deleteFrom('creators').where('id', '=', id).execute();
}

export async function insertAccountToken(
  db: TDb,
  row: {
    id: string;
    tokenHash: string;
    purpose: TAccountTokenPurpose;
    creatorId: string | null;
    email: string;
    anonymousSessionId: string | null;
    returnTo: string | null;
    /** A sign-up's link: what the account is made with when the link is first used. */
    signUp?: { name: string; passwordHash: string } | null;
    now: number;
    expiresAt: number;
  },
): Promise<void> {
  await db
    .insertInto('account_tokens')
    .values({
      id: row.id,
      token_hash: row.tokenHash,
      purpose: row.purpose,
      creator_id: row.creatorId,
      email: row.email,
      anonymous_session_id: row.anonymousSessionId,
      return_to: row.returnTo,
      sign_up_name: row.signUp?.name ?? null,
      sign_up_password_hash: row.signUp?.passwordHash ?? null,
      created_at: row.now,
      expires_at: row.expiresAt,
      used_at: null,
    })
    .execute();
}

/**
 * Uses a token: marks it used if it is of this purpose, unused and not expired, in one conditional
 * UPDATE (two racing uses: one wins), and returns it; null otherwise.
 */
export async function useAccountToken(db: TDb, tokenHash: string, purpose: TAccountTokenPurpose, now: number): Promise<TAccountTokenRow | null> {
  const result = await db
    .updateTable('account_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return null;
  return (await db.selectFrom('account_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst()) ?? null;
}

/**
 * Ends every unused token of an account, whatever its purpose (a recovery step, a completed address
 * change). The links that undo an address change are kept unless `undoLinksToo`: they belong to the
 * account's previous address, and whoever holds the account now must not be able to end them.
 */
export async function expireUnusedTokensOfAccount(db: TDb, creatorId: string, now: number, options: { undoLinksToo?: boolean } = {}): Promise<void> {
  let query = db.updateTable('account_tokens').set({ used_at: now }).where('creator_id', '=', creatorId).where('used_at', 'is', null);
  if (!options.undoLinksToo) query = query.where('purpose', '!=', 'email_change_undo');
  await query.execute();
}

/** Ends the address changes still waiting for their confirmation link (cancelled, or replaced by a new one). */
export async function expirePendingEmailChanges(db: TDb, creatorId: string, currentEmail: string, now: number): Promise<number> {
  const result = await db
    .updateTable('account_tokens')
    .set({ used_at: now })
    .where('creator_id', '=', creatorId)
    .where('purpose', '=', 'verify_email')
    .where('email', '!=', currentEmail)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A token of this purpose that could still be used (unused, not expired), without using it; null otherwise. */
export async function findUsableAccountToken(db: TDb, tokenHash: string, purpose: TAccountTokenPurpose, now: number): Promise<TAccountTokenRow | null> {
  const row = await db
    .selectFrom('account_tokens')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Whether an address is the previous one of an account that may still take it back (an unused,
 * unexpired undo link); that account itself (`exceptCreatorId`) may move back to it.
 */
export async function isAddressHeldForUndo(db: TDb, email: string, now: number, exceptCreatorId?: string): Promise<boolean> {
  let query = db
    .selectFrom('account_tokens')
    .select('id')
    .where('email', '=', email)
    .where('purpose', '=', 'email_change_undo')
    .where('used_at', 'is', null)
    .where('expires_at', '>', now);
  if (exceptCreatorId !== undefined) query = query.where('creator_id', '!=', exceptCreatorId);
  const row = await query.executeTakeFirst();
  return row !== undefined;
}

/** Ends the unused tokens of a purpose sent to an address (a new reset link supersedes older ones; none when the address has no account). */
export async function expireAccountTokensTo(db: TDb, email: string, purpose: TAccountTokenPurpose, now: number): Promise<void> {
  await db.updateTable('account_tokens').set({ used_at: now }).where('email', '=', email).where('purpose', '=', purpose).where('used_at', 'is', null).execute();
}

/**
 * The sites an account published into other people's workspaces stay there (they are the workspace's):
 * only the record of who published them goes, so deleting the account deletes none of them.
 */
export async function keepTeamSitesOfCreator(db: TDb, creatorId: string): Promise<void> {
  await db
    .updateTable('projects')
    .set({ owner_creator_id: null })
    .where('owner_creator_id', '=', creatorId)
    .where('workspace_id', 'is not', null)
    .where('workspace_id', '!=', creatorId)
    .execute();
}

/** The account's memberships of every workspace (its own personal one included). */
export async function deleteMembershipsOfCreator(db: TDb, creatorId: string): Promise<void> {
  await db.deleteFrom('workspace_members').where('creator_id', '=', creatorId).execute();
}

/** The sites that go with an account: those of its personal workspace (whoever published them) and any it owns outside a workspace. */
function sitesGoingWith(creatorId: string) {
  return (eb: ExpressionBuilder<Database, 'projects'>) =>
    eb.or([eb('workspace_id', '=', creatorId), eb.and([eb('owner_creator_id', '=', creatorId), eb('workspace_id', 'is', null)])]);
}

/** The slugs of the sites that go with the account (deleted ones too: their public copies are removed with the account). */
export async function listSlugsOfCreator(db: TDb, creatorId: string): Promise<string[]> {
  const rows = await db.selectFrom('projects').select('slug').where(sitesGoingWith(creatorId)).execute();
  return rows.map((r) => r.slug);
}

/** The team workspaces whose only owner the account is: it cannot go while they would be left without one. */
export async function listTeamWorkspacesOwnedAlone(db: TDb, creatorId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('workspaces as w')
    .innerJoin('workspace_members as m', 'm.workspace_id', 'w.id')
    .select('w.name')
    .where('m.creator_id', '=', creatorId)
    .where('m.role', '=', 'owner')
    .where('w.personal', '=', 0)
    .where((eb) =>
      eb(
        eb
          .selectFrom('workspace_members as o')
          .select((o) => o.fn.countAll<number>().as('n'))
          .whereRef('o.workspace_id', '=', 'w.id')
          .where('o.role', '=', 'owner'),
        '=',
        1,
      ),
    )
    .orderBy('w.name')
    .execute();
  return rows.map((r) => r.name);
}

/**
 * A deleted account's sites: deleted (404 at once) and given an expiry the sweeper removes them by
 * (files, derived images, rows); no longer the creator's, so deleting the creator row cascades to none of them.
 */
export async function releaseSitesOfCreator(db: TDb, creatorId: string, at: { deletedAt: number; expiresAt: number }): Promise<void> {
  await db
    .updateTable('projects')
    .set({ owner_creator_id: null, workspace_id: null, deleted_at: at.deletedAt, expires_at: at.expiresAt, updated_at: at.deletedAt })
    .where(sitesGoingWith(creatorId))
    .execute();
}

/** The newest address change still waiting for its confirmation link, or null. */
export async function findPendingEmailChange(db: TDb, creatorId: string, currentEmail: string, now: number): Promise<string | null> {
  const row = await db
    .selectFrom('account_tokens')
    .select('email')
    .where('creator_id', '=', creatorId)
    .where('purpose', '=', 'verify_email')
    .where('email', '!=', currentEmail)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.email ?? null;
}

/** Removes one-time tokens that expired before `before` (used or not, they can do nothing any more). */
export async function deleteAccountTokensExpiredBefore(db: TDb, before: number): Promise<number> {
  const result = await db.deleteFrom('account_tokens').where('expires_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
