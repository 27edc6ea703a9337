/** The plan, what is used of it and the plans to move to, with the notices that apply: the page once its data is here. */
import { useId } from 'react';
import { BILLING_ERRORS, PAYMENT_GRACE_DAYS, PLANS, type TBillingInterval, type TPaidPlanId, type TSubscriptionResponse, type TUsageResponse } from '@dropsite/shared';
import { AlertIcon } from '../../ui/icons.tsx';
import { daysUntil, formatBillingDate } from '../../billing/billing-view.ts';
import type { TBusy, TPlanActions } from './billing-action.ts';
import { Banner } from './billing-notices.tsx';
import { CurrentPlanSection } from './current-plan-section.tsx';
import { PlansSection } from './plans-section.tsx';
import { UsageSection } from './usage-section.tsx';

interface TBillingDetailsProps {
  billing: TSubscriptionResponse;
  usage: TUsageResponse;
  interval: TBillingInterval;
  onInterval: (interval: TBillingInterval) => void;
  busy: TBusy;
  isWaiting: boolean;
  actionError: string | null;
  /** The creator's address, and whether it is confirmed: the trial needs a confirmed one. */
  email: string;
  isEmailConfirmed: boolean;
  onCheckout: (planId: TPaidPlanId) => void;
  onPortal: () => void;
  onTrial: () => void;
  /** The caller owns the workspace, so may change its plan (`billing.manage`); others see the plan and its use only. */
  canManage?: boolean;
}

export function BillingDetails({
  billing,
  usage,
  interval,
  onInterval,
  busy,
  isWaiting,
  actionError,
  email,
  isEmailConfirmed,
  onCheckout,
  onPortal,
  onTrial,
  canManage = true,
}: TBillingDetailsProps) {
  const { subscription, billing_configured: isConfigured } = billing;
  const plan = PLANS[subscription.plan_id];
  const isBusy = busy !== null;
  const canBuy = isConfigured && !isWaiting;
  const canOpenPortal = isConfigured && subscription.has_billing_account;
  const planActions: TPlanActions = { subscription, busy, canBuy, canOpenPortal, canManage, onCheckout, onPortal };
  const notConfiguredId = useId();
  const now = Date.now();

  return (
    <>
      {!isConfigured && (
        <Banner id={notConfiguredId} role="note" icon={<AlertIcon size={20} />} title={BILLING_ERRORS.billing_not_configured.message}>
          <p>The plans are shown so you can compare them, but none can be bought here and nothing is charged. Your account is on {plan.name}, and its limits apply.</p>
        </Banner>
      )}

      {subscription.status === 'past_due' && (
        <Banner tone="danger" role="alert" icon={<AlertIcon size={20} />} title="Your last payment failed">
          <p>
            {subscription.grace_period_end
              ? `${plan.name}’s limits stay until ${formatBillingDate(subscription.grace_period_end)} (${plural(daysUntil(subscription.grace_period_end, now), 'day')} left). `
              : `${plan.name}’s limits stay for ${PAYMENT_GRACE_DAYS} days after a failed payment. `}
            Update your card to keep them; after that your account moves to Free’s limits until a payment succeeds. Nothing is deleted.
          </p>
          {canManage && canOpenPortal && (
            <button type="button" className="button button--primary billing-banner__action" onClick={onPortal} disabled={isBusy}>
              {busy?.action === 'portal' ? 'Opening billing…' : 'Update payment method'}
            </button>
          )}
        </Banner>
      )}

      {usage.over_limit && (
        <Banner tone="warning" role="note" icon={<AlertIcon size={20} />} title="Your account is over its plan’s limits">
          <p>{BILLING_ERRORS.over_plan_limits.message}</p>
        </Banner>
      )}

      {actionError && (
        <p className="billing-action-error" role="alert">
          <AlertIcon size={18} />
          {actionError}
        </p>
      )}

      <CurrentPlanSection
        {...planActions}
        usage={usage}
        isConfigured={isConfigured}
        notConfiguredId={notConfiguredId}
        email={email}
        isEmailConfirmed={isEmailConfirmed}
        onTrial={onTrial}
      />

      <UsageSection usage={usage} />

      <PlansSection {...planActions} interval={interval} onInterval={onInterval} describedBy={isConfigured ? undefined : notConfiguredId} />
    </>
  );
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
