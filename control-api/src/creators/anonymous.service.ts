/** What the anonymous creator's dashboard, bell and teaser read (spec 7.2, 3, 4; companion 4). */
import { EXPIRATION_WARNING_TTL_MS, NOTIFICATIONS_KEPT, type TAnonymousProject, type TEngagementSummary, type TEngagementUpdate } from '@dropsite/shared';
import type { z } from 'zod';
import type { ZEmailCollectionRequestSchema } from '@dropsite/shared';
import type { TCreatorsDeps } from './creators.deps.ts';
import { newId } from '../db/ids.ts';
import type { TAnonymousSession, TPrincipal } from '../access/principal.ts';
import { parseSiteSettings, siteExists } from '../site-records/site-records.repository.ts';
import { engagementSwitchesOf, siteSummaryOf } from '../site-records/site-summary.ts';
import { countEngagementBySite, engagementEventOf, listRecentEngagement, type TEngagementActivity } from '../engagement/engagement.repository.ts';
import { countPageViewsBySite } from '../analytics/analytics.repository.ts';
import { describeEngagement, toOneLine, urgencyOf } from '../notifications/notification-messages.ts';
import { admitNotificationRecipient, anonymousOwnerKey, normalizeEmail, requestEmailConfirmation } from '../notifications/email-confirmation.service.ts';
import { insertEmailCollection, listSitesOfAnonymousSession } from './anonymous-sessions.repository.ts';
import { DAY_MS } from '../clock.ts';

type TDeps = Pick<TCreatorsDeps, 'db' | 'config' | 'clock'>;

export async function listAnonymousSites(deps: TDeps & Pick<TCreatorsDeps, 'analytics'>, session: TAnonymousSession): Promise<TAnonymousProject[]> {
  const sites = await listSitesOfAnonymousSession(deps.db, session.id);
  const ids = sites.map((p) => p.id);
  // The views this process took are written first (the batcher holds them a moment): the counts include them.
  await deps.analytics.flush();
  const [engagement, views] = await Promise.all([countEngagementBySite(deps.db, ids), countPageViewsBySite(deps.db, ids)]);
  return sites.map((p) => {
    const counts = engagement.get(p.id) ?? { favorites: 0, comments: 0, approvals: 0 };
    return {
      ...siteSummaryOf(deps.config.publicUrl, p),
      settings: engagementSwitchesOf(parseSiteSettings(p.settings)),
      favorites_count: counts.favorites,
      comments_count: counts.comments,
      approvals_count: counts.approvals,
      views_count: views.get(p.id) ?? 0,
    };
  });
}

/** Whole days left of the window, rounded up (23 hours left is 1 day); 0 once it has ended. */
export function daysRemaining(session: TAnonymousSession, now: number): number {
  return Math.max(0, Math.ceil((session.expiresAt - now) / DAY_MS));
}

export async function summarizeAnonymousEngagement(deps: TDeps, session: TAnonymousSession): Promise<TEngagementSummary> {
  const sites = await listSitesOfAnonymousSession(deps.db, session.id);
  const engagement = await countEngagementBySite(
    deps.db,
    sites.map((p) => p.id),
  );
  let favorites = 0;
  let comments = 0;
  let approvals = 0;
  for (const counts of engagement.values()) {
    favorites += counts.favorites;
    comments += counts.comments;
    approvals += counts.approvals;
  }
  const now = deps.clock.now();
  return {
    total_interactions: favorites + comments + approvals,
    has_comments: comments > 0,
    has_favorites: favorites > 0,
    has_approvals: approvals > 0,
    days_remaining: daysRemaining(session, now),
    expired: now >= session.expiresAt,
  };
}

/**
 * The bell's updates, newest first: engagement on the session's sites, plus one high-urgency
 * expiration warning while less than 24 hours of the window remain. Nothing once it has ended.
 */
export async function listAnonymousUpdates(deps: TDeps, session: TAnonymousSession, since: number | undefined): Promise<TEngagementUpdate[]> {
  const now = deps.clock.now();
  if (now >= session.expiresAt) return [];
  const sites = await listSitesOfAnonymousSession(deps.db, session.id);
  const titles = new Map(sites.map((p) => [p.id, p.title]));
  const rows = await listRecentEngagement(deps.db, { siteIds: [...titles.keys()], since }, NOTIFICATIONS_KEPT);
  const updates = toEngagementUpdates(rows, titles, 'Sign Up Free');
  const warningAt = session.expiresAt - EXPIRATION_WARNING_TTL_MS;
  if (now >= warningAt && (since === undefined || warningAt > since)) {
    updates.push({
      id: `expiration-${session.id}`,
      type: 'expiration_warning',
      project_id: null,
      message: 'In less than 24 hours this browser stops showing your sites’ activity. Sign up free to keep following it.',
      cta_text: 'Sign Up Free',
      urgency_level: 'high',
      created_at: new Date(warningAt).toISOString(),
      expires_at: new Date(warningAt + EXPIRATION_WARNING_TTL_MS).toISOString(),
    });
  }
  return updates.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0)).slice(0, NOTIFICATIONS_KEPT);
}

/** Engagement rows as the bell's updates, each naming its site. */
export function toEngagementUpdates(rows: readonly TEngagementActivity[], titles: ReadonlyMap<string, string>, ctaText: string): TEngagementUpdate[] {
  return rows.map((row) => {
    const event = engagementEventOf(row);
    return {
      id: row.eventId,
      type: row.kind,
      project_id: row.siteId,
      message: `${describeEngagement(event)} in "${toOneLine(titles.get(row.siteId) ?? '', 80)}"`,
      cta_text: ctaText,
      urgency_level: urgencyOf(event),
      created_at: new Date(row.at).toISOString(),
      expires_at: null,
    };
  });
}

/** `since` as ISO date-time or epoch ms; undefined when absent or unreadable. */
export function parseSince(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const ms = /^\d{1,16}$/.test(text) ? Number(text) : Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * The email-collection modal's submit: counted against the address's distinct recipients, kept
 * under the caller's proven session (the payload's anonymousSessionId is never trusted), and, for a
 * creator, a confirmation link sent (once; it covers this creator's sites): the address hears
 * from us only after confirming it.
 */
export async function collectEmail(
  deps: Pick<TCreatorsDeps, 'db' | 'config' | 'clock' | 'log' | 'keys' | 'mailer'>,
  principal: TPrincipal,
  input: z.output<typeof ZEmailCollectionRequestSchema>,
): Promise<void> {
  const email = normalizeEmail(input.email);
  await admitNotificationRecipient(deps, principal.address, email);
  const session = await principal.anonymousSession();
  const siteId = input.projectId && (await siteExists(deps.db, input.projectId)) ? input.projectId : null;
  await insertEmailCollection(deps.db, {
    id: newId(),
    email: input.email,
    trigger: input.trigger,
    siteId,
    anonymousSessionId: session?.id ?? null,
    now: deps.clock.now(),
  });
  deps.log.info({ trigger: input.trigger, hasSession: session !== null }, 'email collected');
  if (session) await requestEmailConfirmation(deps, { email, ownerKey: anonymousOwnerKey(session.id) });
}
