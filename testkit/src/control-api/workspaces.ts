/** Workspaces for tests: a team workspace with its members in their roles, made directly in the database. */
import type { TWorkspaceRole } from '@dropsite/shared';
import type { TAppDeps } from '@dropsite/control-api';
import { newId } from '@dropsite/control-api/internals';

export async function seedWorkspace(deps: Pick<TAppDeps, 'db' | 'clock'>, input: { name: string; members: ReadonlyArray<{ id: string; role: TWorkspaceRole }> }): Promise<string> {
  const id = newId();
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('workspaces')
      .values({ id, name: input.name, personal: 0, created_by: input.members[0]?.id ?? null, created_at: now, updated_at: now })
      .execute();
    for (const member of input.members) {
      await trx.insertInto('workspace_members').values({ workspace_id: id, creator_id: member.id, role: member.role, invited_by: null, created_at: now }).execute();
    }
  });
  return id;
}
