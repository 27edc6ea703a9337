/** The audit log's filters as the page holds them, and the query string the API reads them from. */
import { ZAuditEventTypeSchema, type TAuditEventType } from '@dropsite/shared';

export interface TAuditFilters {
  /** '' for every event type. */
  type: TAuditEventType | '';
  /** A member's creator id; '' for everyone. */
  actor: string;
  /** YYYY-MM-DD (a date input's value), '' for no bound; both inclusive. */
  from: string;
  to: string;
}

export const NO_AUDIT_FILTERS: TAuditFilters = { type: '', actor: '', from: '', to: '' };

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `?type=…&actor=…&from=…&to=…&before=…`, each only when set ('' when none is): what GET …/audit and
 * …/audit.csv read. A date that is not YYYY-MM-DD (a half-typed one) is left out rather than refused.
 */
export function auditQueryString(filters: TAuditFilters, before: string | null): string {
  const query = new URLSearchParams();
  if (filters.type && ZAuditEventTypeSchema.safeParse(filters.type).success) query.set('type', filters.type);
  if (filters.actor) query.set('actor', filters.actor);
  if (ISO_DATE.test(filters.from)) query.set('from', filters.from);
  if (ISO_DATE.test(filters.to)) query.set('to', filters.to);
  if (before) query.set('before', before);
  const text = query.toString();
  return text ? `?${text}` : '';
}

/** A date range whose end comes before its start: the page says so instead of asking. */
export function isDateRangeBackwards(filters: TAuditFilters): boolean {
  return ISO_DATE.test(filters.from) && ISO_DATE.test(filters.to) && filters.from > filters.to;
}
