/** The caller's workspaces (docs/api.md 'Workspaces'): list, create, switch, rename, delete. */
import {
  ZCreateWorkspaceRequestSchema,
  ZDeleteWorkspaceRequestSchema,
  ZRenameWorkspaceRequestSchema,
  ZSwitchWorkspaceRequestSchema,
  ZWorkspaceListSchema,
  ZWorkspaceSummarySchema,
} from '@dropsite/shared';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/tables.ts';
import { principalOf } from '../access/principal.ts';
import { limitByAddress, type TRequestLimits } from '../access/request-limits.ts';
import { createApiRouters, type TApiRouters } from '../http/api-routers.ts';
import { createWorkspace, deleteOwnWorkspace, listWorkspaces, renameOwnWorkspace, switchWorkspace } from './workspaces.service.ts';

const PRIVATE = 'private, no-store';

export interface TWorkspacesDeps {
  db: Kysely<Database>;
  clock: Clock;
  limits: { requests: TRequestLimits };
}

/** What deleting a workspace needs from the sites area: delete one site the way its owner's deletion does (storage, rows, public copies). */
export interface TWorkspaceSiteRemover {
  deleteSite(siteId: string): Promise<void>;
}

export function createWorkspaceRoutes(deps: TWorkspacesDeps, sites: TWorkspaceSiteRemover): TApiRouters {
  const routes = createApiRouters();
  const limitReads = limitByAddress(deps.limits.requests.reads);
  const limitWrites = limitByAddress(deps.limits.requests.writes);
  const router = routes.at('/api/workspaces');

  router.get('/', limitReads, async (_req, res) => {
    const list = ZWorkspaceListSchema.parse(await listWorkspaces(deps, principalOf(res)));
    res.set('Cache-Control', PRIVATE).json(list);
  });

  router.post('/', limitWrites, async (req, res) => {
    const input = ZCreateWorkspaceRequestSchema.parse(req.body ?? {});
    const workspace = ZWorkspaceSummarySchema.parse(await createWorkspace(deps, principalOf(res), input.name));
    res.status(201).set('Cache-Control', PRIVATE).json(workspace);
  });

  router.put('/current', limitWrites, async (req, res) => {
    const input = ZSwitchWorkspaceRequestSchema.parse(req.body ?? {});
    const list = ZWorkspaceListSchema.parse(await switchWorkspace(deps, principalOf(res), input.workspaceId));
    res.set('Cache-Control', PRIVATE).json(list);
  });

  router.patch('/:id', limitWrites, async (req, res) => {
    const input = ZRenameWorkspaceRequestSchema.parse(req.body ?? {});
    const workspace = ZWorkspaceSummarySchema.parse(await renameOwnWorkspace(deps, principalOf(res), String(req.params.id), input.name));
    res.set('Cache-Control', PRIVATE).json(workspace);
  });

  router.delete('/:id', limitWrites, async (req, res) => {
    const input = ZDeleteWorkspaceRequestSchema.parse(req.body ?? {});
    await deleteOwnWorkspace(deps, principalOf(res), String(req.params.id), input.confirmName, (siteId) => sites.deleteSite(siteId));
    res.status(204).set('Cache-Control', PRIVATE).end();
  });

  return routes.routers;
}
