/** The creator's plan: its name, status, price and dates, what it allows, and the actions on it (upgrade, trial, portal). */
import { useId, useState } from 'react';
import { PLANS, TRIAL_DAYS, type TSubscription, type TUsageResponse } from '@dropsite/shared';
import { authApi } from '../../auth/auth-api.ts';
import { failureMessage } from '../../auth/failure-message.ts';
import { formatBillingDate, formatLimit, formatPrice, statusBadge } from '../../billing/billing-view.ts';
import type { TPlanActions } from './billing-action.ts';

export function CurrentPlanSection({
  subscription,
  usage,
  isConfigured,
  canBuy,
  canOpenPortal,
  canManage,
  busy,
  notConfiguredId,
  email,
  isEmailConfirmed,
  onCheckout,
  onPortal,
  onTrial,
}: TPlanActions & {
  usage: TUsageResponse;
  isConfigured: boolean;
  /** The note that nothing can be bought here, when billing is not set up. */
  notConfiguredId: string;
  email: string;
  isEmailConfirmed: boolean;
  onTrial: () => void;
}) {
  const plan = PLANS[subscription.plan_id];
  const badge = statusBadge(subscription.status);
  const isBusy = busy !== null;
  const confirmFirstId = useId();
  const needsConfirmation = canManage && subscription.trial_available && !isEmailConfirmed;
  const dates = describeDates(subscription);
  return (
    <section className="billing-current" aria-labelledby="billing-current-title">
      <div className="billing-current__main">
        <h2 id="billing-current-title" className="billing-section-title" tabIndex={-1}>
          Current plan
        </h2>
        <p className="billing-current__plan">
          <span className="billing-current__name">{plan.name}</span>
          <span className="billing-badge" data-tone={badge.tone}>
            {badge.label}
          </span>
        </p>
        <p className="billing-current__price">
          {plan.price === 0 ? '$0, no card needed' : subscription.status === 'trialing' ? `Free for ${TRIAL_DAYS} days` : formatPrice(plan, subscription.interval ?? 'monthly')}
        </p>
        {dates && <p className="billing-current__date">{dates}</p>}
      </div>
      <dl className="billing-facts">
        <div>
          <dt>Largest delivery</dt>
          <dd>{formatLimit(usage.limits.delivery_size, 'bytes')}</dd>
        </div>
        <div>
          <dt>Comments, approvals and notifications</dt>
          <dd>{plan.proFeatures ? 'Included' : 'Pro and Business'}</dd>
        </div>
      </dl>
      {!canManage && (
        <p className="billing-current__hint" role="note">
          Only the workspace’s owner can change the plan.
        </p>
      )}
      {canManage && (
        <div className="billing-current__actions">
          {subscription.plan_id === 'free' && (
            <button
              type="button"
              className="button button--primary button--large"
              onClick={() => onCheckout('pro_monthly')}
              disabled={!canBuy || isBusy}
              aria-describedby={isConfigured ? undefined : notConfiguredId}
            >
              {busy?.action === 'checkout' && busy.planId === 'pro_monthly' ? 'Opening checkout…' : 'Upgrade to Pro'}
            </button>
          )}
          {subscription.trial_available && (
            <button
              type="button"
              className="button button--secondary button--large"
              onClick={onTrial}
              disabled={isBusy || needsConfirmation}
              aria-describedby={needsConfirmation ? confirmFirstId : undefined}
            >
              {busy?.action === 'trial' ? 'Starting your trial…' : `Start ${TRIAL_DAYS}-day Pro trial`}
            </button>
          )}
          {canOpenPortal && (
            <button type="button" className="button button--secondary button--large" onClick={onPortal} disabled={isBusy}>
              {busy?.action === 'portal' ? 'Opening billing…' : 'Manage billing'}
            </button>
          )}
        </div>
      )}
      {needsConfirmation && <ConfirmEmailForTrial id={confirmFirstId} email={email} />}
      {canManage && canOpenPortal && <p className="billing-current__hint">Change your card, download invoices or cancel in Stripe’s billing portal.</p>}
    </section>
  );
}

/** The trial needs a confirmed address: what to do, and the confirmation link sent again on request. */
function ConfirmEmailForTrial({ id, email }: { id: string; email: string }) {
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');
  const [failure, setFailure] = useState('');
  const send = async () => {
    setState('sending');
    try {
      await authApi.requestVerification();
      setState('sent');
    } catch (error) {
      setFailure(failureMessage(error));
      setState('failed');
    }
  };
  return (
    <div className="billing-confirm">
      <p id={id} className="billing-current__hint">
        Confirm your email address to start your free {TRIAL_DAYS}-day Pro trial: open the link we emailed to <strong>{email}</strong>, or send a new one.
      </p>
      <button type="button" className="button button--secondary" onClick={() => void send()} disabled={state === 'sending' || state === 'sent'}>
        {state === 'sending' ? 'Sending…' : 'Send confirmation link'}
      </button>
      <p className="billing-confirm__status" role={state === 'failed' ? 'alert' : 'status'}>
        {state === 'sent' ? `We sent a new confirmation link to ${email}. Open it, then come back to start your trial.` : state === 'failed' ? failure : ''}
      </p>
    </div>
  );
}

/** The renewal or end date line under the plan. */
function describeDates(subscription: TSubscription): string {
  const periodEnd = formatBillingDate(subscription.current_period_end);
  if (subscription.status === 'trialing') {
    const end = formatBillingDate(subscription.trial_end ?? subscription.current_period_end);
    return end ? `Trial ends on ${end}; then Free unless you choose a plan.` : 'Trial';
  }
  if (subscription.plan_id === 'free') return subscription.status === 'cancelled' && periodEnd ? `Your paid plan ended on ${periodEnd}.` : '';
  if (subscription.status === 'cancelled') return periodEnd ? `Ends on ${periodEnd}.` : 'Cancelled.';
  if (subscription.cancel_at_period_end) return periodEnd ? `Cancelled: ends on ${periodEnd}, then Free.` : 'Cancelled: ends at the end of this period, then Free.';
  return periodEnd ? `Renews on ${periodEnd}.` : '';
}
