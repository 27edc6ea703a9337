/**
 * Reading the audit log: owners and admins (audit.read) page through a workspace's events, newest
 * first, filtered by type, member and dates, or take them as CSV. A workspace sees the days its plan
 * keeps (PLANS[plan].auditLogDays); the sweep removes what no plan keeps any more.
 */
import { AUDIT_EVENT_LABELS, PLANS, type TAuditEvent, type TAuditPage, type TAuditQuery, ZAuditQuerySchema } from '@dropsite/shared';
import type { Kysely } from 'kysely';
import type { TPrincipal } from '../access/principal.ts';
import { planIdOfCreator } from '../billing/plan-limits.ts';
import { planOf } from '../billing/plan-of.ts';
import type { Database } from '../db/tables.ts';
import { csvCell } from '../http/csv-cell.ts';
import type { TMembersDeps } from './members.service.ts';
import { requireWorkspacePermission } from '../workspaces/workspace-access.ts';
import { runPeriodically, type TPeriodicTask } from '../periodic-task.ts';

const DAY_MS = 86_400_000;
/** The longest any plan keeps an event: older ones are removed by the sweep. */
export const LONGEST_AUDIT_DAYS = Math.max(...Object.values(PLANS).map((plan) => plan.auditLogDays));
/** Rows a CSV export holds at most (a year of a busy studio's changes). */
const CSV_MAX_ROWS = 50_000;

type TDeps = Pick<TMembersDeps, 'db' | 'clock' | 'config'>;

type TAuditRow = Awaited<ReturnType<typeof selectEvents>>[number];

function toEvent(row: TAuditRow): TAuditEvent {
  return {
    id: row.id,
    type: row.type,
    at: new Date(row.created_at).toISOString(),
    actor: row.actor_name === null ? null : { creatorId: row.actor_creator_id, name: row.actor_name },
    target: row.target,
    details: row.details,
    address: row.address,
  };
}

/** The start of a YYYY-MM-DD day, UTC. */
const dayStart = (date: string) => Date.parse(`${date}T00:00:00.000Z`);

function selectEvents(db: Kysely<Database>, workspaceId: string, query: TAuditQuery, oldest: number, limit: number) {
  let select = db
    .selectFrom('audit_events')
    .select(['id', 'type', 'actor_creator_id', 'actor_name', 'target', 'details', 'address', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .where('created_at', '>=', oldest);
  if (query.type) select = select.where('type', '=', query.type);
  if (query.actor) select = select.where('actor_creator_id', '=', query.actor);
  if (query.from) select = select.where('created_at', '>=', dayStart(query.from));
  if (query.to) select = select.where('created_at', '<', dayStart(query.to) + DAY_MS);
  if (query.before) select = select.where('id', '<', query.before);
  return select.orderBy('id', 'desc').limit(limit).execute();
}

/** The first instant of the workspace's plan's retention. */
async function oldestKept(deps: TDeps, workspaceId: string): Promise<number> {
  const plan = planOf(await planIdOfCreator(deps, workspaceId));
  return deps.clock.now() - plan.auditLogDays * DAY_MS;
}

/** GET /api/workspaces/:id/audit: a page of events, newest first (ids sort by time). */
export async function readAuditLog(deps: TDeps, principal: TPrincipal, workspaceId: string, rawQuery: unknown): Promise<TAuditPage> {
  await requireWorkspacePermission(deps.db, principal, workspaceId, 'audit.read');
  const query = ZAuditQuerySchema.parse(rawQuery ?? {});
  const rows = await selectEvents(deps.db, workspaceId, query, await oldestKept(deps, workspaceId), query.limit + 1);
  const page = rows.slice(0, query.limit);
  return { events: page.map(toEvent), nextBefore: rows.length > query.limit ? (page.at(-1)?.id ?? null) : null };
}

export const AUDIT_CSV_COLUMNS = ['time', 'event', 'member', 'target', 'details', 'address'] as const;

/** GET /api/workspaces/:id/audit.csv: the filtered events as CSV (formula characters defused), newest first. */
export async function exportAuditLogCsv(deps: TDeps, principal: TPrincipal, workspaceId: string, rawQuery: unknown): Promise<string> {
  await requireWorkspacePermission(deps.db, principal, workspaceId, 'audit.read');
  const query = ZAuditQuerySchema.parse({ ...(typeof rawQuery === 'object' && rawQuery !== null ? rawQuery : {}), limit: undefined });
  const rows = await selectEvents(deps.db, workspaceId, query, await oldestKept(deps, workspaceId), CSV_MAX_ROWS);
  const lines = [AUDIT_CSV_COLUMNS.join(',')];
  for (const row of rows) {
    const event = toEvent(row);
    lines.push(
      [event.at, AUDIT_EVENT_LABELS[event.type], event.actor?.name ?? 'Dropsite', event.target ?? '', event.details, event.address ?? ''].map((cell) => csvCell(cell)).join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** Removes events older than any plan keeps; answers how many went. */
export async function sweepAuditLog(deps: Pick<TDeps, 'db' | 'clock'>): Promise<number> {
  const result = await deps.db
    .deleteFrom('audit_events')
    .where('created_at', '<', deps.clock.now() - LONGEST_AUDIT_DAYS * DAY_MS)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

const SWEEP_EVERY_MS = 6 * 3_600_000;

export function startAuditLogSweeper(deps: Pick<TDeps, 'db' | 'clock'> & { log: Pick<TMembersDeps['log'], 'error'> }): TPeriodicTask {
  return runPeriodically(() => sweepAuditLog(deps), {
    everyMs: SWEEP_EVERY_MS,
    onError: (err) => deps.log.error({ err }, 'sweeping the audit log failed'),
  });
}
