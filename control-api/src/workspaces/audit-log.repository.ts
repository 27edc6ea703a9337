/**
 * The audit log's writer: one row per change, never updated or deleted except by the retention sweep
 * (which removes whole rows past the plan's retention). An event names who did it (their name as it
 * was), what it was done to and what changed, in words, and the client address of the request; never
 * a secret value (a password is 'set' or 'removed', a token never appears).
 */
import type { TAuditEventType } from '@dropsite/shared';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/tables.ts';
import { newTimeOrderedId } from '../db/ids.ts';

export interface TAuditEventInput {
  workspaceId: string;
  type: TAuditEventType;
  /** Who did it; null for the system (a Stripe event, an expiry). */
  actor: { creatorId: string; name: string } | null;
  /** What it was done to, in words: a site's title, a member's address. */
  target: string | null;
  /** What changed, in words. */
  details: string;
  /** The client address of the request it came from; null when none did. */
  address: string | null;
  at: number;
}

/** Appends an event (inside the caller's transaction when it passes one, so the change and its record land together). */
export async function recordAuditEvent(db: Kysely<Database> | Transaction<Database>, event: TAuditEventInput): Promise<void> {
  await db
    .insertInto('audit_events')
    .values({
      id: newTimeOrderedId(event.at),
      workspace_id: event.workspaceId,
      type: event.type,
      actor_creator_id: event.actor?.creatorId ?? null,
      actor_name: event.actor?.name ?? null,
      target: event.target,
      details: event.details,
      address: event.address,
      created_at: event.at,
    })
    .execute();
}
