/**
 * Workspaces: what owns sites, the subscription and usage (and later the brand kit, domains, API
 * keys and webhooks). Accounts are members of workspaces, each in one role; every account has a
 * personal workspace. What a role may do is written once, in WORKSPACE_PERMISSIONS: the server checks
 * every creator route against it and the dashboard hides what a role cannot do from the same map.
 * The API's requests and answers about workspaces, members, invitations and the audit log are the
 * zod schemas below.
 */
import { z } from 'zod';

export const WORKSPACE_ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
export type TWorkspaceRole = (typeof WORKSPACE_ROLES)[number];
export const ZWorkspaceRoleSchema = z.enum(WORKSPACE_ROLES);

/** The roles an invitation or a role change can give: an owner is made only by a transfer of ownership. */
export const INVITABLE_ROLES = ['admin', 'editor', 'viewer'] as const;
export const ZInvitableRoleSchema = z.enum(INVITABLE_ROLES);

/** What each role is called in the dashboard, and what it may do, in a line. */
export const WORKSPACE_ROLE_TEXT: Record<TWorkspaceRole, { label: string; summary: string }> = {
  owner: { label: 'Owner', summary: 'Everything, including billing, deleting the workspace and transferring it' },
  admin: { label: 'Admin', summary: 'Members and settings, and everything an editor can do' },
  editor: { label: 'Editor', summary: 'Create, edit and delete sites; reply to comments' },
  viewer: { label: 'Viewer', summary: 'Read analytics, comments and approvals; export' },
};

const EVERYONE = ['owner', 'admin', 'editor', 'viewer'] as const;
const EDITORS = ['owner', 'admin', 'editor'] as const;
const ADMINS = ['owner', 'admin'] as const;
const OWNERS = ['owner'] as const;

/**
 * The permission map: each action a creator route performs, and the roles allowed it. A route names
 * exactly one permission; a role not listed gets 403 (a non-member, 404: the workspace's things are
 * not theirs to know of).
 */
export const WORKSPACE_PERMISSIONS = {
  /** See the workspace's sites, their analytics, comments, approvals and files. */
  'sites.read': EVERYONE,
  /** Export engagement and analytics (CSV, ZIP of favourites). */
  'sites.export': EVERYONE,
  /** Publish a new site into the workspace, or claim one made before signing in. */
  'sites.create': EDITORS,
  /** Change a site: title, look, settings, password, expiry, files. */
  'sites.edit': EDITORS,
  'sites.delete': EDITORS,
  /** Reply to a comment, mark comments read, resolve. */
  'comments.reply': EDITORS,
  /** Move a site to another workspace (the caller must be an owner or admin of both). */
  'sites.transfer': ADMINS,
  /** See who is in the workspace and who is invited. */
  'members.read': EVERYONE,
  /** Invite, revoke invitations, change roles, remove members. */
  'members.manage': ADMINS,
  /** The workspace's name and, later, brand, domains and keys. */
  'settings.manage': ADMINS,
  'audit.read': ADMINS,
  /** The plan: Checkout, the billing portal, cancelling. */
  'billing.manage': OWNERS,
  'workspace.delete': OWNERS,
  /** Make another member the owner. */
  'workspace.transfer': OWNERS,
} as const satisfies Record<string, readonly TWorkspaceRole[]>;

export type TWorkspacePermission = keyof typeof WORKSPACE_PERMISSIONS;
export const WORKSPACE_PERMISSION_NAMES = Object.keys(WORKSPACE_PERMISSIONS) as TWorkspacePermission[];

/** Whether the role may do what the permission names. */
export function roleAllows(role: TWorkspaceRole, permission: TWorkspacePermission): boolean {
  return (WORKSPACE_PERMISSIONS[permission] as readonly TWorkspaceRole[]).includes(role);
}

/** Every permission of a role, for the dashboard (it hides what the server would refuse). */
export function permissionsOf(role: TWorkspaceRole): TWorkspacePermission[] {
  return WORKSPACE_PERMISSION_NAMES.filter((permission) => roleAllows(role, permission));
}

/** Days an invitation link works. */
export const INVITATION_DAYS = 7;
export const WORKSPACE_NAME_MAX = 80;

export const ZWorkspaceNameSchema = z.string().trim().min(1, 'Give the workspace a name').max(WORKSPACE_NAME_MAX, `A workspace name has at most ${WORKSPACE_NAME_MAX} characters`);

/** One workspace of the caller (GET /api/workspaces). */
export const ZWorkspaceSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The account's own workspace, made with it; it cannot be left or deleted on its own. */
  personal: z.boolean(),
  role: ZWorkspaceRoleSchema,
  memberCount: z.number().int().nonnegative(),
  permissions: z.array(z.enum(WORKSPACE_PERMISSION_NAMES as [TWorkspacePermission, ...TWorkspacePermission[]])),
});
export type TWorkspaceSummary = z.infer<typeof ZWorkspaceSummarySchema>;

/** GET /api/workspaces: the caller's workspaces and the one the dashboard shows now. */
export const ZWorkspaceListSchema = z.object({
  currentWorkspaceId: z.string(),
  workspaces: z.array(ZWorkspaceSummarySchema),
});
export type TWorkspaceList = z.infer<typeof ZWorkspaceListSchema>;

/** POST /api/workspaces */
export const ZCreateWorkspaceRequestSchema = z.object({ name: ZWorkspaceNameSchema });
/** PATCH /api/workspaces/:id */
export const ZRenameWorkspaceRequestSchema = z.object({ name: ZWorkspaceNameSchema });
/** PUT /api/workspaces/current: switch the dashboard to another workspace of the caller. */
export const ZSwitchWorkspaceRequestSchema = z.object({ workspaceId: z.string().min(1) });
/** DELETE /api/workspaces/:id: the workspace's name typed again, as an account's deletion asks for its address. */
export const ZDeleteWorkspaceRequestSchema = z.object({ confirmName: z.string() });

export const ZWorkspaceMemberSchema = z.object({
  creatorId: z.string(),
  name: z.string(),
  email: z.string(),
  role: ZWorkspaceRoleSchema,
  joinedAt: z.string(),
  /** The caller themself. */
  isYou: z.boolean(),
});
export type TWorkspaceMember = z.infer<typeof ZWorkspaceMemberSchema>;

export const ZWorkspaceInvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: ZInvitableRoleSchema,
  invitedBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type TWorkspaceInvitation = z.infer<typeof ZWorkspaceInvitationSchema>;

/** GET /api/workspaces/:id/members: members, pending invitations and the seats they take of the plan's collaborators limit. */
export const ZWorkspaceMembersSchema = z.object({
  members: z.array(ZWorkspaceMemberSchema),
  invitations: z.array(ZWorkspaceInvitationSchema),
  /** Members plus pending invitations, against the plan's collaborators limit (-1: unlimited). */
  seats: z.object({ used: z.number().int().nonnegative(), limit: z.number().int().min(-1) }),
});
export type TWorkspaceMembers = z.infer<typeof ZWorkspaceMembersSchema>;

/** POST /api/workspaces/:id/invitations */
export const ZInviteMemberRequestSchema = z.object({
  email: z.string().trim().toLowerCase().email('Enter a valid email address').max(254),
  role: ZInvitableRoleSchema,
});
/** PATCH /api/workspaces/:id/members/:creatorId */
export const ZChangeRoleRequestSchema = z.object({ role: ZWorkspaceRoleSchema });

/** GET /api/invitations/:token: what the invitation page shows before it is accepted. */
export const ZInvitationPreviewSchema = z.object({
  workspaceName: z.string(),
  invitedBy: z.string(),
  email: z.string(),
  role: ZInvitableRoleSchema,
  expiresAt: z.string(),
});
export type TInvitationPreview = z.infer<typeof ZInvitationPreviewSchema>;

/** POST /api/sites/:id/transfer */
export const ZTransferSiteRequestSchema = z.object({ workspaceId: z.string().min(1) });
/** Its answer: the site and the workspace it is in now. */
export const ZTransferSiteResponseSchema = z.object({ success: z.literal(true), projectId: z.string(), workspaceId: z.string() });
export type TTransferSiteResponse = z.infer<typeof ZTransferSiteResponseSchema>;

/**
 * The audit log's events: one per change, typed. `details` carries what changed in words a person
 * reads (never a secret value: 'password set', not the password).
 */
export const AUDIT_EVENT_TYPES = [
  'site.published',
  'site.edited',
  'site.deleted',
  'site.password_changed',
  'site.expiry_changed',
  'site.files_added',
  'site.file_replaced',
  'site.file_removed',
  'site.claimed',
  'site.transferred',
  'member.invited',
  'member.invitation_revoked',
  'member.joined',
  'member.removed',
  'member.left',
  'member.role_changed',
  'workspace.created',
  'workspace.renamed',
  'workspace.ownership_transferred',
  'plan.changed',
] as const;
export type TAuditEventType = (typeof AUDIT_EVENT_TYPES)[number];
export const ZAuditEventTypeSchema = z.enum(AUDIT_EVENT_TYPES);

/** What each event type is called in the audit log's filter and rows. */
export const AUDIT_EVENT_LABELS: Record<TAuditEventType, string> = {
  'site.published': 'Site published',
  'site.edited': 'Site edited',
  'site.deleted': 'Site deleted',
  'site.password_changed': 'Password changed',
  'site.expiry_changed': 'Expiry changed',
  'site.files_added': 'Files added',
  'site.file_replaced': 'File replaced',
  'site.file_removed': 'File removed',
  'site.claimed': 'Site claimed',
  'site.transferred': 'Site transferred',
  'member.invited': 'Member invited',
  'member.invitation_revoked': 'Invitation revoked',
  'member.joined': 'Member joined',
  'member.removed': 'Member removed',
  'member.left': 'Member left',
  'member.role_changed': 'Role changed',
  'workspace.created': 'Workspace created',
  'workspace.renamed': 'Workspace renamed',
  'workspace.ownership_transferred': 'Ownership transferred',
  'plan.changed': 'Plan changed',
};

export const ZAuditEventSchema = z.object({
  id: z.string(),
  type: ZAuditEventTypeSchema,
  at: z.string(),
  /** Who did it (their name when it happened); null for the system (a Stripe event, an expiry). */
  actor: z.object({ creatorId: z.string().nullable(), name: z.string() }).nullable(),
  /** What it was done to, in words (a site's title, a member's address). */
  target: z.string().nullable(),
  /** What changed, in words. */
  details: z.string(),
  /** The client address it came from, when it came from a request. */
  address: z.string().nullable(),
});
export type TAuditEvent = z.infer<typeof ZAuditEventSchema>;

/** GET /api/workspaces/:id/audit query (and of its CSV export, /audit.csv, which takes the same filters). */
export const ZAuditQuerySchema = z.object({
  type: ZAuditEventTypeSchema.optional(),
  actor: z.string().optional(),
  /** ISO dates (YYYY-MM-DD), inclusive, UTC. */
  from: z.string().date().optional(),
  to: z.string().date().optional(),
  before: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type TAuditQuery = z.infer<typeof ZAuditQuerySchema>;

export const ZAuditPageSchema = z.object({
  events: z.array(ZAuditEventSchema),
  /** Pass as `before` for the next (older) page; null at the end. */
  nextBefore: z.string().nullable(),
});
export type TAuditPage = z.infer<typeof ZAuditPageSchema>;
