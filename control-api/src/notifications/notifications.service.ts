/**
 * Notifications to creators about engagement on their sites. When a site has notifications on,
 * each favourite, comment and approval queues an email and/or Slack row; a dispatcher sends each
 * site's queued rows as ONE message per channel per batch window. Rows are claimed atomically,
 * so several API processes never send the same burst twice. (The bell's in-app updates are read
 * from the engagement rows themselves: see creators/anonymous.service.ts.)
 */
import { APP_PATHS, isValidEmailAddress, isValidId, projectPagePath, type TSiteSettings } from '@dropsite/shared';
import type { Kysely, Transaction } from 'kysely';
import type { TConfig } from '../config/config.ts';
import type { TNotificationsDeps } from './notifications.deps.ts';
import type { Database, TSiteRow } from '../db/tables.ts';
import { newId } from '../db/ids.ts';
import type { RateLimiter } from '../access/rate-limiter.ts';
import type { TLimiterStore } from '../access/limiter-store.ts';
import { findSiteById, parseSiteSettings } from '../site-records/site-records.repository.ts';
import type { Mailer } from './mailer.ts';
import { composeEmail, composeSlackMessage, describeEngagement, notificationTypeOf, urgencyOf, type TEngagementEvent } from './notification-messages.ts';
import { claimBatch, findDueBatches, insertNotifications, releaseBatch, type TDueBatch, type TNewNotification } from './notifications.repository.ts';
import { isAllowedSlackWebhook, postSlackMessage } from './slack.ts';
import { confirmEmailAddressOfOwner, findEmailAddress, type TEmailAddressRow } from './email-addresses.repository.ts';
import {
  emailRecipientOf,
  ownerKeyOf,
  requestEmailConfirmation,
  sendOwedConfirmations,
  unsubscribeHeaders,
  unsubscribeUrlOf,
  type TEmailRecipient,
} from './email-confirmation.service.ts';
import { runPeriodically, type TPeriodicTask } from '../periodic-task.ts';

/** A failing destination is tried this many times, then its batch is given up (and logged). */
const MAX_SEND_ATTEMPTS = 5;

/** The hourly cap per email address or Slack webhook, one per runtime (`deps.limits.notificationDestinations`). */
export function createDestinationLimiter(notifications: TConfig['notifications'], store: TLimiterStore): RateLimiter {
  return store.rateLimiter('notification-destinations', { perMinute: notifications.maxPerHour / 60, burst: notifications.maxPerHour, whenUnavailable: 'local' });
}

type TNotifierDeps = Pick<TNotificationsDeps, 'db' | 'config' | 'clock' | 'log' | 'keys' | 'mailer' | 'limits'>;

type TSiteOwnerFields = Pick<TSiteRow, 'id' | 'owner_creator_id' | 'anonymous_session_id'>;

/** The rows one engagement event adds, written in the caller's transaction. */
export async function queueEngagementNotifications(
  deps: Pick<TNotificationsDeps, 'config' | 'clock'>,
  db: Kysely<Database> | Transaction<Database>,
  site: TSiteOwnerFields,
  settings: TSiteSettings,
  event: TEngagementEvent,
): Promise<void> {
  const now = deps.clock.now();
  const message = describeEngagement(event);
  const base = {
    siteId: site.id,
    creatorId: site.owner_creator_id,
    anonymousSessionId: site.anonymous_session_id,
    type: notificationTypeOf(event),
    message,
    urgency: urgencyOf(event),
    now,
  };
  const rows: TNewNotification[] = [];
  if (settings.enableNotifications) {
    // The site's own address, else (a site an account owns) the account's confirmed one: the dispatcher resolves which.
    if (isValidEmailAddress(settings.notificationEmail.trim()) || site.owner_creator_id !== null) {
      rows.push({ ...base, id: newId(), channel: 'email', ctaText: 'View Dashboard' });
    }
    if (isAllowedSlackWebhook(settings.slackWebhook.trim(), deps.config.notifications.slackWebhookOrigins)) {
      rows.push({ ...base, id: newId(), channel: 'slack', ctaText: 'View Dashboard' });
    }
  }
  await insertNotifications(db, rows);
}

export interface TDispatchResult {
  /** Confirmation messages sent this round (to addresses that owed one). */
  confirmations: number;
  sent: number;
  failed: number;
  deferred: number;
  dropped: number;
}

/** Sends every batch whose first row waited a whole window. Safe to run from several processes at once. */
export async function dispatchDueNotifications(deps: TNotifierDeps, mailer: Mailer = deps.mailer): Promise<TDispatchResult> {
  const result: TDispatchResult = { confirmations: 0, sent: 0, failed: 0, deferred: 0, dropped: 0 };
  result.confirmations = await sendOwedConfirmations(deps, mailer);
  const windowMs = deps.config.notifications.batchSeconds * 1000;
  const due = await findDueBatches(deps.db, deps.clock.now() - windowMs);
  for (const batch of due) {
    const outcome = await dispatchBatch(deps, batch, mailer);
    result[outcome]++;
  }
  return result;
}

type TEmailGate = { kind: 'send'; address: TEmailAddressRow } | { kind: 'wait' } | { kind: 'drop' };

/**
 * Whether a site's email notifications may go to its recipient now. Only a confirmed address gets
 * them. The account's own address was confirmed by the link that signed its owner up (or changed
 * it), so it is confirmed for the account's sites unless it unsubscribed. A site's own address: while
 * a confirmation is pending the rows wait, and the first message after confirming summarises them;
 * an unsubscribed address, or one whose link expired unconfirmed, never gets them (the creator's bell
 * and dashboard still show the activity). An address never asked (a site made before confirmations
 * existed) is asked now.
 */
async function emailGateOf(deps: TNotifierDeps, site: TSiteOwnerFields, recipient: TEmailRecipient, mailer: Mailer): Promise<TEmailGate> {
  const { email } = recipient;
  const ownerKey = ownerKeyOf(site);
  let address = await findEmailAddress(deps.db, email, ownerKey);
  if (recipient.source === 'account' && address?.status !== 'unsubscribed' && address?.status !== 'confirmed') {
    await confirmEmailAddressOfOwner(deps.db, { id: newId(), email, ownerKey, now: deps.clock.now() });
    address = await findEmailAddress(deps.db, email, ownerKey);
  }
  if (!address) {
    await requestEmailConfirmation(deps, { email, ownerKey }, mailer, { awaitSend: true });
    return { kind: 'wait' };
  }
  if (address.status === 'confirmed') return { kind: 'send', address };
  if (address.status === 'unsubscribed') return { kind: 'drop' };
  const linkIsLive = address.token_expires_at !== null && address.token_expires_at > deps.clock.now();
  return address.confirm_requested_at !== null || linkIsLive ? { kind: 'wait' } : { kind: 'drop' };
}

async function dispatchBatch(deps: TNotifierDeps, batch: TDueBatch, mailer: Mailer): Promise<keyof TDispatchResult> {
  const { db, config, clock, log } = deps;
  const site = isValidId(batch.siteId) ? await findSiteById(db, batch.siteId) : null;
  const settings = site ? parseSiteSettings(site.settings) : null;
  const recipient = site && settings && batch.channel === 'email' ? await emailRecipientOf(db, site, settings) : null;
  const destination =
    settings?.enableNotifications !== true
      ? null
      : batch.channel === 'email'
        ? (recipient?.email ?? null)
        : isAllowedSlackWebhook(settings.slackWebhook.trim(), config.notifications.slackWebhookOrigins)
          ? settings.slackWebhook.trim()
          : null;
  if (!site || !destination) {
    // The site is gone or its creator turned this channel off since: the rows are closed unsent.
    await claimBatch(db, { siteId: batch.siteId, channel: batch.channel, now: clock.now() });
    return 'dropped';
  }
  let unsubscribeUrl: string | undefined;
  let emailTo = destination;
  if (batch.channel === 'email' && recipient) {
    const gate = await emailGateOf(deps, site, recipient, mailer);
    if (gate.kind === 'wait') return 'deferred';
    if (gate.kind === 'drop') {
      await claimBatch(db, { siteId: site.id, channel: batch.channel, now: clock.now() });
      return 'dropped';
    }
    unsubscribeUrl = unsubscribeUrlOf(deps, gate.address.id);
    emailTo = gate.address.email;
  }
  const limiter = deps.limits.notificationDestinations;
  const destinationKey = `${batch.channel}:${destination.toLowerCase()}`;
  // Over the hourly cap the rows wait; the next allowed message summarises them all.
  if (!(await limiter.peek(destinationKey)).allowed) return 'deferred';
  const items = await claimBatch(db, { siteId: site.id, channel: batch.channel, now: clock.now() });
  if (items.length === 0) return 'deferred';
  await limiter.take(destinationKey);
  const context = {
    siteTitle: site.title,
    siteUrl: `${config.publicUrl}/${site.slug}`,
    // A site an account owns opens on its own page (and its settings); an anonymous one on the dashboard,
    // where signing in offers to claim it.
    dashboardUrl: `${config.publicUrl}${site.owner_creator_id ? projectPagePath(site.id) : APP_PATHS.dashboard}`,
    ...(site.owner_creator_id ? { settingsUrl: `${config.publicUrl}${projectPagePath(site.id)}#settings` } : {}),
    ...(unsubscribeUrl ? { unsubscribeUrl } : {}),
  };
  try {
    if (batch.channel === 'email') {
      if (!unsubscribeUrl) throw new Error('An email without its unsubscribe link');
      const email = composeEmail(items, context);
      await mailer.send({ to: emailTo, ...email, headers: unsubscribeHeaders(unsubscribeUrl) });
    } else {
      await postSlackMessage(destination, composeSlackMessage(items, context), config.notifications.slackWebhookOrigins);
    }
    log.info({ projectId: site.id, channel: batch.channel, items: items.length }, 'engagement notification sent');
    return 'sent';
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const attempts = Math.max(...items.map((i) => i.attempts)) + 1;
    log.warn({ err, projectId: site.id, channel: batch.channel, attempts, givenUp: attempts >= MAX_SEND_ATTEMPTS }, 'engagement notification failed');
    await releaseBatch(
      db,
      items.map((i) => i.id),
      message,
      MAX_SEND_ATTEMPTS,
    );
    return 'failed';
  }
}

/** Runs the dispatcher every few seconds (never faster than a quarter window) until stopped. */
export function startNotificationDispatcher(deps: TNotifierDeps): TPeriodicTask {
  const everyMs = Math.min(15_000, Math.max(1000, (deps.config.notifications.batchSeconds * 1000) / 4));
  return runPeriodically(() => dispatchDueNotifications(deps), { everyMs, onError: (err) => deps.log.error({ err }, 'notification dispatch failed') });
}
