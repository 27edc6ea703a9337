/** Workspaces and their memberships as this area reads and writes them (members' own routes live beside it). */
import type { TWorkspaceRole } from '@dropsite/shared';
import type { Kysely, Selectable } from 'kysely';
import type { Database, WorkspacesTable } from '../db/tables.ts';

type TDb = Kysely<Database>;

type TWorkspaceRow = Selectable<WorkspacesTable>;

/** An account's personal workspace (id = the account's id), with the account as its owner. */
export async function insertPersonalWorkspace(db: TDb, account: { id: string; name: string; now: number }): Promise<void> {
  const name = account.name.trim() === '' ? 'Personal' : account.name.trim();
  await db.insertInto('workspaces').values({ id: account.id, name, personal: 1, created_by: account.id, created_at: account.now, updated_at: account.now }).execute();
  await db.insertInto('workspace_members').values({ workspace_id: account.id, creator_id: account.id, role: 'owner', invited_by: null, created_at: account.now }).execute();
}

/** A team workspace with its maker as owner. */
export async function insertTeamWorkspace(db: TDb, input: { id: string; name: string; creatorId: string; now: number }): Promise<void> {
  await db.insertInto('workspaces').values({ id: input.id, name: input.name, personal: 0, created_by: input.creatorId, created_at: input.now, updated_at: input.now }).execute();
  await db.insertInto('workspace_members').values({ workspace_id: input.id, creator_id: input.creatorId, role: 'owner', invited_by: null, created_at: input.now }).execute();
}

export async function findWorkspace(db: TDb, id: string): Promise<TWorkspaceRow | undefined> {
  return db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function renameWorkspace(db: TDb, id: string, name: string, now: number): Promise<void> {
  await db.updateTable('workspaces').set({ name, updated_at: now }).where('id', '=', id).execute();
}

export interface TMembershipRow {
  id: string;
  name: string;
  personal: number;
  role: TWorkspaceRole;
  member_count: number;
}

/** The creator's workspaces with their role and member count: the personal one first, then by name. */
export async function listWorkspacesOfMember(db: TDb, creatorId: string): Promise<TMembershipRow[]> {
  const rows = await db
    .selectFrom('workspace_members as m')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .select((eb) => [
      'w.id',
      'w.name',
      'w.personal',
      'm.role',
      eb
        .selectFrom('workspace_members as c')
        .select((c) => c.fn.countAll<number | string>().as('n'))
        .whereRef('c.workspace_id', '=', 'w.id')
        .as('member_count'),
    ])
    .where('m.creator_id', '=', creatorId)
    .orderBy('w.personal', 'desc')
    .orderBy('w.name')
    .orderBy('w.id')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, personal: Number(r.personal), role: r.role, member_count: Number(r.member_count ?? 0) }));
}

/** The ids of the workspace's sites that are not deleted yet (a deleted one's rows go with the sweep). */
export async function listLiveSiteIdsOfWorkspace(db: TDb, workspaceId: string): Promise<string[]> {
  const rows = await db.selectFrom('projects').select('id').where('workspace_id', '=', workspaceId).where('deleted_at', 'is', null).execute();
  return rows.map((r) => r.id);
}

/** The workspace's subscription, as far as deleting the workspace cares: does a paid plan still bill? */
export async function findBillingStateOfWorkspace(db: TDb, workspaceId: string): Promise<{ plan_id: string; status: string; stripe_subscription_id: string | null } | undefined> {
  return db.selectFrom('subscriptions').select(['plan_id', 'status', 'stripe_subscription_id']).where('workspace_id', '=', workspaceId).executeTakeFirst();
}

/**
 * Removes the workspace's own rows: members, invitations, subscription, usage, audit events and the
 * workspace itself (its sites were deleted first, the way a site's deletion does it). Sites already
 * deleted and waiting for the sweep lose the link to it.
 */
export async function deleteWorkspaceRows(db: TDb, workspaceId: string): Promise<void> {
  await db.updateTable('projects').set({ workspace_id: null }).where('workspace_id', '=', workspaceId).where('deleted_at', 'is not', null).execute();
  await db.deleteFrom('workspace_members').where('workspace_id', '=', workspaceId).execute();
  await db.deleteFrom('workspace_invitations').where('workspace_id', '=', workspaceId).execute();
  await db.deleteFrom('subscriptions').where('workspace_id', '=', workspaceId).execute();
  await db.deleteFrom('usage').where('workspace_id', '=', workspaceId).execute();
  await db.deleteFrom('audit_events').where('workspace_id', '=', workspaceId).execute();
  await db.updateTable('auth_sessions').set({ current_workspace_id: null }).where('current_workspace_id', '=', workspaceId).execute();
  await db.deleteFrom('workspaces').where('id', '=', workspaceId).execute();
}
