/**
 * The public forms (decisions 6: stored, then emailed to the operator) and the newsletter's double
 * opt-in. A message is stored before anything else: the sender's answer is a success once it is
 * stored, and the mail to OPERATOR_EMAIL (the SMTP_FROM address when unset) goes out in the
 * background; a failed send is logged and the row keeps `emailed_at` null, so nothing is lost.
 *
 * A newsletter address gets ONE confirmation message per resend window, with fixed text and a link;
 * until it is confirmed nothing else is sent to it. Every newsletter message carries a one-click
 * unsubscribe link (RFC 8058): the row id signed with the server's unsubscribe key. The answer to a
 * subscription is the same whatever the address's state, so no one can probe who is subscribed.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isContactEmail, type TContactRequest, type TFeedbackRequest, type TFormKind, type TSalesRequest } from '@dropsite/shared';
import type { TInboxDeps } from './inbox.deps.ts';
import { newId } from '../db/ids.ts';
import type { TMailMessage } from '../notifications/mailer.ts';
import { toOneLine } from '../notifications/notification-messages.ts';
import { hashToken, unsubscribeHeaders } from '../notifications/email-confirmation.service.ts';
import {
  claimConfirmation,
  findSubscriberByEmail,
  findSubscriberById,
  findSubscriberByTokenHash,
  insertMessage,
  insertPendingSubscriber,
  listUnsentMessages,
  claimMessageEmail,
  markMessageEmailed,
  releaseConfirmation,
  setSubscriberStatus,
  type TNewMessage,
  type TSubscriberRow,
} from './inbox.repository.ts';
import { runPeriodically, type TPeriodicTask } from '../periodic-task.ts';
import { HOUR_MS } from '../clock.ts';

type TDeps = Pick<TInboxDeps, 'db' | 'config' | 'clock' | 'log' | 'keys' | 'mailer'>;

/** A newsletter confirmation link works for this long. */
const CONFIRM_TOKEN_TTL_MS = 7 * 24 * HOUR_MS;
/** One confirmation per address per this long: asking again sooner sends nothing (the link sent still works). */
export const NEWSLETTER_RESEND_MS = HOUR_MS;

export const NEWSLETTER_CONFIRM_SUBJECT = 'Confirm your subscription to the Dropsite newsletter';

export type TMessageInput = { kind: 'contact'; data: TContactRequest } | { kind: 'feedback'; data: TFeedbackRequest } | { kind: 'sales'; data: TSalesRequest };

/** Where operator mail goes: OPERATOR_EMAIL, else the product's own sender address (README, configuration). */
function operatorAddressOf(config: TDeps['config']): string {
  return config.notifications.operatorEmail ?? config.notifications.smtpFrom;
}

function toRow(input: TMessageInput, id: string, now: number): TNewMessage {
  const base = { id, kind: input.kind, name: input.data.name, email: input.data.email, created_at: now };
  switch (input.kind) {
    case 'contact':
      return { ...base, subject: input.data.subject, company: '', message: input.data.message, rating: null };
    case 'feedback':
      return { ...base, subject: input.data.subject, company: '', message: input.data.feedback, rating: input.data.rating };
    case 'sales':
      return { ...base, subject: '', company: input.data.company, message: input.data.message, rating: null };
  }
}

/** A failed email to the operator is tried again this long after its last attempt, at most this many times in all, for this long. */
const RETRY_AFTER_MS = 10 * 60_000;
const MAX_EMAIL_ATTEMPTS = 6;
const RETRY_FOR_MS = 3 * 24 * HOUR_MS;

/** Stores the message, then emails the operator in the background. Returns the stored row's id. */
export async function takeMessage(deps: TDeps, input: TMessageInput): Promise<string> {
  const now = deps.clock.now();
  const row = toRow(input, newId(), now);
  await insertMessage(deps.db, row);
  deps.log.info({ messageId: row.id, kind: row.kind }, 'form message stored');
  void emailOperator(deps, row);
  return row.id;
}

async function emailOperator(deps: TDeps, row: TNewMessage): Promise<boolean> {
  try {
    await deps.mailer.send(composeOperatorEmail(deps, row));
    await markMessageEmailed(deps.db, row.id, deps.clock.now());
    return true;
  } catch (err) {
    deps.log.error({ err, messageId: row.id }, 'could not email a form message to the operator; it stays stored and is tried again later');
    return false;
  }
}

/** Emails the stored messages whose email failed (one process claims each attempt). Returns how many went out. */
export async function sendUnsentMessages(deps: TDeps): Promise<number> {
  const now = deps.clock.now();
  const rows = await listUnsentMessages(deps.db, { attemptedBefore: now - RETRY_AFTER_MS, createdAfter: now - RETRY_FOR_MS, maxAttempts: MAX_EMAIL_ATTEMPTS, limit: 20 });
  let sent = 0;
  for (const row of rows) {
    if (!(await claimMessageEmail(deps.db, { id: row.id, previousAttemptedAt: row.email_attempted_at, now }))) continue;
    if (await emailOperator(deps, row)) sent++;
  }
  return sent;
}

/** The API process's retry of failed operator emails, every few minutes; stopped by the runtime's close(). */
export function startUnsentMessageSender(deps: TDeps): TPeriodicTask {
  return runPeriodically(() => sendUnsentMessages(deps), { everyMs: RETRY_AFTER_MS, onError: (err) => deps.log.error({ err }, 'sending unsent form messages failed') });
}

const KIND_TITLES: Record<Exclude<TFormKind, 'newsletter'>, string> = { contact: 'Contact', feedback: 'Feedback', sales: 'Contact Sales' };

function composeOperatorEmail(deps: TDeps, row: TNewMessage): TMailMessage {
  const kind = row.kind;
  const topic = kind === 'sales' ? row.company : row.subject;
  const from = row.name || row.email || 'someone who left no name';
  const subject = `${KIND_TITLES[kind]}: ${toOneLine(topic || `from ${from}`, 120)}`;
  const lines = [
    `A message from the ${KIND_TITLES[kind]} form.`,
    '',
    `Name: ${row.name || '(not given)'}`,
    `Email: ${row.email || '(not given)'}`,
    ...(kind === 'sales' ? [`Company: ${row.company}`] : []),
    ...(kind !== 'sales' && row.subject ? [`Subject: ${row.subject}`] : []),
    ...(kind === 'feedback' ? [`Rating: ${row.rating === null ? '(none)' : `${row.rating} of 5 stars`}`] : []),
    '',
    row.message,
    '',
    `Received ${new Date(row.created_at).toISOString()} (message ${row.id}).`,
  ];
  // Reply-To only for a plain address (no spaces, brackets, commas or quotes): nothing typed can add a header or a recipient.
  const headers = row.email && isContactEmail(row.email) ? { 'Reply-To': row.email } : undefined;
  return { to: operatorAddressOf(deps.config), subject, text: lines.join('\n'), ...(headers ? { headers } : {}) };
}

// ---- Newsletter

/**
 * Subscribes `email` (already normalised): a new, pending or unsubscribed address gets a
 * confirmation message unless one went out within the resend window; a confirmed one gets nothing.
 * The row is written before this returns; the message is sent in the background.
 */
export async function subscribeToNewsletter(deps: TDeps, email: string): Promise<void> {
  const now = deps.clock.now();
  await insertPendingSubscriber(deps.db, { id: newId(), email, now });
  const row = await findSubscriberByEmail(deps.db, email);
  if (!row || row.status === 'confirmed') return;
  if (row.confirm_sent_at !== null && now - row.confirm_sent_at < NEWSLETTER_RESEND_MS) {
    deps.log.debug({ subscriberId: row.id }, 'newsletter confirmation not sent again within the resend window');
    return;
  }
  const token = randomBytes(32).toString('base64url');
  const claimed = await claimConfirmation(deps.db, { id: row.id, previousSentAt: row.confirm_sent_at, tokenHash: hashToken(token), expiresAt: now + CONFIRM_TOKEN_TTL_MS, now });
  if (!claimed) return;
  void sendConfirmation(deps, row, token, now);
}

async function sendConfirmation(deps: TDeps, row: TSubscriberRow, token: string, sentAt: number): Promise<void> {
  try {
    await deps.mailer.send(composeConfirmationEmail(deps, row, token));
    deps.log.info({ subscriberId: row.id }, 'newsletter confirmation sent');
  } catch (err) {
    deps.log.warn({ err, subscriberId: row.id }, 'newsletter confirmation failed');
    await releaseConfirmation(deps.db, row.id, sentAt).catch((error: unknown) => deps.log.error({ err: error }, 'could not release a newsletter confirmation'));
  }
}

function composeConfirmationEmail(deps: TDeps, row: TSubscriberRow, token: string): TMailMessage {
  const confirmUrl = `${deps.config.publicUrl}/api/newsletter/confirm?token=${encodeURIComponent(token)}`;
  const unsubscribeUrl = newsletterUnsubscribeUrl(deps, row.id);
  const days = Math.round(CONFIRM_TOKEN_TTL_MS / (24 * HOUR_MS));
  const text = [
    'Someone asked for the Dropsite newsletter to be sent to this address.',
    '',
    'If that was you, confirm your subscription:',
    confirmUrl,
    '',
    `The link works for ${days} days. Until you confirm, we send nothing else to this address.`,
    "If it wasn't you, ignore this message: you will not hear from us.",
    '',
    `Unsubscribe: ${unsubscribeUrl}`,
  ].join('\n');
  const attr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  const html = `<!doctype html><html><body style="font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#1c1b19;line-height:1.6"><h1 style="font-size:20px;margin:0 0 16px">Confirm your subscription</h1><p>Someone asked for the Dropsite newsletter to be sent to this address.</p><p style="margin:24px 0"><a href="${attr(confirmUrl)}" style="background:#1c1b19;color:#fff;padding:10px 18px;border-radius:999px;text-decoration:none">Confirm subscription</a></p><p>The link works for ${days} days. Until you confirm, we send nothing else to this address. If it wasn’t you, ignore this message: you will not hear from us.</p><p style="color:#5e5950;font-size:13px"><a href="${attr(unsubscribeUrl)}" style="color:#5e5950">Unsubscribe</a></p></body></html>`;
  return { to: row.email, subject: NEWSLETTER_CONFIRM_SUBJECT, text, html, headers: unsubscribeHeaders(unsubscribeUrl) };
}

/** The subscriber a live confirmation token names, or why there is none. */
export async function findConfirmTarget(deps: Pick<TDeps, 'db' | 'clock'>, token: string): Promise<{ row: TSubscriberRow } | { problem: 'invalid' | 'expired' }> {
  const row = await findSubscriberByTokenHash(deps.db, hashToken(token));
  if (!row || row.status === 'unsubscribed') return { problem: 'invalid' };
  if (row.status === 'pending' && (row.token_expires_at === null || row.token_expires_at <= deps.clock.now())) return { problem: 'expired' };
  return { row };
}

export async function confirmSubscriber(deps: Pick<TDeps, 'db' | 'clock' | 'log'>, row: TSubscriberRow): Promise<void> {
  if (row.status === 'confirmed') return;
  await setSubscriberStatus(deps.db, row.id, 'confirmed', deps.clock.now());
  deps.log.info({ subscriberId: row.id }, 'newsletter subscription confirmed');
}

export async function unsubscribeSubscriber(deps: Pick<TDeps, 'db' | 'clock' | 'log'>, row: TSubscriberRow): Promise<void> {
  if (row.status === 'unsubscribed') return;
  await setSubscriberStatus(deps.db, row.id, 'unsubscribed', deps.clock.now());
  deps.log.info({ subscriberId: row.id }, 'newsletter unsubscribed');
}

// ---- Unsubscribe links: the subscriber's id, signed (a link cannot be made for another row).

function unsubscribeTokenOf(deps: Pick<TDeps, 'keys'>, id: string): string {
  if (!deps.keys) throw new Error('The unsubscribe key is not loaded (SESSION_SECRET is required in production)');
  return createHmac('sha256', deps.keys.unsubscribe).update(`newsletter-unsubscribe:${id}`).digest('base64url');
}

export function newsletterUnsubscribeQuery(deps: Pick<TDeps, 'keys'>, id: string): string {
  return `id=${encodeURIComponent(id)}&token=${encodeURIComponent(unsubscribeTokenOf(deps, id))}`;
}

function newsletterUnsubscribeUrl(deps: Pick<TDeps, 'keys' | 'config'>, id: string): string {
  return `${deps.config.publicUrl}/api/newsletter/unsubscribe?${newsletterUnsubscribeQuery(deps, id)}`;
}

/** The subscriber a signed unsubscribe link names, or null. */
export async function findUnsubscribeTarget(deps: Pick<TDeps, 'db' | 'keys'>, id: string, token: string): Promise<TSubscriberRow | null> {
  const expected = Buffer.from(unsubscribeTokenOf(deps, id));
  const given = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return findSubscriberById(deps.db, id);
}
