/**
 * Creator accounts: sign-up, sign-in and out, emailed one-time links (sign-in, verification,
 * reset, email change and its undo), the account page's changes, deleting an account, and claiming
 * the anonymous session's sites. Every recovery step (a password changed or reset, signing out
 * everywhere, an address proved by a link on an unverified account) and every completed address
 * change expires every unused link of the account, so none asked for before it can still act.
 * Services take the principal, never Express; the routes set and clear the cookies from what these
 * return.
 */
import type { z } from 'zod';
import type { TAccountsDeps } from './accounts.deps.ts';
import { newId } from '../db/ids.ts';
import type { TAccountTokenPurpose } from '../db/tables.ts';
import { AppError } from '../http/app-error.ts';
import { rateLimitedError } from '../access/rate-limiter.ts';
import { requireSignedInCreator, type TPrincipal, type TSignedInCreator } from '../access/principal.ts';
import { sweepExpiredSites } from '../access/expired-sites.ts';
import { cancelBillingOfDeletedAccount } from '../billing/billing.service.ts';
import { changeSiteAccess } from '../edge/public-page.ts';
import { BUSY_RETRY_AFTER_SECONDS, hashPassword, PasswordChecksBusyError, spendDummyVerification, verifyPassword } from '../sites/password-hash.ts';
import { claimAnonymousSession } from '../creators/anonymous-sessions.repository.ts';
import { resolveOwnAnonymousSession } from '../creators/anonymous-creator.ts';
import { carryEmailAddressStates, confirmEmailAddressOfOwner, deleteEmailAddressesOfOwner } from '../notifications/email-addresses.repository.ts';
import { anonymousOwnerKey, ownerKeyOf, preferAccountAddressAfterClaim } from '../notifications/email-confirmation.service.ts';
import { listAnonymousSites } from '../creators/anonymous.service.ts';
import { assertSiteRoomIn } from '../billing/plan-limits.ts';
import { APP_PATHS, type TAnonymousProject } from '@dropsite/shared';
import {
  deleteCreatorRow,
  expirePendingEmailChanges,
  expireUnusedTokensOfAccount,
  expireAccountTokensTo,
  findCreatorByEmail,
  findCreatorById,
  findPendingEmailChange,
  findUsableAccountToken,
  insertAccountToken,
  insertCreator,
  isAddressHeldForUndo,
  listSlugsOfCreator,
  listTeamWorkspacesOwnedAlone,
  releaseSitesOfCreator,
  keepTeamSitesOfCreator,
  deleteMembershipsOfCreator,
  type TCreatorRow,
  updateCreator,
  useAccountToken,
} from './accounts.repository.ts';
import { accountMessage, type TAccountMailKind } from './account-mail.ts';
import type {
  ZAccountPatchSchema,
  ZDeleteAccountSchema,
  ZEmailChangeSchema,
  ZEmailLinkSchema,
  ZPasswordChangeSchema,
  ZPasswordResetSchema,
  ZSignInSchema,
  ZSignUpSchema,
} from './account-schemas.ts';
import { hashSecret, randomSecret } from './secret-tokens.ts';
import { requireRecentAuthentication } from './recent-auth.ts';
import { deleteSession, deleteSessionOfCreator, deleteSessionsOfCreator, listSessionsOfCreator } from './sessions.repository.ts';
import { createSession, sessionsEndedOpenedBy, type TNewSession } from './sessions.ts';
import { HOUR_MS, MINUTE_MS } from '../clock.ts';
import { recordSiteEvent, type TAuditActor } from '../workspaces/site-audit.ts';
import { requireCurrentWorkspace } from '../workspaces/current-workspace.ts';
import { deleteWorkspaceRows } from '../workspaces/workspaces.repository.ts';

type TDeps = Pick<TAccountsDeps, 'db' | 'config' | 'clock' | 'log' | 'mailer' | 'limits' | 'storage' | 'stripe'>;

const TOKEN_TTL_MS: Record<TAccountTokenPurpose, number> = {
  sign_in_link: 15 * MINUTE_MS,
  verify_email: 24 * HOUR_MS,
  password_reset: HOUR_MS,
  email_change_undo: 7 * 24 * HOUR_MS,
};
/** A sign-up's link (a sign-in link that makes the account): as long as a verification link. */
const SIGN_UP_LINK_TTL_MS = 24 * HOUR_MS;

export const SIGN_IN_FAILED = 'Incorrect email or password.';
export const SIGN_IN_RATE_LIMITED = 'Too many sign-in attempts. Please try again later.';
export const EMAIL_TAKEN = 'An account with this email already exists. Sign in instead.';
export const LINK_GONE = 'This sign-in link has expired or was already used. Ask for a new one.';
export const CLAIM_AFTER_LINK = 'This browser was signed in with an emailed link, so its sites are not added to the account. Sign in with your password to add them.';
export const CONFIRM_EMAIL_MISMATCH = 'Type your email address to confirm.';

/** Why an account that is the only owner of team workspaces cannot be deleted yet. */
export function onlyOwnerOf(workspaceNames: readonly string[]): string {
  const names = workspaceNames.map((name) => `“${name}”`).join(', ');
  return `You are the only owner of ${names}. Make another member an owner there, or delete the workspace, before you delete your account.`;
}
export const UNDO_LINK_GONE = 'This link has expired or was already used. Sign in with a link sent to your address, or reset your password.';
export const UNDO_ADDRESS_TAKEN = 'Another account uses this address now. Contact support to get your account back.';

export interface TCreatorPublic {
  id: string;
  email: string;
  name: string;
  avatarUrl: string;
  emailVerified: boolean;
  createdAt: string;
}

export interface TAccountSession {
  id: string;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
  current: boolean;
  userAgent: string | null;
}

/** What a call that signs someone in hands the route: the creator to answer with and the session to set. */
export interface TSignedIn {
  creator: TCreatorPublic;
  session: TNewSession;
}

function toPublic(row: TCreatorRow): TCreatorPublic {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    avatarUrl: row.avatar_url,
    emailVerified: row.email_verified_at !== null,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

async function creatorRowOf(deps: Pick<TAccountsDeps, 'db'>, creator: TSignedInCreator): Promise<TCreatorRow> {
  const row = await findCreatorById(deps.db, creator.id);
  // The session's join found the creator a moment ago; gone now means deleted meanwhile.
  if (!row) throw new AppError('unauthorized', 'Authentication required. Please sign in and try again.');
  return row;
}

function nameFromEmail(email: string): string {
  const local = email.split('@')[0] ?? '';
  return local.slice(0, 100) || 'Creator';
}

/** Makes a one-time token, stores its hash and mails its link; mail failures are logged, never shown (no account enumeration). */
/** The app page each emailed link opens, the token after its query's name. */
const LINK_PATHS: Record<TAccountTokenPurpose, string> = {
  sign_in_link: `${APP_PATHS['sign-in']}?link=`,
  verify_email: `${APP_PATHS['verify-email']}?token=`,
  password_reset: `${APP_PATHS['reset-password']}?token=`,
  email_change_undo: `${APP_PATHS['undo-email-change']}?token=`,
};

async function sendLink(
  deps: TDeps,
  input: {
    purpose: TAccountTokenPurpose;
    kind: TAccountMailKind;
    email: string;
    creatorId: string | null;
    anonymousSessionId?: string | null;
    returnTo?: string | null;
    /** The new address a notice to the previous one names. */
    address?: string;
    /**
     * A notice of an address change is never held back by the per-recipient limit: anyone can
     * spend that limit by asking for sign-in links to the address, and the notice must arrive.
     */
    notice?: boolean;
    /** A sign-up's link: what the account is made with on first use. */
    signUp?: { name: string; passwordHash: string };
    /** Instead of the purpose's lifetime. */
    expiresInMs?: number;
  },
): Promise<void> {
  const decision = input.notice ? null : await deps.limits.accounts.emailsByRecipient.take(input.email);
  if (decision && !decision.allowed) {
    deps.log.warn({ purpose: input.purpose }, 'account email not sent: too many to this address this hour');
    return;
  }
  const token = randomSecret();
  const now = deps.clock.now();
  await insertAccountToken(deps.db, {
    id: newId(),
    tokenHash: hashSecret(token),
    purpose: input.purpose,
    creatorId: input.creatorId,
    email: input.email,
    anonymousSessionId: input.anonymousSessionId ?? null,
    returnTo: input.returnTo ?? null,
    signUp: input.signUp ?? null,
    now,
    expiresAt: now + (input.expiresInMs ?? TOKEN_TTL_MS[input.purpose]),
  });
  const link = `${deps.config.publicUrl}${LINK_PATHS[input.purpose]}${encodeURIComponent(token)}`;
  // Sent in the background: a slow mail server never holds up the answer, nor tells by its delay
  // whether the address has an account.
  deps.mailer.send(accountMessage(input.kind, input.email, link, input.address)).catch((err: unknown) => {
    deps.log.error({ err, purpose: input.purpose }, 'could not send an account email');
  });
}

async function useToken(deps: Pick<TAccountsDeps, 'db' | 'clock'>, token: string, purpose: TAccountTokenPurpose, gone = LINK_GONE) {
  const row = await useAccountToken(deps.db, hashSecret(token), purpose, deps.clock.now());
  if (!row) throw new AppError('gone', gone);
  return row;
}

/** A session opened by an emailed link: for 10 minutes it proves the owner of an account without a password (recent-auth.ts). */
async function createLinkSession(deps: Pick<TAccountsDeps, 'db' | 'clock'>, creatorId: string, userAgent: string | null): Promise<TNewSession> {
  return await createSession(deps, creatorId, userAgent, { openedByLink: true });
}

/**
 * Tells the account's current (soon previous) address of a change asked or completed, with a link
 * that undoes it: only that address's owner gets it, it works once, for 7 days, and it restores
 * exactly that address (undoEmailChange).
 */
async function sendUndoNotice(deps: TDeps, kind: 'email_change_requested' | 'email_changed', creatorId: string, previousEmail: string, newEmail: string): Promise<void> {
  await sendLink(deps, {
    purpose: 'email_change_undo',
    kind,
    email: previousEmail,
    creatorId,
    address: newEmail,
    notice: true,
  });
}

/**
 * Claims an anonymous session's sites into the account (exactly once; null when it was already
 * claimed). The notification addresses the session confirmed or unsubscribed carry over with them.
 * Sites that would take the account past its plan's active sites are refused all together
 * (site_limit_reached): nothing moves, and the session can be claimed once there is room.
 */
async function claimInto(
  deps: Pick<TAccountsDeps, 'db' | 'clock' | 'config'>,
  sessionId: string,
  creatorId: string,
  into: { workspaceId: string; by: TAuditActor },
): Promise<number | null> {
  const now = deps.clock.now();
  const claimed = await claimAnonymousSession(deps.db, sessionId, creatorId, now, (trx, activeSites) => assertSiteRoomIn(deps, trx, into.workspaceId, activeSites), {
    workspaceId: into.workspaceId,
    moved: async (trx, sites) => {
      for (const site of sites) {
        await recordSiteEvent(trx, { workspace_id: into.workspaceId, title: site.title }, into.by, {
          type: 'site.claimed',
          details: 'Claimed from the session that published it before signing in',
          at: now,
        });
      }
    },
  });
  if (claimed !== null) {
    await carryEmailAddressStates(deps.db, anonymousOwnerKey(sessionId), ownerKeyOf({ id: creatorId, owner_creator_id: creatorId }), now, newId);
    await preferAccountAddressAfterClaim(deps.db, sessionId, creatorId, now);
  }
  return claimed;
}

function unlessSiteLimit(err: unknown): null {
  if (err instanceof AppError && err.code === 'site_limit_reached') return null;
  throw err;
}

/**
 * Notifications to a creator go only to verified addresses: the account's address, once its link
 * proved it, counts as confirmed for the account's sites (unless it unsubscribed).
 */
async function accountAddressVerified(deps: Pick<TAccountsDeps, 'db' | 'clock'>, creatorId: string, email: string): Promise<void> {
  await confirmEmailAddressOfOwner(deps.db, { id: newId(), email, ownerKey: ownerKeyOf({ id: creatorId, owner_creator_id: creatorId }), now: deps.clock.now() });
}

/**
 * A sign-up answers alike (202, the same body) and after the same work whether or not the address
 * has an account, so it tells no one which addresses do: the password is hashed in both cases, and
 * the address is mailed a link in both. Without an account, the link finishes the sign-up: the
 * account is made, with this name and password, when it is first used (24 hours), so only the
 * inbox's owner ever holds it. With one, the owner is told so and gets a sign-in link instead (the
 * password typed is dropped: a sign-up never takes an address over). Either link claims the anonymous
 * session of the browser that signed up.
 */
export async function signUp(deps: TDeps, input: z.output<typeof ZSignUpSchema>, context: { client: string; anonymousSessionId: string | null }): Promise<void> {
  const passwordHash = await hashPassword(input.password, { client: context.client });
  const row = await findCreatorByEmail(deps.db, input.email);
  const link = {
    purpose: 'sign_in_link',
    email: input.email,
    anonymousSessionId: context.anonymousSessionId,
    returnTo: input.returnTo ?? null,
  } as const;
  if (row) await sendLink(deps, { ...link, kind: 'sign_up_existing', creatorId: row.id });
  else await sendLink(deps, { ...link, kind: 'sign_up', creatorId: null, signUp: { name: input.name, passwordHash }, expiresInMs: SIGN_UP_LINK_TTL_MS });
}

/**
 * Email and password. Unknown address, account without a password and wrong password answer the
 * same 401 after the same work (a dummy hash is checked when there is nothing to check), in the
 * client address's share of the hash queue. One check per account runs at a time (others answer
 * 429 at once). Each attempt takes its failure from the address's and the account's hourly limits
 * before the check and gives it back when right, so parallel guesses cannot outrun them. Past the
 * address's limit every attempt from it (right ones too) answers 429. Past the account's, no one is
 * locked out: each address backs off from its first failure on the account (otherwise after five),
 * and an address that has not failed, the owner's, is still checked.
 */
export async function signIn(deps: TDeps, principal: TPrincipal, input: z.output<typeof ZSignInSchema>, userAgent: string | null): Promise<TSignedIn> {
  const limits = deps.limits.accounts;
  const { address } = principal;
  const pairKey = `${input.email}\n${address}`;
  const tooMany = (retryAfterSeconds: number) => rateLimitedError({ allowed: false, retryAfterSeconds: Math.max(1, retryAfterSeconds) }, SIGN_IN_RATE_LIMITED);
  const refuseWhileBackingOff = async () => {
    const wait = await limits.signInBackoff.waitSeconds(pairKey);
    if (wait > 0) throw tooMany(wait);
  };
  // Refused before holding the account's check, so a held-back address never keeps its owner waiting.
  await refuseWhileBackingOff();
  const release = await limits.signInChecks.acquire(input.email);
  if (!release) throw tooMany(1);
  let row: TCreatorRow | null;
  try {
    // Again, now that no other check of this account runs: a failure recorded meanwhile counts.
    await refuseWhileBackingOff();
    const byAddress = await limits.signInFailuresByAddress.take(address);
    if (!byAddress.allowed) throw tooMany(byAddress.retryAfterSeconds);
    const byAccount = await limits.signInFailuresByAccount.take(input.email);
    const giveBack = async () => {
      await limits.signInFailuresByAddress.refund(address);
      if (byAccount.allowed) await limits.signInFailuresByAccount.refund(input.email);
    };
    let isRight = false;
    try {
      row = await findCreatorByEmail(deps.db, input.email);
      if (row?.password_hash) isRight = await verifyPassword(input.password, row.password_hash, { client: address });
      else await spendDummyVerification(input.password, { client: address });
    } catch (err) {
      // Nothing was checked (this address's share of the checks is taken, the queue is full): nothing counts.
      await giveBack();
      if (err instanceof PasswordChecksBusyError) throw tooMany(BUSY_RETRY_AFTER_SECONDS);
      throw err;
    }
    if (!row || !isRight) {
      await limits.signInBackoff.fail(pairKey, { strict: !byAccount.allowed });
      throw new AppError('unauthorized', SIGN_IN_FAILED);
    }
    await giveBack();
    await limits.signInBackoff.succeed(pairKey);
  } finally {
    await release();
  }
  return { creator: toPublic(row), session: await createSession(deps, row.id, userAgent) };
}

export async function signOut(deps: Pick<TAccountsDeps, 'db'>, principal: TPrincipal): Promise<void> {
  const creator = await principal.signedInCreator();
  if (creator) await deleteSession(deps.db, creator.sessionId);
}

/** Ends every session and every unused link of the account (an address change waiting for confirmation included). */
export async function signOutEverywhere(deps: Pick<TAccountsDeps, 'db' | 'clock'>, principal: TPrincipal): Promise<void> {
  const creator = await requireSignedInCreator(principal);
  await deleteSessionsOfCreator(deps.db, creator.id);
  await expireUnusedTokensOfAccount(deps.db, creator.id, deps.clock.now());
}

export async function currentCreator(deps: Pick<TAccountsDeps, 'db'>, principal: TPrincipal): Promise<TCreatorPublic | null> {
  const creator = await principal.signedInCreator();
  if (!creator) return null;
  const row = await findCreatorById(deps.db, creator.id);
  return row ? { ...toPublic(row), ...(creator.linkSignedInAt !== null ? { signedInByLink: true } : {}) } : null;
}

export async function requireCurrentCreator(deps: Pick<TAccountsDeps, 'db'>, principal: TPrincipal): Promise<TCreatorPublic> {
  return toPublic(await creatorRowOf(deps, await requireSignedInCreator(principal)));
}

/** Mails a sign-in link (always answered alike: whether the address has an account is not told). */
export async function requestEmailLink(deps: TDeps, input: z.output<typeof ZEmailLinkSchema> & { anonymousSessionId?: string | null }): Promise<void> {
  const row = await findCreatorByEmail(deps.db, input.email);
  await sendLink(deps, {
    purpose: 'sign_in_link',
    kind: input.anonymousSessionId ? 'claim_link' : 'sign_in_link',
    email: input.email,
    creatorId: row?.id ?? null,
    anonymousSessionId: input.anonymousSessionId ?? null,
    returnTo: input.returnTo ?? null,
  });
}

/**
 * The address proved itself: the account is marked verified. An account that was not verified
 * until now may have been made by someone else with this address (pre-hijacking): its password,
 * every other session and every unused link (an address change its maker asked for included) end,
 * so only the address's owner is left holding it.
 */
async function markVerified(deps: Pick<TAccountsDeps, 'db' | 'clock'>, row: TCreatorRow): Promise<void> {
  if (row.email_verified_at !== null) return;
  const now = deps.clock.now();
  await updateCreator(deps.db, row.id, { emailVerifiedAt: now, passwordHash: null, now });
  await deleteSessionsOfCreator(deps.db, row.id);
  await expireUnusedTokensOfAccount(deps.db, row.id, now);
  await accountAddressVerified(deps, row.id, row.email);
}

export async function consumeEmailLink(deps: TDeps, token: string, userAgent: string | null): Promise<TSignedIn & { returnTo: string | null; claimed: number }> {
  const link = await useToken(deps, token, 'sign_in_link');
  const now = deps.clock.now();
  let row = await findCreatorByEmail(deps.db, link.email);
  if (!row) {
    const id = newId();
    try {
      // A sign-up's link makes the account with the name and password chosen at sign-up.
      const name = link.sign_up_name ?? nameFromEmail(link.email);
      await insertCreator(deps.db, { id, email: link.email, name, passwordHash: link.sign_up_password_hash, emailVerifiedAt: now, now });
    } catch (err) {
      // Two links to one new address used at once: the other made the account.
      if (!(await findCreatorByEmail(deps.db, link.email))) throw err;
    }
  } else {
    await markVerified(deps, row);
  }
  row = await findCreatorByEmail(deps.db, link.email);
  if (!row) throw new Error('The signed-in creator row is missing');
  await accountAddressVerified(deps, row.id, row.email);
  // A claim past the account's plan moves nothing; the link still signs in, and the sites wait for room.
  // A link's new session shows the personal workspace: the sites go there.
  const by = { creator: { id: row.id, name: row.name }, address: null };
  const claimed = link.anonymous_session_id ? ((await claimInto(deps, link.anonymous_session_id, row.id, { workspaceId: row.id, by }).catch(unlessSiteLimit)) ?? 0) : 0;
  // Marked: the browser that opened the link may not be the address owner's, so it claims nothing more.
  return { creator: toPublic(row), session: await createLinkSession(deps, row.id, userAgent), returnTo: link.return_to, claimed };
}

/**
 * What a sign-in link's page shows before the link is used: the address it signs in as, and whether
 * it adds sites to that account. 410 (LINK_GONE) for a link that can no longer be used.
 */
export async function describeEmailLink(deps: Pick<TAccountsDeps, 'db' | 'clock'>, token: string): Promise<{ email: string; addsSites: boolean }> {
  const link = await findUsableAccountToken(deps.db, hashSecret(token), 'sign_in_link', deps.clock.now());
  if (!link) throw new AppError('gone', LINK_GONE);
  return { email: link.email, addsSites: link.anonymous_session_id !== null };
}

export async function requestVerification(deps: TDeps, principal: TPrincipal): Promise<void> {
  const row = await creatorRowOf(deps, await requireSignedInCreator(principal));
  if (row.email_verified_at !== null) return;
  await sendLink(deps, { purpose: 'verify_email', kind: 'verify_email', email: row.email, creatorId: row.id });
}

/** A verification link: the account's address is verified, or (an email change) the new address becomes the account's. */
export async function verifyEmail(deps: TDeps, token: string): Promise<TCreatorPublic> {
  const link = await useToken(deps, token, 'verify_email');
  const row = link.creator_id ? await findCreatorById(deps.db, link.creator_id) : null;
  if (!row) throw new AppError('gone', LINK_GONE);
  const now = deps.clock.now();
  if (link.email !== row.email) {
    const holder = await findCreatorByEmail(deps.db, link.email);
    if (holder && holder.id !== row.id) throw new AppError('conflict', EMAIL_TAKEN);
    if (await isAddressHeldForUndo(deps.db, link.email, now, row.id)) throw new AppError('conflict', EMAIL_TAKEN);
    await updateCreator(deps.db, row.id, { email: link.email, emailVerifiedAt: now, now });
    // No link asked for before the change applies any more (to the old address, or to other new ones).
    await expireUnusedTokensOfAccount(deps.db, row.id, now);
    await sendUndoNotice(deps, 'email_changed', row.id, row.email, link.email);
  } else if (row.email_verified_at === null) {
    await updateCreator(deps.db, row.id, { emailVerifiedAt: now, now });
  }
  await accountAddressVerified(deps, row.id, link.email);
  const updated = await findCreatorById(deps.db, row.id);
  if (!updated) throw new AppError('gone', LINK_GONE);
  return toPublic(updated);
}

/**
 * Mails a reset link when the address has an account, and otherwise a message saying none uses it
 * (with a sign-in link, which would make one): the answer (202) and the work (one lookup, one
 * update, one link, one message) are the same either way, so it tells no one which addresses have an account.
 */
export async function requestPasswordReset(deps: TDeps, email: string): Promise<void> {
  const row = await findCreatorByEmail(deps.db, email);
  // A new link replaces the ones before it.
  await expireAccountTokensTo(deps.db, row?.email ?? email, 'password_reset', deps.clock.now());
  if (row) await sendLink(deps, { purpose: 'password_reset', kind: 'password_reset', email: row.email, creatorId: row.id });
  else await sendLink(deps, { purpose: 'sign_in_link', kind: 'password_reset_no_account', email, creatorId: null });
}

/** A reset: the new password, the address verified (the link proved it), every session ended and a new one made. */
export async function resetPassword(deps: TDeps, input: z.output<typeof ZPasswordResetSchema>, userAgent: string | null): Promise<TSignedIn> {
  const link = await useToken(deps, input.token, 'password_reset');
  const row = link.creator_id ? await findCreatorById(deps.db, link.creator_id) : null;
  if (!row || row.email !== link.email) throw new AppError('gone', LINK_GONE);
  const now = deps.clock.now();
  const passwordHash = await hashPassword(input.password);
  await updateCreator(deps.db, row.id, { passwordHash, emailVerifiedAt: row.email_verified_at ?? now, now });
  await deleteSessionsOfCreator(deps.db, row.id);
  await expireUnusedTokensOfAccount(deps.db, row.id, now);
  await accountAddressVerified(deps, row.id, row.email);
  const updated = await findCreatorById(deps.db, row.id);
  if (!updated) throw new AppError('gone', LINK_GONE);
  return { creator: toPublic(updated), session: await createLinkSession(deps, row.id, userAgent) };
}

export async function describeAccount(
  deps: Pick<TAccountsDeps, 'db' | 'clock'>,
  principal: TPrincipal,
): Promise<{ creator: TCreatorPublic; sessions: TAccountSession[]; pendingEmail: string | null; hasPassword: boolean }> {
  const signedIn = await requireSignedInCreator(principal);
  const row = await creatorRowOf(deps, signedIn);
  const now = deps.clock.now();
  const sessions = await listSessionsOfCreator(deps.db, row.id, now, sessionsEndedOpenedBy(now));
  return {
    creator: toPublic(row),
    pendingEmail: await findPendingEmailChange(deps.db, row.id, row.email, now),
    hasPassword: row.password_hash !== null,
    sessions: sessions.map((s) => ({
      id: s.id,
      createdAt: new Date(s.created_at).toISOString(),
      lastUsedAt: new Date(s.last_used_at).toISOString(),
      expiresAt: new Date(s.expires_at).toISOString(),
      current: s.id === signedIn.sessionId,
      userAgent: s.user_agent,
    })),
  };
}

export async function renameAccount(deps: Pick<TAccountsDeps, 'db' | 'clock'>, principal: TPrincipal, input: z.output<typeof ZAccountPatchSchema>): Promise<TCreatorPublic> {
  const creator = await requireSignedInCreator(principal);
  await updateCreator(deps.db, creator.id, { name: input.name, now: deps.clock.now() });
  return toPublic(await creatorRowOf(deps, creator));
}

/**
 * Asks to move the account to a new address (the current password, or a fresh sign-in link, first):
 * the new address gets the link that applies it (replacing any change asked before), the current
 * one a notice with a link that undoes it.
 */
export async function requestEmailChange(deps: TDeps, principal: TPrincipal, input: z.output<typeof ZEmailChangeSchema>): Promise<void> {
  const signedIn = await requireSignedInCreator(principal);
  const row = await creatorRowOf(deps, signedIn);
  await requireRecentAuthentication(deps, signedIn, row, input.password);
  if (input.email === row.email) return;
  const now = deps.clock.now();
  if ((await findCreatorByEmail(deps.db, input.email)) || (await isAddressHeldForUndo(deps.db, input.email, now, row.id))) throw new AppError('conflict', EMAIL_TAKEN);
  await expirePendingEmailChanges(deps.db, row.id, row.email, now);
  await sendLink(deps, { purpose: 'verify_email', kind: 'change_email', email: input.email, creatorId: row.id });
  await sendUndoNotice(deps, 'email_change_requested', row.id, row.email, input.email);
}

/** Cancels the address change waiting for its confirmation link: that link answers as expired from now on. */
export async function cancelEmailChange(deps: Pick<TAccountsDeps, 'db' | 'clock'>, principal: TPrincipal): Promise<void> {
  const row = await creatorRowOf(deps, await requireSignedInCreator(principal));
  await expirePendingEmailChanges(deps.db, row.id, row.email, deps.clock.now());
}

/**
 * The link mailed to the previous address when a change was asked or completed: the account gets
 * that address back (verified, as the link proved it), loses its password (whoever made the change
 * may know it) and every session and unused link (other undo links too), then signs in here.
 */
export async function undoEmailChange(deps: TDeps, token: string, userAgent: string | null): Promise<TSignedIn> {
  const now = deps.clock.now();
  const pending = await findUsableAccountToken(deps.db, hashSecret(token), 'email_change_undo', now);
  // Refused before the link is used up: the address is not free (e.g. someone took it by a sign-in link).
  const holder = pending ? await findCreatorByEmail(deps.db, pending.email) : null;
  if (pending && holder && holder.id !== pending.creator_id) throw new AppError('conflict', UNDO_ADDRESS_TAKEN);
  const link = await useToken(deps, token, 'email_change_undo', UNDO_LINK_GONE);
  const row = link.creator_id ? await findCreatorById(deps.db, link.creator_id) : null;
  if (!row) throw new AppError('gone', UNDO_LINK_GONE);
  await updateCreator(deps.db, row.id, { email: link.email, emailVerifiedAt: now, passwordHash: null, now });
  await deleteSessionsOfCreator(deps.db, row.id);
  await expireUnusedTokensOfAccount(deps.db, row.id, now, { undoLinksToo: true });
  await accountAddressVerified(deps, row.id, link.email);
  deps.log.info({ creatorId: row.id }, 'address change undone');
  const updated = await findCreatorById(deps.db, row.id);
  if (!updated) throw new AppError('gone', UNDO_LINK_GONE);
  return { creator: toPublic(updated), session: await createLinkSession(deps, row.id, userAgent) };
}

/**
 * A new password (the current one, or for an account without one a fresh sign-in link, first):
 * every other session and every unused link of the account end.
 */
export async function changePassword(deps: TDeps, principal: TPrincipal, input: z.output<typeof ZPasswordChangeSchema>): Promise<void> {
  const signedIn = await requireSignedInCreator(principal);
  const row = await creatorRowOf(deps, signedIn);
  await requireRecentAuthentication(deps, signedIn, row, input.currentPassword);
  const now = deps.clock.now();
  await updateCreator(deps.db, row.id, { passwordHash: await hashPassword(input.newPassword), now });
  await deleteSessionsOfCreator(deps.db, row.id, signedIn.sessionId);
  await expireUnusedTokensOfAccount(deps.db, row.id, now);
}

/** Ends one of the creator's sessions; says whether it was the one asking (its cookie is then cleared). */
export async function endSession(deps: Pick<TAccountsDeps, 'db'>, principal: TPrincipal, sessionId: string): Promise<{ wasCurrent: boolean }> {
  const creator = await requireSignedInCreator(principal);
  if (!(await deleteSessionOfCreator(deps.db, creator.id, sessionId))) throw new AppError('not_found', 'Session not found');
  return { wasCurrent: sessionId === creator.sessionId };
}

/**
 * Deletes the account once the creator typed its address and proved to be its owner (the password,
 * or for an account without one a fresh sign-in link): its sites answer 404 at once (deleted,
 * and expired long enough ago that the sweeper removes their files, derived images and rows), its
 * notification addresses are forgotten, then the creator row goes with its sessions and tokens.
 * The sweep starts now, in the background.
 */
export async function deleteAccount(deps: TDeps, principal: TPrincipal, input: z.output<typeof ZDeleteAccountSchema>): Promise<void> {
  const signedIn = await requireSignedInCreator(principal);
  const row = await creatorRowOf(deps, signedIn);
  if (input.confirmEmail.trim().toLowerCase() !== row.email) throw new AppError('bad_request', CONFIRM_EMAIL_MISMATCH);
  await requireRecentAuthentication(deps, signedIn, row, input.password);
  // A team workspace is never left without an owner: its only owner hands it on or deletes it first.
  const ownedAlone = await listTeamWorkspacesOwnedAlone(deps.db, row.id);
  if (ownedAlone.length > 0) throw new AppError('conflict', onlyOwnerOf(ownedAlone));
  // A paid plan stops charging first; when Stripe cannot be reached the account stays (503).
  await cancelBillingOfDeletedAccount(deps, row.id);
  const now = deps.clock.now();
  const purgeFrom = now - deps.config.expiredSiteGraceDays * 86_400_000 - 1;
  // Sites published into other people's workspaces are theirs and stay; the rest leave the edge before
  // this answers (its public copy is removed before and after the change).
  await keepTeamSitesOfCreator(deps.db, row.id);
  const slugs = await listSlugsOfCreator(deps.db, row.id);
  await changeSiteAccess(deps, slugs, () =>
    deps.db.transaction().execute(async (trx) => {
      await releaseSitesOfCreator(trx, row.id, { deletedAt: now, expiresAt: purgeFrom });
      await deleteEmailAddressesOfOwner(trx, ownerKeyOf({ id: row.id, owner_creator_id: row.id }));
      await deleteMembershipsOfCreator(trx, row.id);
      // The personal workspace goes with its account (its subscription and usage rows with it).
      await deleteWorkspaceRows(trx, row.id);
      await deleteCreatorRow(trx, row.id);
    }),
  );
  deps.log.info({ creatorId: row.id }, 'account deleted');
  void sweepExpiredSites(deps).catch((err: unknown) => deps.log.error({ err }, 'sweeping a deleted account’s sites failed'));
}

export async function syncCreator(deps: Pick<TAccountsDeps, 'db'>, principal: TPrincipal): Promise<TCreatorPublic> {
  return requireCurrentCreator(deps, principal);
}

/**
 * Claims the anonymous session the caller's creator cookie proves into the signed-in account.
 * Without such a session (none, or already claimed, e.g. by a concurrent claim) nothing moves and
 * the answer says claimed: 0. A named session that is not the caller's is a 404, rate limited per
 * address like any other lookup by id.
 */
export async function claimSites(
  deps: Pick<TAccountsDeps, 'db' | 'config' | 'clock' | 'limits' | 'analytics'>,
  principal: TPrincipal,
  anonymousSessionId: string | undefined,
): Promise<{ claimed: number; sites: TAnonymousProject[]; hadSession: boolean }> {
  const creator = await requireSignedInCreator(principal);
  // A session an emailed link opened may be someone else's account in this browser (a link they
  // sent to their own address): the sites this browser made are not offered to it.
  if (creator.linkSignedInAt !== null) throw new AppError('forbidden', CLAIM_AFTER_LINK);
  const session = await principal.anonymousSession();
  if (!session) return { claimed: 0, sites: [], hadSession: false };
  // A named session must be the one the cookie proves; misses are rate limited like every lookup by id.
  if (anonymousSessionId !== undefined) await resolveOwnAnonymousSession(deps, principal, anonymousSessionId);
  // The sites go into the current workspace, when the caller's role there may create sites (403 otherwise).
  const { workspaceId } = await requireCurrentWorkspace(deps.db, principal, 'sites.create');
  const claimed = await claimInto(deps, session.id, creator.id, { workspaceId, by: { creator: { id: creator.id, name: creator.name }, address: principal.address } });
  if (claimed === null) return { claimed: 0, sites: [], hadSession: true };
  return { claimed, sites: await listAnonymousSites(deps, session), hadSession: true };
}
