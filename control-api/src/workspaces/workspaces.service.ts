/**
 * The caller's workspaces (docs/api.md 'Workspaces'): list them, make a team workspace, switch the
 * dashboard to another one, rename one and delete one with everything it owns. Every call checks the
 * caller's role through the permission map (requireWorkspacePermission), the membership read fresh.
 */
import { permissionsOf, type TWorkspaceList, type TWorkspaceSummary } from '@dropsite/shared';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/tables.ts';
import { newId } from '../db/ids.ts';
import { AppError } from '../http/app-error.ts';
import { requireSignedInCreator, type TPrincipal } from '../access/principal.ts';
import { recordAuditEvent } from './audit-log.repository.ts';
import { currentWorkspaceIdOf, setCurrentWorkspace } from './current-workspace.ts';
import { requireWorkspacePermission, roleIn, WORKSPACE_NOT_FOUND } from './workspace-access.ts';
import {
  deleteWorkspaceRows,
  findBillingStateOfWorkspace,
  findWorkspace,
  insertTeamWorkspace,
  listLiveSiteIdsOfWorkspace,
  listWorkspacesOfMember,
  renameWorkspace,
  type TMembershipRow,
} from './workspaces.repository.ts';

interface TDeps {
  db: Kysely<Database>;
  clock: Clock;
}

export const PERSONAL_WORKSPACE_UNDELETABLE = 'Your personal workspace cannot be deleted: it goes only with your account';
export const CONFIRM_WORKSPACE_NAME_MISMATCH = "Type the workspace's name exactly to delete it";
export const PAID_WORKSPACE_UNDELETABLE = "This workspace's paid plan is still running: cancel it in the billing portal first, then delete the workspace";

function summaryOf(row: TMembershipRow): TWorkspaceSummary {
  return { id: row.id, name: row.name, personal: row.personal === 1, role: row.role, memberCount: row.member_count, permissions: permissionsOf(row.role) };
}

/** The caller's workspaces and the one their dashboard shows. */
export async function listWorkspaces(deps: TDeps, principal: TPrincipal): Promise<TWorkspaceList> {
  const creator = await requireSignedInCreator(principal);
  const [rows, currentWorkspaceId] = await Promise.all([listWorkspacesOfMember(deps.db, creator.id), currentWorkspaceIdOf(deps.db, creator)]);
  return { currentWorkspaceId, workspaces: rows.map(summaryOf) };
}

/** A new team workspace, the caller its owner (not made current: the dashboard switches to it when asked). */
export async function createWorkspace(deps: TDeps, principal: TPrincipal, name: string): Promise<TWorkspaceSummary> {
  const creator = await requireSignedInCreator(principal);
  const id = newId();
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await insertTeamWorkspace(trx, { id, name, creatorId: creator.id, now });
    await recordAuditEvent(trx, {
      workspaceId: id,
      type: 'workspace.created',
      actor: { creatorId: creator.id, name: creator.name },
      target: name,
      details: `Workspace “${name}” created`,
      address: principal.address,
      at: now,
    });
  });
  return { id, name, personal: false, role: 'owner', memberCount: 1, permissions: permissionsOf('owner') };
}

/** Switches the session's dashboard to a workspace the caller is a member of (404 otherwise). */
export async function switchWorkspace(deps: TDeps, principal: TPrincipal, workspaceId: string): Promise<TWorkspaceList> {
  const creator = await requireSignedInCreator(principal);
  if ((await roleIn(deps.db, workspaceId, creator.id)) === null) throw new AppError('not_found', WORKSPACE_NOT_FOUND);
  await setCurrentWorkspace(deps.db, creator.sessionId, workspaceId === creator.id ? null : workspaceId);
  return listWorkspaces(deps, principal);
}

export async function renameOwnWorkspace(deps: TDeps, principal: TPrincipal, workspaceId: string, name: string): Promise<TWorkspaceSummary> {
  const access = await requireWorkspacePermission(deps.db, principal, workspaceId, 'settings.manage');
  const workspace = await findWorkspace(deps.db, workspaceId);
  if (!workspace) throw new AppError('not_found', WORKSPACE_NOT_FOUND);
  const now = deps.clock.now();
  if (workspace.name !== name) {
    await deps.db.transaction().execute(async (trx) => {
      await renameWorkspace(trx, workspaceId, name, now);
      await recordAuditEvent(trx, {
        workspaceId,
        type: 'workspace.renamed',
        actor: { creatorId: access.creator.id, name: access.creator.name },
        target: name,
        details: `Renamed from “${workspace.name}” to “${name}”`,
        address: principal.address,
        at: now,
      });
    });
  }
  const row = (await listWorkspacesOfMember(deps.db, access.creator.id)).find((w) => w.id === workspaceId);
  if (!row) throw new AppError('not_found', WORKSPACE_NOT_FOUND);
  return summaryOf(row);
}

/** A paid plan that still bills (or may): it must be cancelled before its workspace goes. */
function isPaidPlanRunning(state: { plan_id: string; status: string; stripe_subscription_id: string | null } | undefined): boolean {
  return state !== undefined && state.plan_id !== 'free' && state.stripe_subscription_id !== null && state.status !== 'cancelled';
}

/**
 * Deletes a team workspace (its owner only, its name typed again): each of its sites is deleted the
 * way deleting a site does it (off the edge at once, storage and rows with the sweep), then its
 * members, invitations, subscription, usage and audit events go. A personal workspace is refused
 * (400), and so is one whose paid plan still runs (409).
 */
export async function deleteOwnWorkspace(
  deps: TDeps,
  principal: TPrincipal,
  workspaceId: string,
  confirmName: string,
  deleteSite: (siteId: string) => Promise<void>,
): Promise<void> {
  await requireWorkspacePermission(deps.db, principal, workspaceId, 'workspace.delete');
  const workspace = await findWorkspace(deps.db, workspaceId);
  if (!workspace) throw new AppError('not_found', WORKSPACE_NOT_FOUND);
  if (workspace.personal === 1) throw new AppError('bad_request', PERSONAL_WORKSPACE_UNDELETABLE);
  if (confirmName.trim() !== workspace.name) throw new AppError('bad_request', CONFIRM_WORKSPACE_NAME_MISMATCH);
  if (isPaidPlanRunning(await findBillingStateOfWorkspace(deps.db, workspaceId))) throw new AppError('conflict', PAID_WORKSPACE_UNDELETABLE);
  for (const siteId of await listLiveSiteIdsOfWorkspace(deps.db, workspaceId)) await deleteSite(siteId);
  await deps.db.transaction().execute((trx) => deleteWorkspaceRows(trx, workspaceId));
}
