/** How the workspace pages write dates, seats and failures. */
import { ApiRequestError } from '@dropsite/shared/browser/api-client';
import { isUpgradeErrorCode } from '@dropsite/shared';
import type { TWorkspaceMembers } from '@dropsite/shared';

const dayFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
const momentFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
});

/** 'Dec 8, 2026' (UTC, so the server's and the page's day agree), '' for a value that is no date. */
export function formatDay(value: string): string {
  const time = Date.parse(value);
  return Number.isFinite(time) ? dayFormat.format(time) : '';
}

/** 'Dec 8, 2026, 1:05 AM UTC', '' for a value that is no date. */
export function formatMoment(value: string): string {
  const time = Date.parse(value);
  return Number.isFinite(time) ? momentFormat.format(time) : '';
}

/** '3 of 5 seats', or '3 seats (unlimited)' when the plan has no limit (-1). */
export function seatsText(seats: TWorkspaceMembers['seats']): string {
  if (seats.limit < 0) return `${seats.used} ${seats.used === 1 ? 'seat' : 'seats'} (unlimited)`;
  return `${seats.used} of ${seats.limit} ${seats.limit === 1 ? 'seat' : 'seats'}`;
}

/** Whether the seats are all taken (an invitation would be refused until the plan grows or someone leaves). */
export function seatsFull(seats: TWorkspaceMembers['seats']): boolean {
  return seats.limit >= 0 && seats.used >= seats.limit;
}

/**
 * Whether a refusal is one a better plan cures (the seat limit among them): its message is then
 * followed by a link to the plans. Read from the error's code; an API that names the seat limit with
 * a code of its own is recognised by that name too.
 */
export function isPlanRefusal(error: unknown): boolean {
  if (!(error instanceof ApiRequestError)) return false;
  if (error.code !== null && (isUpgradeErrorCode(error.code) || /seat|collaborator/i.test(error.code))) return true;
  return error.status === 402;
}
