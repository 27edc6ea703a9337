/**
 * The one check every creator route makes: is the signed-in creator a member of this workspace, in a
 * role the permission map (shared `WORKSPACE_PERMISSIONS`) allows this action? The membership is read
 * from the database on every call, never cached, so a removed member or a changed role takes effect at
 * their next request. A non-member gets 404 (the workspace's things are not theirs to know of); a
 * member whose role lacks the permission, 403.
 */
import { roleAllows, WORKSPACE_PERMISSIONS, type TWorkspacePermission, type TWorkspaceRole } from '@dropsite/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import { AppError } from '../http/app-error.ts';
import { requireSignedInCreator, type TPrincipal, type TSignedInCreator } from '../access/principal.ts';

export const WORKSPACE_NOT_FOUND = 'Workspace not found';

export interface TWorkspaceAccess {
  creator: TSignedInCreator;
  workspaceId: string;
  role: TWorkspaceRole;
}

/** The caller's role in the workspace, or null when they are not a member. */
export async function roleIn(db: Kysely<Database>, workspaceId: string, creatorId: string): Promise<TWorkspaceRole | null> {
  const row = await db.selectFrom('workspace_members').select('role').where('workspace_id', '=', workspaceId).where('creator_id', '=', creatorId).executeTakeFirst();
  return row?.role ?? null;
}

/** The words a 403 uses: which roles may do it. */
export function permissionRefusal(permission: TWorkspacePermission): string {
  const roles = WORKSPACE_PERMISSIONS[permission].map((role) => `${role}s`);
  const who = roles.length === 1 ? roles[0]! : `${roles.slice(0, -1).join(', ')} and ${roles.at(-1)!}`;
  return `Only the workspace's ${who} can do this`;
}

/** The signed-in caller's access to the workspace for this permission; 401 signed out, 404 not a member, 403 not allowed. */
export async function requireWorkspacePermission(
  db: Kysely<Database>,
  principal: TPrincipal,
  workspaceId: string,
  permission: TWorkspacePermission,
  notFoundMessage: string = WORKSPACE_NOT_FOUND,
): Promise<TWorkspaceAccess> {
  const creator = await requireSignedInCreator(principal);
  const role = await roleIn(db, workspaceId, creator.id);
  if (!role) throw new AppError('not_found', notFoundMessage);
  if (!roleAllows(role, permission)) throw new AppError('forbidden', permissionRefusal(permission));
  return { creator, workspaceId, role };
}
