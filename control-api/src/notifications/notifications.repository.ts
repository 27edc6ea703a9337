/** Notification rows: the only module that queries the notifications table. */
import type { Kysely, Transaction } from 'kysely';
import type { TNotificationType, TUrgencyLevel } from '@dropsite/shared';
import type { Database } from '../db/tables.ts';

type TDb = Kysely<Database> | Transaction<Database>;

export type TNotificationChannel = 'in_app' | 'email' | 'slack';
export type TOutboundChannel = Exclude<TNotificationChannel, 'in_app'>;

export interface TNewNotification {
  id: string;
  siteId: string;
  creatorId: string | null;
  anonymousSessionId: string | null;
  type: TNotificationType;
  message: string;
  ctaText: string;
  urgency: TUrgencyLevel;
  channel: TNotificationChannel;
  now: number;
}

export async function insertNotifications(db: TDb, rows: readonly TNewNotification[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('notifications')
    .values(
      rows.map((n) => ({
        id: n.id,
        project_id: n.siteId,
        creator_id: n.creatorId,
        anonymous_session_id: n.anonymousSessionId,
        type: n.type,
        message: n.message,
        cta_text: n.ctaText,
        urgency_level: n.urgency,
        channel: n.channel,
        read_at: null,
        sent_at: null,
        created_at: n.now,
      })),
    )
    .execute();
}

export interface TDueBatch {
  siteId: string;
  channel: TOutboundChannel;
  firstAt: number;
}

/** Sites with unsent email or Slack notifications whose oldest is at least `olderThan`. */
export async function findDueBatches(db: TDb, olderThan: number): Promise<TDueBatch[]> {
  const rows = await db
    .selectFrom('notifications')
    .select(['project_id', 'channel', (eb) => eb.fn.min<number>('created_at').as('first_at')])
    .where('channel', 'in', ['email', 'slack'])
    .where('sent_at', 'is', null)
    .where('project_id', 'is not', null)
    .groupBy(['project_id', 'channel'])
    .having((eb) => eb.fn.min('created_at'), '<=', olderThan)
    .execute();
  return rows.map((r) => ({ siteId: r.project_id!, channel: r.channel as TOutboundChannel, firstAt: Number(r.first_at) }));
}

export interface TClaimedNotification {
  id: string;
  type: string;
  message: string;
  created_at: number;
  attempts: number;
}

/**
 * Claims a site's unsent notifications of one channel by stamping them sent, in one statement:
 * two dispatchers (or processes) never claim the same row, so a burst is sent once.
 */
export async function claimBatch(db: TDb, batch: { siteId: string; channel: TOutboundChannel; now: number }): Promise<TClaimedNotification[]> {
  const rows = await db
    .updateTable('notifications')
    .set({ sent_at: batch.now })
    .where('project_id', '=', batch.siteId)
    .where('channel', '=', batch.channel)
    .where('sent_at', 'is', null)
    .where('created_at', '<=', batch.now)
    .returning(['id', 'type', 'message', 'created_at', 'attempts'])
    .execute();
  return rows.sort((a, b) => a.created_at - b.created_at || a.id.localeCompare(b.id));
}

/** Gives claimed rows back after a failed send, counting the attempt; rows past `maxAttempts` stay sent (given up). */
export async function releaseBatch(db: TDb, ids: readonly string[], error: string, maxAttempts: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('notifications')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      last_error: error.slice(0, 500),
      sent_at: eb
        .case()
        .when('attempts', '>=', maxAttempts - 1)
        .then(eb.ref('sent_at'))
        .else(null)
        .end(),
    }))
    .where('id', 'in', [...ids])
    .execute();
}

export async function listNotificationsOfSite(
  db: TDb,
  siteId: string,
): Promise<Array<{ id: string; channel: string; type: string; message: string; sent_at: number | null; attempts: number }>> {
  return db
    .selectFrom('notifications')
    .select(['id', 'channel', 'type', 'message', 'sent_at', 'attempts'])
    .where('project_id', '=', siteId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
