/**
 * The audit log's events about a site, from the route that changed it: the signed-in creator who did
 * it (their name as it is now) and the request's client address. A site outside any workspace (an
 * anonymous creator's) has no log to write to.
 */
import type { TAuditEventType } from '@dropsite/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import { recordAuditEvent } from './audit-log.repository.ts';

/** Who made a change, and from where. */
export interface TAuditActor {
  creator: { id: string; name: string };
  address: string | null;
}

/** Records an event on the site's workspace (in the caller's transaction when it passes one). */
export async function recordSiteEvent(
  db: Kysely<Database>,
  site: { workspace_id: string | null; title: string },
  by: TAuditActor | null,
  event: { type: TAuditEventType; details: string; at: number; workspaceId?: string },
): Promise<void> {
  const workspaceId = event.workspaceId ?? site.workspace_id;
  if (workspaceId === null) return;
  await recordAuditEvent(db, {
    workspaceId,
    type: event.type,
    actor: by ? { creatorId: by.creator.id, name: by.creator.name } : null,
    target: site.title,
    details: event.details,
    address: by?.address ?? null,
    at: event.at,
  });
}
