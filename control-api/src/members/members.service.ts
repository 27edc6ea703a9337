/**
 * A workspace's people: its members (each in one role), the invitations not yet accepted, and the
 * seats both take of the plan's collaborators limit. Invitations are emailed links whose token is
 * random (160 bits), kept only as its SHA-256, bound to the invited address, single use and expiring
 * after INVITATION_DAYS; accepting needs an account signed in with that address, proven. The rules
 * no role can break: a workspace always keeps an owner, only an owner makes or unmakes an owner, no
 * one leaves their personal workspace. Every change is written to the audit log in the transaction
 * that makes it.
 */
import {
  INVITATION_DAYS,
  invitationPagePath,
  WORKSPACE_ROLE_TEXT,
  WORKSPACE_ROLES,
  type TInvitationPreview,
  type TWorkspaceInvitation,
  type TWorkspaceMember,
  type TWorkspaceMembers,
  type TWorkspaceRole,
  ZChangeRoleRequestSchema,
  ZInviteMemberRequestSchema,
} from '@dropsite/shared';
import { PostgresAdapter, type Kysely, type Transaction } from 'kysely';
import type { z } from 'zod';
import type { TPrincipal, TSignedInCreator } from '../access/principal.ts';
import { requireSignedInCreator } from '../access/principal.ts';
import { hashSecret, randomSecret } from '../accounts/secret-tokens.ts';
import { assertSeatRoomIn, planIdOfCreator } from '../billing/plan-limits.ts';
import { planOf } from '../billing/plan-of.ts';
import type { TBillingDeps } from '../billing/billing.deps.ts';
import { newId } from '../db/ids.ts';
import type { Database } from '../db/tables.ts';
import { AppError } from '../http/app-error.ts';
import type { Mailer } from '../notifications/mailer.ts';
import { normalizeEmail } from '../notifications/email-confirmation.service.ts';
import { recordAuditEvent } from '../workspaces/audit-log.repository.ts';
import { setCurrentWorkspace } from '../workspaces/current-workspace.ts';
import { invitationMessage } from './invitation-mail.ts';
import { requireWorkspacePermission, roleIn, WORKSPACE_NOT_FOUND } from '../workspaces/workspace-access.ts';

const DAY_MS = 86_400_000;
/** Invitations a workspace may send in a day: enough for any studio, too few to mail strangers with. */
export const INVITATIONS_PER_DAY = 50;

export const INVITATION_INVALID = 'This invitation is no longer valid. Ask the person who invited you for a new one.';
export const INVITATION_EXPIRED = 'This invitation has expired. Ask the person who invited you for a new one.';
export const INVITATION_OTHER_ADDRESS = 'This invitation was sent to another address. Sign in with the address it was sent to, then open the link again.';
export const INVITATION_UNCONFIRMED = 'Confirm your email address before joining a workspace: open the link we emailed you, or send a new one from your account page.';
export const MEMBER_NOT_FOUND = 'Member not found';
export const LAST_OWNER = 'A workspace needs an owner. Make another member an owner first.';
export const PERSONAL_WORKSPACE_LEAVE = 'This is your personal workspace: it is yours for as long as your account is.';
export const OWNER_ONLY = "Only the workspace's owners can change an owner or make someone an owner";

export type TMembersDeps = Pick<TBillingDeps, 'db' | 'clock' | 'config'> & { mailer: Mailer; log: Pick<TBillingDeps['log'], 'error'> };

type TDb = Kysely<Database> | Transaction<Database>;

const iso = (ms: number) => new Date(ms).toISOString();
const roleLabel = (role: TWorkspaceRole) => WORKSPACE_ROLE_TEXT[role].label;

/** Holds the workspace's seat count until the transaction ends (PostgreSQL; SQLite has one writer at a time). */
async function lockWorkspace(trx: Transaction<Database>, workspaceId: string): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) await trx.selectFrom('workspaces').select('id').where('id', '=', workspaceId).forUpdate().execute();
}

/** The plan's collaborators limit for the workspace (-1: unlimited). */
async function seatLimitOf(deps: Pick<TMembersDeps, 'db' | 'clock' | 'config'>, db: TDb, workspaceId: string): Promise<{ planId: string; limit: number }> {
  const plan = planOf(await planIdOfCreator({ ...deps, db: db as Kysely<Database> }, workspaceId));
  return { planId: plan.id, limit: plan.limits.collaborators };
}

async function workspaceOf(db: TDb, workspaceId: string): Promise<{ id: string; name: string; personal: boolean }> {
  const row = await db.selectFrom('workspaces').select(['id', 'name', 'personal']).where('id', '=', workspaceId).executeTakeFirst();
  if (!row) throw new AppError('not_found', WORKSPACE_NOT_FOUND);
  return { id: row.id, name: row.name, personal: row.personal === 1 };
}

async function ownerCount(db: TDb, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('workspace_members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function toInvitation(row: { id: string; email: string; role: TWorkspaceRole; inviter_name: string | null; created_at: number; expires_at: number }): TWorkspaceInvitation {
  if (row.role === 'owner') throw new Error('An invitation never makes an owner');
  return { id: row.id, email: row.email, role: row.role, invitedBy: row.inviter_name ?? 'A former member', createdAt: iso(row.created_at), expiresAt: iso(row.expires_at) };
}

/** GET /api/workspaces/:id/members */
export async function listMembers(deps: TMembersDeps, principal: TPrincipal, workspaceId: string): Promise<TWorkspaceMembers> {
  const { creator } = await requireWorkspacePermission(deps.db, principal, workspaceId, 'members.read');
  const now = deps.clock.now();
  const [members, invitations, { limit }] = await Promise.all([
    deps.db
      .selectFrom('workspace_members as m')
      .innerJoin('creators as c', 'c.id', 'm.creator_id')
      .select(['m.creator_id', 'm.role', 'm.created_at', 'c.name', 'c.email'])
      .where('m.workspace_id', '=', workspaceId)
      .orderBy('m.created_at')
      .orderBy('m.creator_id')
      .execute(),
    pendingInvitations(deps.db, workspaceId, now),
    seatLimitOf(deps, deps.db, workspaceId),
  ]);
  // Owners first, then admins, editors and viewers; in each role, in the order they joined.
  const byRole = [...members].sort((a, b) => WORKSPACE_ROLES.indexOf(a.role) - WORKSPACE_ROLES.indexOf(b.role));
  return {
    members: byRole.map((m) => ({ creatorId: m.creator_id, name: m.name, email: m.email, role: m.role, joinedAt: iso(m.created_at), isYou: m.creator_id === creator.id })),
    invitations: invitations.map(toInvitation),
    seats: { used: members.length + invitations.length, limit },
  };
}

function pendingInvitations(db: TDb, workspaceId: string, now: number) {
  return db
    .selectFrom('workspace_invitations as i')
    .leftJoin('creators as c', 'c.id', 'i.invited_by')
    .select(['i.id', 'i.email', 'i.role', 'i.created_at', 'i.expires_at', 'c.name as inviter_name'])
    .where('i.workspace_id', '=', workspaceId)
    .where('i.accepted_at', 'is', null)
    .where('i.revoked_at', 'is', null)
    .where('i.expires_at', '>', now)
    .orderBy('i.created_at')
    .orderBy('i.id')
    .execute();
}

/**
 * POST /api/workspaces/:id/invitations: mails a link to the address. A pending invitation of the same
 * address is replaced (its link stops working); a member's address is refused.
 */
export async function inviteMember(deps: TMembersDeps, principal: TPrincipal, workspaceId: string, body: unknown): Promise<TWorkspaceInvitation> {
  const { creator } = await requireWorkspacePermission(deps.db, principal, workspaceId, 'members.manage');
  const input = ZInviteMemberRequestSchema.parse(body ?? {});
  const email = normalizeEmail(input.email);
  const now = deps.clock.now();
  const token = randomSecret();
  const id = newId();
  const workspace = await deps.db.transaction().execute(async (trx) => {
    const found = await workspaceOf(trx, workspaceId);
    const member = await trx
      .selectFrom('workspace_members as m')
      .innerJoin('creators as c', 'c.id', 'm.creator_id')
      .select('m.creator_id')
      .where('m.workspace_id', '=', workspaceId)
      .where('c.email', '=', email)
      .executeTakeFirst();
    if (member) throw new AppError('conflict', `${email} is already a member of this workspace`);
    const sentToday = await trx
      .selectFrom('workspace_invitations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .where('created_at', '>', now - DAY_MS)
      .executeTakeFirstOrThrow();
    if (Number(sentToday.n) >= INVITATIONS_PER_DAY) throw new AppError('rate_limited', `This workspace has sent ${INVITATIONS_PER_DAY} invitations today. Try again tomorrow.`);
    const replaced = await trx
      .updateTable('workspace_invitations')
      .set({ revoked_at: now })
      .where('workspace_id', '=', workspaceId)
      .where('email', '=', email)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(replaced.numUpdatedRows) === 0) await assertSeatRoomIn(deps, trx, workspaceId, 1);
    await trx
      .insertInto('workspace_invitations')
      .values({
        id,
        workspace_id: workspaceId,
        email,
        role: input.role,
        token_hash: hashSecret(token),
        invited_by: creator.id,
        created_at: now,
        expires_at: now + INVITATION_DAYS * DAY_MS,
        accepted_at: null,
        accepted_by: null,
        revoked_at: null,
      })
      .execute();
    await recordAuditEvent(trx, {
      workspaceId,
      type: 'member.invited',
      actor: { creatorId: creator.id, name: creator.name },
      target: email,
      details: `Invited as ${roleLabel(input.role)}`,
      address: principal.address,
      at: now,
    });
    return found;
  });
  const link = `${deps.config.publicUrl}${invitationPagePath(token)}`;
  deps.mailer.send(invitationMessage({ to: email, inviter: creator.name || creator.email, workspace: workspace.name, role: input.role, link })).catch((err: unknown) => {
    deps.log.error({ err }, 'could not send a workspace invitation');
  });
  return { id, email, role: input.role, invitedBy: creator.name, createdAt: iso(now), expiresAt: iso(now + INVITATION_DAYS * DAY_MS) };
}

/** DELETE /api/workspaces/:id/invitations/:invitationId: the link stops working at once. */
export async function revokeInvitation(deps: TMembersDeps, principal: TPrincipal, workspaceId: string, invitationId: string): Promise<void> {
  const { creator } = await requireWorkspacePermission(deps.db, principal, workspaceId, 'members.manage');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const invitation = await trx
      .selectFrom('workspace_invitations')
      .select(['email'])
      .where('id', '=', invitationId)
      .where('workspace_id', '=', workspaceId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!invitation) throw new AppError('not_found', 'Invitation not found');
    await trx.updateTable('workspace_invitations').set({ revoked_at: now }).where('id', '=', invitationId).execute();
    await recordAuditEvent(trx, {
      workspaceId,
      type: 'member.invitation_revoked',
      actor: { creatorId: creator.id, name: creator.name },
      target: invitation.email,
      details: 'Invitation revoked',
      address: principal.address,
      at: now,
    });
  });
}

type TInvitationState =
  | { kind: 'pending'; row: { id: string; workspace_id: string; email: string; role: TWorkspaceRole; expires_at: number; inviter_name: string | null; workspace_name: string } }
  | { kind: 'expired'; inviterName: string | null };

/** An invitation by its token: pending, expired, or 404 (unknown, used, revoked, or its workspace gone). */
async function findInvitation(db: TDb, token: string, now: number): Promise<TInvitationState> {
  const row = await db
    .selectFrom('workspace_invitations as i')
    .innerJoin('workspaces as w', 'w.id', 'i.workspace_id')
    .leftJoin('creators as c', 'c.id', 'i.invited_by')
    .select(['i.id', 'i.workspace_id', 'i.email', 'i.role', 'i.expires_at', 'i.accepted_at', 'i.revoked_at', 'c.name as inviter_name', 'w.name as workspace_name'])
    .where('i.token_hash', '=', hashSecret(token))
    .executeTakeFirst();
  if (!row || row.accepted_at !== null || row.revoked_at !== null) throw new AppError('not_found', INVITATION_INVALID);
  if (row.expires_at <= now) return { kind: 'expired', inviterName: row.inviter_name };
  return { kind: 'pending', row };
}

/** GET /api/invitations/:token: who invited whom to what, for the page that asks to join. */
export async function previewInvitation(deps: Pick<TMembersDeps, 'db' | 'clock'>, token: string): Promise<TInvitationPreview> {
  const found = await findInvitation(deps.db, token, deps.clock.now());
  if (found.kind === 'expired') throw new AppError('gone', INVITATION_EXPIRED, { details: { invitedBy: found.inviterName } });
  const { row } = found;
  if (row.role === 'owner') throw new AppError('not_found', INVITATION_INVALID);
  return { workspaceName: row.workspace_name, invitedBy: row.inviter_name ?? 'A former member', email: row.email, role: row.role, expiresAt: iso(row.expires_at) };
}

/**
 * POST /api/invitations/:token/accept: the signed-in creator, with the invited address proven, joins in
 * the invitation's role; the invitation is used up in the same transaction (a second accept finds it
 * used). The session's dashboard switches to the workspace. Answers its id.
 */
export async function acceptInvitation(deps: TMembersDeps, principal: TPrincipal, token: string): Promise<{ workspaceId: string }> {
  const creator = await requireSignedInCreator(principal);
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    const found = await findInvitation(trx, token, now);
    if (found.kind === 'expired') throw new AppError('gone', INVITATION_EXPIRED, { details: { invitedBy: found.inviterName } });
    const { row } = found;
    if (normalizeEmail(creator.email) !== row.email) throw new AppError('forbidden', INVITATION_OTHER_ADDRESS);
    if (!creator.emailVerified) throw new AppError('forbidden', INVITATION_UNCONFIRMED);
    const used = await trx
      .updateTable('workspace_invitations')
      .set({ accepted_at: now, accepted_by: creator.id })
      .where('id', '=', row.id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw new AppError('not_found', INVITATION_INVALID);
    if (await roleIn(trx, row.workspace_id, creator.id)) throw new AppError('conflict', 'You are already a member of this workspace');
    // The invitation's seat, given up above, becomes the member's: only if the plan still has room for it.
    await assertSeatRoomIn(deps, trx, row.workspace_id, 1);
    await trx.insertInto('workspace_members').values({ workspace_id: row.workspace_id, creator_id: creator.id, role: row.role, invited_by: null, created_at: now }).execute();
    await setCurrentWorkspace(trx, creator.sessionId, row.workspace_id);
    await recordAuditEvent(trx, {
      workspaceId: row.workspace_id,
      type: 'member.joined',
      actor: { creatorId: creator.id, name: creator.name },
      target: creator.email,
      details: `Joined as ${roleLabel(row.role)}`,
      address: principal.address,
      at: now,
    });
    return { workspaceId: row.workspace_id };
  });
}

async function memberOf(db: TDb, workspaceId: string, creatorId: string): Promise<TWorkspaceMember & { createdAt: number }> {
  const row = await db
    .selectFrom('workspace_members as m')
    .innerJoin('creators as c', 'c.id', 'm.creator_id')
    .select(['m.creator_id', 'm.role', 'm.created_at', 'c.name', 'c.email'])
    .where('m.workspace_id', '=', workspaceId)
    .where('m.creator_id', '=', creatorId)
    .executeTakeFirst();
  if (!row) throw new AppError('not_found', MEMBER_NOT_FOUND);
  return { creatorId: row.creator_id, name: row.name, email: row.email, role: row.role, joinedAt: iso(row.created_at), isYou: false, createdAt: row.created_at };
}

/** Refuses what only an owner may do to owners, and leaving the workspace without one. */
async function assertOwnerRules(trx: TDb, workspaceId: string, caller: { role: TWorkspaceRole }, target: { role: TWorkspaceRole }, newRole: TWorkspaceRole | null): Promise<void> {
  const touchesOwner = target.role === 'owner' || newRole === 'owner';
  if (touchesOwner && caller.role !== 'owner') throw new AppError('forbidden', OWNER_ONLY);
  if (target.role === 'owner' && newRole !== 'owner' && (await ownerCount(trx, workspaceId)) <= 1) throw new AppError('conflict', LAST_OWNER);
}

/** PATCH /api/workspaces/:id/members/:creatorId */
export async function changeMemberRole(deps: TMembersDeps, principal: TPrincipal, workspaceId: string, creatorId: string, body: unknown): Promise<TWorkspaceMember> {
  const access = await requireWorkspacePermission(deps.db, principal, workspaceId, 'members.manage');
  const input: z.infer<typeof ZChangeRoleRequestSchema> = ZChangeRoleRequestSchema.parse(body ?? {});
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    await lockWorkspace(trx, workspaceId);
    const target = await memberOf(trx, workspaceId, creatorId);
    if (target.role === input.role) return { ...withoutCreatedAt(target), isYou: creatorId === access.creator.id };
    await assertOwnerRules(trx, workspaceId, access, target, input.role);
    await trx.updateTable('workspace_members').set({ role: input.role }).where('workspace_id', '=', workspaceId).where('creator_id', '=', creatorId).execute();
    await recordAuditEvent(trx, {
      workspaceId,
      type: input.role === 'owner' ? 'workspace.ownership_transferred' : 'member.role_changed',
      actor: actorOf(access.creator),
      target: target.email,
      details: `${roleLabel(target.role)} → ${roleLabel(input.role)}`,
      address: principal.address,
      at: now,
    });
    return { ...withoutCreatedAt(target), role: input.role, isYou: creatorId === access.creator.id };
  });
}

function withoutCreatedAt(member: TWorkspaceMember & { createdAt: number }): TWorkspaceMember {
  const { createdAt: _createdAt, ...rest } = member;
  return rest;
}

function actorOf(creator: TSignedInCreator): { creatorId: string; name: string } {
  return { creatorId: creator.id, name: creator.name };
}

/**
 * DELETE /api/workspaces/:id/members/:creatorId: removes a member (members.manage), or, for the
 * caller's own id, leaves. Their access ends at their next request: every check reads the membership.
 */
export async function removeMember(deps: TMembersDeps, principal: TPrincipal, workspaceId: string, creatorId: string): Promise<void> {
  const creator = await requireSignedInCreator(principal);
  const leaving = creatorId === creator.id;
  const access = leaving
    ? await requireWorkspacePermission(deps.db, principal, workspaceId, 'members.read')
    : await requireWorkspacePermission(deps.db, principal, workspaceId, 'members.manage');
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await lockWorkspace(trx, workspaceId);
    const workspace = await workspaceOf(trx, workspaceId);
    const target = await memberOf(trx, workspaceId, creatorId);
    if (leaving && workspace.personal && workspace.id === creator.id) throw new AppError('bad_request', PERSONAL_WORKSPACE_LEAVE);
    if (leaving) {
      if (target.role === 'owner' && (await ownerCount(trx, workspaceId)) <= 1) throw new AppError('conflict', LAST_OWNER);
    } else {
      await assertOwnerRules(trx, workspaceId, access, target, null);
    }
    await trx.deleteFrom('workspace_members').where('workspace_id', '=', workspaceId).where('creator_id', '=', creatorId).execute();
    await trx.updateTable('auth_sessions').set({ current_workspace_id: null }).where('creator_id', '=', creatorId).where('current_workspace_id', '=', workspaceId).execute();
    await recordAuditEvent(trx, {
      workspaceId,
      type: leaving ? 'member.left' : 'member.removed',
      actor: actorOf(creator),
      target: target.email,
      details: leaving ? `Left (was ${roleLabel(target.role)})` : `Removed (was ${roleLabel(target.role)})`,
      address: principal.address,
      at: now,
    });
  });
}
