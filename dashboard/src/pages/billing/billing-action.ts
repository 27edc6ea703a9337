import type { TPaidPlanId, TSubscription } from '@dropsite/shared';

/** The action the billing page is waiting on, if any: a checkout for a plan, the portal or the trial. */
export type TBusy = { action: 'checkout'; planId: TPaidPlanId } | { action: 'portal' } | { action: 'trial' } | null;

/** What the current plan and the plan cards both act on: the subscription, what may be done now, and the actions. */
export interface TPlanActions {
  subscription: TSubscription;
  busy: TBusy;
  canBuy: boolean;
  canOpenPortal: boolean;
  /** The caller may change the workspace's plan (its owner): without it no action is offered. */
  canManage: boolean;
  onCheckout: (planId: TPaidPlanId) => void;
  onPortal: () => void;
}
