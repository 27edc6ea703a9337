/** The engagement teaser card's rules (spec 4 'Teaser card'). */
import { urgencyForDaysRemaining, type TEngagementSummary, type TUrgencyLevel } from '@dropsite/shared';

export interface TTeaserFacts {
  isDismissed: boolean;
  hasSession: boolean;
  summary: Pick<TEngagementSummary, 'total_interactions' | 'expired'> | null;
}

/** Hidden if dismissed, if there is no session, or if there are no interactions. */
export function isTeaserVisible({ isDismissed, hasSession, summary }: TTeaserFacts): boolean {
  return !isDismissed && hasSession && summary !== null && !summary.expired && summary.total_interactions > 0;
}

/** Urgency colour by days remaining: 1 or less high, 3 or less medium, else low. */
export function teaserUrgency(daysRemaining: number): TUrgencyLevel {
  return urgencyForDaysRemaining(daysRemaining);
}

/** 'Last day to keep it', '3 days left'. */
export function formatDaysRemaining(daysRemaining: number): string {
  if (daysRemaining <= 1) return 'Last day to keep it';
  return `${daysRemaining} days left`;
}
