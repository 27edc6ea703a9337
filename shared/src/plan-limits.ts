/**
 * The plan limits, one row each (spec 'pages-dashboard-billing' 3 and 9: limits {storage, projects,
 * collaborators, api_requests}, -1 unlimited): the key in a plan's `limits`, the field of the usage
 * answer that counts against it, and its usage card. The limits schema, the usage schema and the
 * billing page's cards are derived from these rows; the error a limit is refused with names it (errors.ts
 * `limit`). A new limit is a new row (docs/recipes/add-a-limit.md).
 */
import { z } from 'zod';

interface TPlanLimitRow {
  /** The field of GET /api/billing/usage's `currentUsage` counted against the limit. */
  usage: string;
  /** The usage card's title on the billing page. */
  label: string;
  /** How the card writes the figures: bytes (5 GB) or a count (3). */
  unit: 'bytes' | 'count';
  /** What is counted. */
  counts: string;
}

export const PLAN_LIMIT_ROWS = {
  storage: { usage: 'storage_used', label: 'Storage', unit: 'bytes', counts: 'Bytes of every file the creator has (originals and what is derived from them).' },
  projects: { usage: 'projects_count', label: 'Active sites', unit: 'count', counts: 'Active (published, not expired, not deleted) sites.' },
  collaborators: { usage: 'collaborators_count', label: 'Collaborators', unit: 'count', counts: 'People in the workspace and invitations not yet accepted' },
  api_requests: {
    usage: 'api_requests_count',
    label: 'API requests this month',
    unit: 'count',
    counts: "API requests this calendar month (UTC) made with API access, which is not built yet ('Coming soon'): 0 until it is.",
  },
} as const satisfies Record<string, TPlanLimitRow>;

export type TPlanLimitKey = keyof typeof PLAN_LIMIT_ROWS;
/** The limits in the order the usage cards show them. */
export const PLAN_LIMIT_KEYS = Object.keys(PLAN_LIMIT_ROWS) as TPlanLimitKey[];
type TUsageKey = (typeof PLAN_LIMIT_ROWS)[TPlanLimitKey]['usage'];

/** A limit in the catalogue's terms: a count or bytes, -1 for unlimited. */
export const ZLimitSchema = z.number().int().min(-1);
const ZCountSchema = z.number().int().nonnegative();

/** A plan's limits: one number per row, -1 for unlimited. */
export const ZPlanLimitsSchema = z.object(
  Object.fromEntries(PLAN_LIMIT_KEYS.map((key) => [key, ZLimitSchema.describe(PLAN_LIMIT_ROWS[key].counts)])) as Record<TPlanLimitKey, typeof ZLimitSchema>,
);
export type TPlanLimits = z.infer<typeof ZPlanLimitsSchema>;

/** Spec 3 'Usage': what the creator uses of each limit. */
export const ZUsageSchema = z.object(
  Object.fromEntries(PLAN_LIMIT_KEYS.map((key) => [PLAN_LIMIT_ROWS[key].usage, ZCountSchema.describe(PLAN_LIMIT_ROWS[key].counts)])) as Record<TUsageKey, typeof ZCountSchema>,
);
export type TUsage = z.infer<typeof ZUsageSchema>;

/** What the usage of `key` is, read from a usage answer. */
export function usageOf(usage: TUsage, key: TPlanLimitKey): number {
  return usage[PLAN_LIMIT_ROWS[key].usage];
}
