/**
 * A workspace's people and record: members, invitations (sent from the members page, opened from the
 * emailed link) and the audit log. Each route names its permission in the service it calls
 * (requireWorkspacePermission); answers are private and never cached.
 */
import type { RequestHandler } from 'express';
import { ZAuditPageSchema, ZInvitationPreviewSchema, ZWorkspaceInvitationSchema, ZWorkspaceMemberSchema, ZWorkspaceListSchema, ZWorkspaceMembersSchema } from '@dropsite/shared';
import { principalOf } from '../access/principal.ts';
import { limitByAddress, type TRequestLimits } from '../access/request-limits.ts';
import { contentDisposition } from '../http/content-disposition.ts';
import { createApiRouters, type TApiRouters } from '../http/api-routers.ts';
import { exportAuditLogCsv, readAuditLog } from './audit-log.service.ts';
import { listWorkspaces } from '../workspaces/workspaces.service.ts';
import { acceptInvitation, changeMemberRole, inviteMember, listMembers, previewInvitation, removeMember, revokeInvitation, type TMembersDeps } from './members.service.ts';

const PRIVATE = 'private, no-store';

export function createWorkspaceMemberRoutes(deps: TMembersDeps & { limits: { requests: TRequestLimits } }): TApiRouters {
  const routes = createApiRouters();
  const limitReads = limitByAddress(deps.limits.requests.reads);
  const limitWrites = limitByAddress(deps.limits.requests.writes);
  const noStore: RequestHandler = (_req, res, next) => {
    res.set('Cache-Control', PRIVATE);
    next();
  };
  const workspaces = routes.at('/api/workspaces');
  const invitations = routes.at('/api/invitations');
  invitations.use(noStore);

  workspaces.get('/:id/members', noStore, limitReads, async (req, res) => {
    res.json(ZWorkspaceMembersSchema.parse(await listMembers(deps, principalOf(res), String(req.params.id))));
  });

  workspaces.post('/:id/invitations', noStore, limitWrites, async (req, res) => {
    res.status(201).json(ZWorkspaceInvitationSchema.parse(await inviteMember(deps, principalOf(res), String(req.params.id), req.body)));
  });

  workspaces.delete('/:id/invitations/:invitationId', noStore, limitWrites, async (req, res) => {
    await revokeInvitation(deps, principalOf(res), String(req.params.id), String(req.params.invitationId));
    res.status(204).end();
  });

  workspaces.patch('/:id/members/:creatorId', noStore, limitWrites, async (req, res) => {
    res.json(ZWorkspaceMemberSchema.parse(await changeMemberRole(deps, principalOf(res), String(req.params.id), String(req.params.creatorId), req.body)));
  });

  workspaces.delete('/:id/members/:creatorId', noStore, limitWrites, async (req, res) => {
    await removeMember(deps, principalOf(res), String(req.params.id), String(req.params.creatorId));
    res.status(204).end();
  });

  workspaces.get('/:id/audit', noStore, limitReads, async (req, res) => {
    res.json(ZAuditPageSchema.parse(await readAuditLog(deps, principalOf(res), String(req.params.id), req.query)));
  });

  workspaces.get('/:id/audit.csv', noStore, limitReads, async (req, res) => {
    const csv = await exportAuditLogCsv(deps, principalOf(res), String(req.params.id), req.query);
    res
      .set('Content-Type', 'text/csv; charset=utf-8')
      .set('Content-Disposition', contentDisposition('attachment', 'audit-log.csv'))
      .set('X-Content-Type-Options', 'nosniff')
      .send(csv);
  });

  invitations.get('/:token', limitReads, async (req, res) => {
    res.json(ZInvitationPreviewSchema.parse(await previewInvitation(deps, String(req.params.token))));
  });

  invitations.post('/:token/accept', limitWrites, async (req, res) => {
    const principal = principalOf(res);
    await acceptInvitation(deps, principal, String(req.params.token));
    res.json(ZWorkspaceListSchema.parse(await listWorkspaces(deps, principal)));
  });

  return routes.routers;
}
