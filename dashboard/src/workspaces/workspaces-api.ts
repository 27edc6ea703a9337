/**
 * The dashboard's calls about workspaces: the caller's workspaces and the current one, members and
 * invitations, the audit log. Each reply is checked with its schema from @dropsite/shared/workspaces;
 * the server checks every call against the caller's role.
 */
import { callApi, type TSendRequest } from '@dropsite/shared/browser/api-client';
import {
  ZAuditPageSchema,
  ZTransferSiteResponseSchema,
  ZWorkspaceInvitationSchema,
  ZWorkspaceListSchema,
  ZWorkspaceMemberSchema,
  ZWorkspaceMembersSchema,
  ZWorkspaceSummarySchema,
  type TAuditPage,
  type TWorkspaceInvitation,
  type TWorkspaceList,
  type TWorkspaceMember,
  type TWorkspaceMembers,
  type TWorkspaceRole,
  type TWorkspaceSummary,
} from '@dropsite/shared';
import type { z } from 'zod';
import { parseReply } from '../api-reply.ts';
import { auditQueryString, type TAuditFilters } from './audit-query.ts';

async function request<T extends z.ZodType>(schema: T, path: string, call: { method?: string; body?: unknown }, send?: TSendRequest): Promise<z.infer<T>> {
  return parseReply(schema, await callApi(path, call, send));
}

/** A call answered with no body (204). */
async function requestEmpty(path: string, call: { method: string; body?: unknown }, send?: TSendRequest): Promise<void> {
  await callApi(path, call, send);
}

export const workspacePath = (workspaceId: string) => `/api/workspaces/${encodeURIComponent(workspaceId)}`;

export function fetchWorkspaces(send?: TSendRequest): Promise<TWorkspaceList> {
  return request(ZWorkspaceListSchema, '/api/workspaces', {}, send);
}

export function createWorkspace(name: string, send?: TSendRequest): Promise<TWorkspaceSummary> {
  return request(ZWorkspaceSummarySchema, '/api/workspaces', { method: 'POST', body: { name } }, send);
}

/** Makes `workspaceId` the one the dashboard shows (this session's lists, creation and billing act on it). */
export function switchWorkspace(workspaceId: string, send?: TSendRequest): Promise<TWorkspaceList> {
  return request(ZWorkspaceListSchema, '/api/workspaces/current', { method: 'PUT', body: { workspaceId } }, send);
}

export function renameWorkspace(workspaceId: string, name: string, send?: TSendRequest): Promise<void> {
  return requestEmpty(workspacePath(workspaceId), { method: 'PATCH', body: { name } }, send);
}

export function deleteWorkspace(workspaceId: string, confirmName: string, send?: TSendRequest): Promise<void> {
  return requestEmpty(workspacePath(workspaceId), { method: 'DELETE', body: { confirmName } }, send);
}

export function fetchMembers(workspaceId: string, send?: TSendRequest): Promise<TWorkspaceMembers> {
  return request(ZWorkspaceMembersSchema, `${workspacePath(workspaceId)}/members`, {}, send);
}

export function inviteMember(workspaceId: string, invitation: { email: string; role: Exclude<TWorkspaceRole, 'owner'> }, send?: TSendRequest): Promise<TWorkspaceInvitation> {
  return request(ZWorkspaceInvitationSchema, `${workspacePath(workspaceId)}/invitations`, { method: 'POST', body: invitation }, send);
}

export function revokeInvitation(workspaceId: string, invitationId: string, send?: TSendRequest): Promise<void> {
  return requestEmpty(`${workspacePath(workspaceId)}/invitations/${encodeURIComponent(invitationId)}`, { method: 'DELETE' }, send);
}

export function changeMemberRole(workspaceId: string, creatorId: string, role: TWorkspaceRole, send?: TSendRequest): Promise<TWorkspaceMember> {
  return request(ZWorkspaceMemberSchema, `${workspacePath(workspaceId)}/members/${encodeURIComponent(creatorId)}`, { method: 'PATCH', body: { role } }, send);
}

/** Removes a member; the caller's own id leaves the workspace. */
export function removeMember(workspaceId: string, creatorId: string, send?: TSendRequest): Promise<void> {
  return requestEmpty(`${workspacePath(workspaceId)}/members/${encodeURIComponent(creatorId)}`, { method: 'DELETE' }, send);
}

const invitationPath = (token: string) => `/api/invitations/${encodeURIComponent(token)}`;

/** Joins the workspace; the answer has it as the current one. (GET of the invitation: invitation-state.ts, which reads the expired answer too.) */
export function acceptInvitation(token: string, send?: TSendRequest): Promise<TWorkspaceList> {
  return request(ZWorkspaceListSchema, `${invitationPath(token)}/accept`, { method: 'POST' }, send);
}

export function fetchAuditPage(workspaceId: string, filters: TAuditFilters, before: string | null, send?: TSendRequest): Promise<TAuditPage> {
  return request(ZAuditPageSchema, `${workspacePath(workspaceId)}/audit${auditQueryString(filters, before)}`, {}, send);
}

/** The CSV export's link, with the same filters as the table (all its pages: no `before`). */
export function auditCsvPath(workspaceId: string, filters: TAuditFilters): string {
  return `${workspacePath(workspaceId)}/audit.csv${auditQueryString(filters, null)}`;
}

/** Moves a site to another workspace of the caller (owner or admin of both). */
export async function transferSite(siteId: string, workspaceId: string, send?: TSendRequest): Promise<void> {
  await request(ZTransferSiteResponseSchema, `/api/sites/${encodeURIComponent(siteId)}/transfer`, { method: 'POST', body: { workspaceId } }, send);
}
