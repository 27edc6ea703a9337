/**
 * Double opt-in for notification email. An address a creator gives (the wizard's notification
 * email, or the email-collection modal) gets ONE confirmation message with fixed text (nothing the
 * creator typed) and a link; until it is confirmed, nothing else is sent to it. Confirmation is per
 * address and creator, so confirming one creator's sites never opens the address to another's.
 * Confirmations to one address are capped per day (no mail-bombing by resubmitting), and each client
 * address may name only so many distinct addresses per day. Every message carries a one-click
 * unsubscribe link (RFC 8058) signed with a key derived from the server secret.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import { isValidEmailAddress, SITE_MANAGEMENT_MESSAGES, type TSiteSettings } from '@dropsite/shared';
import type { Kysely, Transaction } from 'kysely';
import { createElement as h, type ReactElement } from 'react';
import type { TNotificationsDeps } from './notifications.deps.ts';
import type { Database } from '../db/tables.ts';
import { parseSiteSettings, updateSite } from '../site-records/site-records.repository.ts';
import { isAllowedSlackWebhook } from './slack.ts';
import { newId } from '../db/ids.ts';
import { AppError } from '../http/app-error.ts';
import { EmailDocument, FOOTNOTE_STYLE, HEADING_STYLE, LINK_STYLE, renderEmailHtml } from './email-html.ts';
import type { Mailer, TMailMessage } from './mailer.ts';
import {
  claimOwedConfirmation,
  countConfirmationsSentTo,
  countRecipientRequests,
  deleteRecipientRequestsBefore,
  dropOwedConfirmation,
  findAccountAddress,
  findEmailAddress,
  insertPendingEmailAddress,
  insertRecipientRequest,
  listOwedConfirmations,
  markConfirmationOwed,
  releaseConfirmation,
  type TEmailAddressRow,
} from './email-addresses.repository.ts';
import { DAY_MS } from '../clock.ts';

type TDeps = Pick<TNotificationsDeps, 'db' | 'config' | 'clock' | 'log' | 'keys' | 'mailer'>;

/** A confirmation link works for this long. */
export const CONFIRM_TOKEN_TTL_MS = 7 * DAY_MS;
/** One address gets at most this many confirmation messages per 24 hours, from all creators together. */
export const MAX_CONFIRMATIONS_PER_ADDRESS_PER_DAY = 3;
/** One creator's request is sent again at most once per 24 hours. */
const CONFIRMATION_RESEND_MS = DAY_MS;
const MAX_SEND_ATTEMPTS = 5;

export const CONFIRMATION_SUBJECT = 'Confirm your email address for Dropsite notifications';

/** Addresses are compared and stored trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The address a site's settings ask notifications to go to, or null when notifications are off or it is not an address. */
export function notificationAddressOf(settings: Partial<TSiteSettings> | undefined): string | null {
  if (!settings?.enableNotifications) return null;
  const email = normalizeEmail(settings.notificationEmail ?? '');
  return isValidEmailAddress(email) ? email : null;
}

/** Where a site's notification email goes: the site's own address (confirmed by link before mail), else the owner account's confirmed address. */
export interface TEmailRecipient {
  email: string;
  source: 'site' | 'account';
}

/** The account's email when its owner confirmed it by link (signing up or changing it), else null (no account, or unconfirmed). */
export async function confirmedAccountEmailOf(db: Kysely<Database> | Transaction<Database>, creatorId: string | null): Promise<string | null> {
  if (creatorId === null) return null;
  const account = await findAccountAddress(db, creatorId);
  return account?.confirmed ? normalizeEmail(account.email) : null;
}

/**
 * Who receives a site's notification email: the address the site names, else (a site an account
 * owns) the account's confirmed address; null when notifications are off or there is no one.
 */
export async function emailRecipientOf(
  db: Kysely<Database> | Transaction<Database>,
  site: { owner_creator_id: string | null },
  settings: Partial<TSiteSettings>,
): Promise<TEmailRecipient | null> {
  const siteAddress = notificationAddressOf(settings);
  if (siteAddress !== null) return { email: siteAddress, source: 'site' };
  if (!settings.enableNotifications) return null;
  const accountEmail = await confirmedAccountEmailOf(db, site.owner_creator_id);
  return accountEmail === null ? null : { email: accountEmail, source: 'account' };
}

/**
 * Refuses (400) notifications switched on with no one to receive them: no address for the site, no
 * Slack webhook, and no confirmed account email. Nothing is stored on-without-recipient.
 */
export async function assertNotificationRecipient(
  deps: Pick<TNotificationsDeps, 'db' | 'config'>,
  settings: Partial<TSiteSettings> | undefined,
  ownerCreatorId: string | null,
): Promise<void> {
  if (!settings?.enableNotifications) return;
  if (notificationAddressOf(settings) !== null) return;
  if (isAllowedSlackWebhook((settings.slackWebhook ?? '').trim(), deps.config.notifications.slackWebhookOrigins)) return;
  if ((await confirmedAccountEmailOf(deps.db, ownerCreatorId)) !== null) return;
  throw new AppError('validation_failed', SITE_MANAGEMENT_MESSAGES.notificationsNeedRecipient);
}

/**
 * After an account claimed an anonymous session's sites, their notifications go to the account's
 * confirmed address: a site's own address is dropped when it is that same address or was never
 * confirmed. An address the anonymous creator confirmed (carried over with the claim) is kept.
 */
export async function preferAccountAddressAfterClaim(db: Kysely<Database>, sessionId: string, creatorId: string, now: number): Promise<void> {
  const accountEmail = await confirmedAccountEmailOf(db, creatorId);
  if (accountEmail === null) return;
  const sites = await db
    .selectFrom('projects')
    .select(['id', 'settings'])
    .where('anonymous_session_id', '=', sessionId)
    .where('owner_creator_id', '=', creatorId)
    .where('deleted_at', 'is', null)
    .execute();
  const ownerKey = ownerKeyOf({ id: creatorId, owner_creator_id: creatorId });
  for (const site of sites) {
    const settings = parseSiteSettings(site.settings);
    const siteAddress = normalizeEmail(settings.notificationEmail);
    if (siteAddress === '') continue;
    const kept = siteAddress !== accountEmail && (await findEmailAddress(db, siteAddress, ownerKey))?.status === 'confirmed';
    if (kept) continue;
    await updateSite(db, site.id, { settings: JSON.stringify({ ...settings, notificationEmail: '' }), updated_at: now });
  }
}

/** Whose sites a confirmation covers: the account, else the anonymous session, else the one site. */
export function ownerKeyOf(site: { id: string; owner_creator_id?: string | null; anonymous_session_id?: string | null }): string {
  if (site.owner_creator_id) return `creator:${site.owner_creator_id}`;
  if (site.anonymous_session_id) return `anon:${site.anonymous_session_id}`;
  return `project:${site.id}`;
}

export function anonymousOwnerKey(sessionId: string): string {
  return `anon:${sessionId}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Counts `email` against the client address's distinct recipients today; over the cap the request
 * is refused with 429 before anything is stored or sent. Naming the same address again costs nothing.
 */
export async function admitNotificationRecipient(deps: Pick<TNotificationsDeps, 'db' | 'config' | 'clock'>, clientAddress: string, email: string): Promise<void> {
  const now = deps.clock.now();
  const day = Math.floor(now / DAY_MS);
  const requester = createHash('sha256').update(`email-recipients:${clientAddress}`).digest('hex').slice(0, 32);
  const { count, includes } = await countRecipientRequests(deps.db, requester, day, email);
  if (includes) return;
  if (count >= deps.config.notifications.maxRecipientsPerDay) {
    const retryAfter = Math.max(1, Math.ceil(((day + 1) * DAY_MS - now) / 1000));
    throw new AppError('rate_limited', 'Too many different email addresses from this connection today. Please try again tomorrow.', {
      headers: { 'Retry-After': String(retryAfter) },
    });
  }
  await insertRecipientRequest(deps.db, { requester, day, email, now });
}

/**
 * The owner gave `email`: a new address owes a confirmation. The request is recorded before this
 * returns; the message is sent in the background (a slow mail server never holds up publishing)
 * and retried by the dispatcher when it fails. A confirmed or unsubscribed address is left alone:
 * an unsubscribed one comes back only when its recipient subscribes again from the link they hold.
 * Never throws: publishing a site must not fail because mail did.
 */
export async function requestEmailConfirmation(deps: TDeps, request: { email: string; ownerKey: string }, mailer?: Mailer, options: { awaitSend?: boolean } = {}): Promise<void> {
  try {
    const now = deps.clock.now();
    await insertPendingEmailAddress(deps.db, { id: newId(), email: request.email, ownerKey: request.ownerKey, now });
    const row = await findEmailAddress(deps.db, request.email, request.ownerKey);
    if (row?.status !== 'pending') return;
    if (row.confirm_requested_at === null) await markConfirmationOwed(deps.db, row.id, now);
    const sending = sendOwedConfirmation(deps, row.id, mailer ?? deps.mailer).catch((err: unknown) => {
      deps.log.error({ err }, 'could not send an email confirmation');
    });
    if (options.awaitSend) await sending;
  } catch (err) {
    deps.log.error({ err }, 'could not ask for an email confirmation');
  }
}

/** Sends the confirmations the database owes (new addresses whose first send failed, legacy addresses). */
export async function sendOwedConfirmations(deps: TDeps, mailer: Mailer): Promise<number> {
  let sent = 0;
  for (const row of await listOwedConfirmations(deps.db, 50)) {
    if (await sendOwedConfirmation(deps, row.id, mailer)) sent++;
  }
  await deleteRecipientRequestsBefore(deps.db, Math.floor(deps.clock.now() / DAY_MS) - 1);
  return sent;
}

async function sendOwedConfirmation(deps: TDeps, id: string, mailer: Mailer): Promise<boolean> {
  const { db, clock, log } = deps;
  const now = clock.now();
  const row = await db.selectFrom('email_addresses').selectAll().where('id', '=', id).executeTakeFirst();
  if (row?.status !== 'pending' || row.confirm_requested_at === null) return false;
  // The same creator asking again within a day: the link already sent still works.
  if (row.confirm_sent_at !== null && now - row.confirm_sent_at < CONFIRMATION_RESEND_MS && row.token_expires_at !== null && row.token_expires_at > now) {
    await dropOwedConfirmation(db, row.id, now);
    return false;
  }
  // Too many confirmations to this address today: it stays owed and goes out when the day allows.
  if ((await countConfirmationsSentTo(db, row.email, now - DAY_MS)) >= MAX_CONFIRMATIONS_PER_ADDRESS_PER_DAY) {
    log.debug({ emailAddressId: row.id }, 'confirmation to this address deferred: daily limit reached');
    return false;
  }
  const token = randomBytes(32).toString('base64url');
  if (!(await claimOwedConfirmation(db, { id: row.id, tokenHash: hashToken(token), expiresAt: now + CONFIRM_TOKEN_TTL_MS, now }))) return false;
  try {
    await mailer.send(composeConfirmationEmail(deps, row, token));
    log.info({ emailAddressId: row.id }, 'email confirmation sent');
    return true;
  } catch (err) {
    log.warn({ err, emailAddressId: row.id }, 'email confirmation failed');
    await releaseConfirmation(db, { id: row.id, previousSentAt: row.confirm_sent_at, maxAttempts: MAX_SEND_ATTEMPTS, now });
    return false;
  }
}

function composeConfirmationEmail(deps: TKeyDeps, row: TEmailAddressRow, token: string): TMailMessage {
  const confirmUrl = `${deps.config.publicUrl}/api/email/confirm?token=${encodeURIComponent(token)}`;
  const unsubscribeUrl = unsubscribeUrlOf(deps, row.id);
  const days = Math.round(CONFIRM_TOKEN_TTL_MS / DAY_MS);
  const text = [
    'Someone asked Dropsite to send notifications about activity on their sites to this address.',
    '',
    'If that was you, confirm your email address:',
    confirmUrl,
    '',
    `The link works for ${days} days. Until you confirm, we send nothing else to this address.`,
    "If it wasn't you, ignore this message: you will not hear from us about it again.",
    '',
    `Never email me from Dropsite about this: ${unsubscribeUrl}`,
  ].join('\n');
  const html = renderEmailHtml(h(ConfirmationEmail, { confirmUrl, unsubscribeUrl, days }));
  return { to: row.email, subject: CONFIRMATION_SUBJECT, text, html, headers: unsubscribeHeaders(unsubscribeUrl) };
}

/** The confirmation's HTML part: what was asked, the button, and a link never to be written to again. */
function ConfirmationEmail({ confirmUrl, unsubscribeUrl, days }: { confirmUrl: string; unsubscribeUrl: string; days: number }): ReactElement {
  return h(
    EmailDocument,
    null,
    h('h1', { style: HEADING_STYLE }, 'Confirm your email address'),
    h('p', null, 'Someone asked Dropsite to send notifications about activity on their sites to this address.'),
    h(
      'p',
      { style: { margin: '24px 0' } },
      h('a', { href: confirmUrl, style: { background: '#1d4ed8', color: '#fff', padding: '10px 18px', borderRadius: 6, textDecoration: 'none' } }, 'Confirm email address'),
    ),
    h(
      'p',
      null,
      `The link works for ${days} days. Until you confirm, we send nothing else to this address. If it wasn’t you, ignore this message: you will not hear from us about it again.`,
    ),
    h('p', { style: FOOTNOTE_STYLE }, h('a', { href: unsubscribeUrl, style: LINK_STYLE }, 'Never email me about this')),
  );
}

/** RFC 8058: a one-click unsubscribe a mail client can POST to. */
export function unsubscribeHeaders(unsubscribeUrl: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

// ---- Unsubscribe links: the address row's id, signed (so a link cannot be made for another row).

type TKeyDeps = Pick<TNotificationsDeps, 'config' | 'keys'>;

function unsubscribeKeyOf(deps: TKeyDeps): KeyObject {
  if (!deps.keys) throw new Error('The unsubscribe key is not loaded (SESSION_SECRET is required in production)');
  return deps.keys.unsubscribe;
}

export function unsubscribeTokenOf(deps: TKeyDeps, id: string): string {
  return createHmac('sha256', unsubscribeKeyOf(deps)).update(`unsubscribe:${id}`).digest('base64url');
}

export function isValidUnsubscribeToken(deps: TKeyDeps, id: string, token: string): boolean {
  const expected = Buffer.from(unsubscribeTokenOf(deps, id));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function unsubscribeUrlOf(deps: TKeyDeps, id: string): string {
  return `${deps.config.publicUrl}/api/email/unsubscribe?id=${encodeURIComponent(id)}&token=${encodeURIComponent(unsubscribeTokenOf(deps, id))}`;
}
