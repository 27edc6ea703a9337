import type { TPaidPlanId } from '@dropsite/shared';

/** The action the billing page is waiting on, if any: a checkout for a plan, the portal or the trial. */
export type TBusy = { action: 'checkout'; planId: TPaidPlanId } | { action: 'portal' } | { action: 'trial' } | null;
