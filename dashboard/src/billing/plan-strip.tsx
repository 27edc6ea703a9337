/**
 * The creator's plan on /dashboard: which plan and its status, a link to /billing, and the
 * 14-day Pro trial while the creator has never had one (it opens 'Free Trial Started').
 */
import { useEffect, useState } from 'react';
import { PLANS, TRIAL_DAYS, TRIAL_PLAN_ID, type TSubscription } from '@dropsite/shared';
import { BILLING_PATH } from '../auth/auth-paths.ts';
import { fetchSubscription, startTrial } from './billing-api.ts';
import { billingActionMessage, formatBillingDate, statusBadge } from './billing-view.ts';
import { TrialStartedDialog } from './trial-started-dialog.tsx';
import { useWorkspacePermissions, useWorkspaceSwitch } from '../workspaces/workspace-store.ts';
import './billing.css';

export function PlanStrip() {
  const [subscription, setSubscription] = useState<TSubscription | null>(null);
  const [isStarting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [trialEnd, setTrialEnd] = useState<string | null | undefined>(undefined);
  // The plan is the current workspace's: a switch in the header asks again.
  const [round, setRound] = useState(0);
  useWorkspaceSwitch(() => {
    setSubscription(null);
    setError(null);
    setRound((n) => n + 1);
  });
  // Only the workspace's owner may start its trial.
  const canManage = useWorkspacePermissions()?.('billing.manage') ?? false;

  useEffect(() => {
    let isCurrent = true;
    fetchSubscription().then(
      (answer) => isCurrent && setSubscription(answer.subscription),
      // The dashboard swallows its side calls' failures (spec 8); /billing says what went wrong.
      () => undefined,
    );
    return () => {
      isCurrent = false;
    };
  }, [round]);

  const trial = async () => {
    setStarting(true);
    setError(null);
    try {
      const started = await startTrial();
      setSubscription(started);
      setTrialEnd(started.trial_end ?? started.current_period_end);
    } catch (err) {
      setError(billingActionMessage(err, 'The trial could not be started. Please try again.'));
    }
    setStarting(false);
  };

  return (
    <>
      {subscription?.trial_available && canManage ? <TrialOffer error={error} isStarting={isStarting} onStart={() => void trial()} /> : <CurrentPlan subscription={subscription} />}
      {trialEnd !== undefined && (
        <TrialStartedDialog
          trialEnd={trialEnd}
          onClose={() => {
            setTrialEnd(undefined);
            // The offer's button is gone: focus the plan line that replaced it.
            document.getElementById('plan-strip-link')?.focus();
          }}
        />
      )}
    </>
  );
}

function TrialOffer({ error, isStarting, onStart }: { error: string | null; isStarting: boolean; onStart: () => void }) {
  const pro = PLANS[TRIAL_PLAN_ID];
  return (
    <section className="plan-strip plan-strip--offer" aria-labelledby="plan-strip-title">
      <div className="plan-strip__text">
        <h2 id="plan-strip-title" className="plan-strip__title">
          Try {pro.name} free for {TRIAL_DAYS} days
        </h2>
        <p>Comments, approvals, email notifications and {pro.name}’s storage for your sites. No card needed, and nothing is charged when it ends.</p>
        {error && (
          <p className="plan-strip__error" role="alert">
            {error}
          </p>
        )}
      </div>
      <div className="plan-strip__actions">
        <button type="button" className="button button--primary" onClick={onStart} disabled={isStarting}>
          {isStarting ? 'Starting your trial…' : 'Start Free Trial'}
        </button>
        <a className="button button--secondary" href={BILLING_PATH}>
          See plans
        </a>
      </div>
    </section>
  );
}

function CurrentPlan({ subscription }: { subscription: TSubscription | null }) {
  const badge = subscription ? statusBadge(subscription.status) : null;
  const trialEnds = subscription?.status === 'trialing' ? formatBillingDate(subscription.trial_end) : '';
  return (
    <section className="plan-strip" aria-label="Your plan">
      <p className="plan-strip__plan">
        {subscription && badge ? (
          <>
            <span>{PLANS[subscription.plan_id].name} plan</span>
            <span className="billing-badge" data-tone={badge.tone}>
              {badge.label}
            </span>
            {trialEnds && <span className="plan-strip__note">until {trialEnds}</span>}
          </>
        ) : (
          <span>Your plan</span>
        )}
      </p>
      <a id="plan-strip-link" className="plan-strip__link" href={BILLING_PATH}>
        Plan and billing
      </a>
    </section>
  );
}
