/**
 * The workspace a signed-in session's dashboard shows: the one the session switched to
 * (auth_sessions.current_workspace_id) while its creator is still a member of it, else the creator's
 * personal workspace (whose id is the creator's own). Lists and creation (the sites list, publishing,
 * claiming, billing) act on it; a given site is checked against its own workspace instead.
 */
import type { TWorkspacePermission } from '@dropsite/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import { requireSignedInCreator, type TPrincipal, type TSignedInCreator } from '../access/principal.ts';
import { requireWorkspacePermission, roleIn, type TWorkspaceAccess } from './workspace-access.ts';

type TDb = Kysely<Database>;

/** The id of the session's current workspace (membership read now; a lost one falls back to the personal workspace). */
export async function currentWorkspaceIdOf(db: TDb, creator: Pick<TSignedInCreator, 'id' | 'sessionId'>): Promise<string> {
  const row = await db.selectFrom('auth_sessions').select('current_workspace_id').where('id', '=', creator.sessionId).executeTakeFirst();
  const chosen = row?.current_workspace_id ?? null;
  if (chosen !== null && chosen !== creator.id && (await roleIn(db, chosen, creator.id)) !== null) return chosen;
  // The personal workspace: its id is the account's.
  return creator.id;
}

/** The signed-in caller's current workspace, checked for the permission (401 signed out, 403 a role without it). */
export async function requireCurrentWorkspace(db: Kysely<Database>, principal: TPrincipal, permission: TWorkspacePermission): Promise<TWorkspaceAccess> {
  const creator = await requireSignedInCreator(principal);
  return requireWorkspacePermission(db, principal, await currentWorkspaceIdOf(db, creator), permission);
}

/** Makes the workspace the session's current one (the caller checked the membership); null: the personal workspace. */
export async function setCurrentWorkspace(db: TDb, sessionId: string, workspaceId: string | null): Promise<void> {
  await db.updateTable('auth_sessions').set({ current_workspace_id: workspaceId }).where('id', '=', sessionId).execute();
}
