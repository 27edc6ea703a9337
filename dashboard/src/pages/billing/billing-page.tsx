/**
 * /billing (spec 2 'Billing dashboard'): the signed-in creator's plan with its status badge and
 * renewal or end date, what they use of it, the plans they can move to (Stripe Checkout, monthly or
 * yearly), the Customer Portal for paying creators, and the one Pro trial. Coming back from
 * Checkout the page waits until Stripe's webhook has fulfilled the payment: the browser's return
 * upgrades nothing, so no success is shown before the server says so.
 */
import { type ReactNode, useCallback, useEffect, useId, useState } from 'react';
import {
  BILLING_ERRORS,
  BILLING_UI_MESSAGES,
  PAYMENT_GRACE_DAYS,
  PLAN_IDS,
  PLANS,
  TRIAL_DAYS,
  TRIAL_PLAN_ID,
  type TBillingInterval,
  type TPaidPlanId,
  type TPlanId,
  type TSubscription,
  type TSubscriptionResponse,
  type TUsageResponse,
} from '@dropsite/shared';
import { ApiRequestError } from '@dropsite/shared/browser/api-client';
import { authApi } from '../../auth/auth-api.ts';
import { BILLING_PATH } from '../../auth/auth-paths.ts';
import { failureMessage } from '../../auth/failure-message.ts';
import { AlertIcon, CheckIcon } from '../../components/icons.tsx';
import { PlanFeatures } from '../../components/plan-features.tsx';
import { SiteFooter } from '../../components/site-footer.tsx';
import { SiteHeader } from '../../components/site-header.tsx';
import { AccessGuard } from '../dashboard/access-guard.tsx';
import { createCheckout, fetchSubscription, fetchUsage, openBillingPortal, startTrial } from './billing-api.ts';
import {
  billingActionMessage,
  billingLoadMessage,
  daysUntil,
  describeUsage,
  formatBillingDate,
  formatLimit,
  formatPrice,
  isCheckoutFulfilled,
  meterLevel,
  planOffer,
  readCheckoutReturn,
  statusBadge,
  usageMeters,
  usagePercent,
  yearlySaving,
  type TCheckoutReturn,
} from './billing-view.ts';
import { TrialStartedDialog } from './trial-started-dialog.tsx';
import '../dashboard/dashboard.css';
import './billing.css';

/** How often, and for how long, the page asks whether Stripe's webhook has fulfilled the payment. */
const CHECKOUT_POLL_MS = 2_000;
const CHECKOUT_WAIT_MS = 60_000;

export function BillingPage() {
  useEffect(() => {
    document.title = 'Billing · Dropsite';
  }, []);
  return (
    <>
      <SiteHeader isLandingPage={false} />
      <AccessGuard returnTo={`${BILLING_PATH}${window.location.search}`}>
        {(creator) => <CreatorBilling email={creator.email} isEmailConfirmed={creator.emailVerified} />}
      </AccessGuard>
      <SiteFooter />
    </>
  );
}

type TLoad = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'ready'; billing: TSubscriptionResponse; usage: TUsageResponse };
type TCheckoutWait = 'waiting' | 'confirmed' | 'timed-out' | 'cancelled' | null;
type TBusy = { action: 'checkout'; planId: TPaidPlanId } | { action: 'portal' } | { action: 'trial' } | null;

function CreatorBilling({ email, isEmailConfirmed }: { email: string; isEmailConfirmed: boolean }) {
  const [load, setLoad] = useState<TLoad>({ status: 'loading' });
  const [interval, setBillingInterval] = useState<TBillingInterval>('monthly');
  const [busy, setBusy] = useState<TBusy>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [trialEnd, setTrialEnd] = useState<string | null | undefined>(undefined);
  const [checkoutReturn] = useState<TCheckoutReturn>(() => readCheckoutReturn(window.location.search));
  const [wait, setWait] = useState<TCheckoutWait>(() => (checkoutReturn?.kind === 'success' ? 'waiting' : checkoutReturn?.kind === 'cancelled' ? 'cancelled' : null));
  const [waitRound, setWaitRound] = useState(0);

  const reload = useCallback(async () => {
    try {
      const [billing, usage] = await Promise.all([fetchSubscription(), fetchUsage()]);
      setLoad({ status: 'ready', billing, usage });
      return billing;
    } catch (error) {
      setLoad((previous) => (previous.status === 'ready' ? previous : { status: 'failed', message: billingLoadMessage(error) }));
      return null;
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  // Back from Stripe with the browser's Back button, the page may come from the back-forward cache
  // with its button still 'Opening checkout…': it is usable again.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setBusy(null);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  // Back from Checkout: ask until the subscription names the paid session, for a bounded time.
  useEffect(() => {
    if (wait !== 'waiting' || checkoutReturn?.kind !== 'success') return;
    let isStopped = false;
    let timer = 0;
    const startedAt = Date.now();
    const check = async () => {
      let subscription: TSubscription | null = null;
      try {
        subscription = (await fetchSubscription()).subscription;
      } catch {
        // A failed check is retried like an unfinished one.
      }
      if (isStopped) return;
      if (subscription && isCheckoutFulfilled(subscription, checkoutReturn.sessionId)) {
        await reload();
        if (isStopped) return;
        setWait('confirmed');
        // A reload of this page should not wait again for a payment already confirmed.
        window.history.replaceState(null, '', BILLING_PATH);
        return;
      }
      if (Date.now() - startedAt >= CHECKOUT_WAIT_MS) setWait('timed-out');
      else timer = window.setTimeout(() => void check(), CHECKOUT_POLL_MS);
    };
    void check();
    return () => {
      isStopped = true;
      window.clearTimeout(timer);
    };
  }, [wait, waitRound, checkoutReturn, reload]);

  const goTo = async (action: NonNullable<TBusy>, open: () => Promise<string>, fallback: string) => {
    setBusy(action);
    setActionError(null);
    try {
      window.location.assign(await open());
    } catch (error) {
      setActionError(billingActionMessage(error, fallback));
      setBusy(null);
      // Paid already (perhaps moments ago, in another tab): the page shows the plan and the portal to manage it.
      if (error instanceof ApiRequestError && error.status === 409 && error.message === BILLING_ERRORS.already_subscribed.message) void reload();
    }
  };
  const checkout = (planId: TPaidPlanId) => goTo({ action: 'checkout', planId }, () => createCheckout(planId, interval), BILLING_UI_MESSAGES.checkoutFailed);
  const portal = () => goTo({ action: 'portal' }, openBillingPortal, BILLING_ERRORS.portal_failed.message);
  const trial = async () => {
    setBusy({ action: 'trial' });
    setActionError(null);
    try {
      const subscription = await startTrial();
      await reload();
      setTrialEnd(subscription.trial_end ?? subscription.current_period_end);
    } catch (error) {
      setActionError(billingActionMessage(error, 'The trial could not be started. Please try again.'));
    }
    setBusy(null);
  };

  return (
    <main id="main" className="billing container" aria-busy={load.status === 'loading'}>
      <header className="billing__head">
        <p className="eyebrow">Billing</p>
        <h1 className="billing__title">Plan and billing</h1>
        <p className="billing__lede">Your plan, what you use of it, and the plans you can move to. Prices in US dollars; payments are handled by Stripe.</p>
      </header>

      <CheckoutReturnNotice
        wait={wait}
        onCheckAgain={() => {
          setWait('waiting');
          setWaitRound((round) => round + 1);
        }}
      />

      {load.status === 'loading' && <BillingSkeleton />}
      {load.status === 'failed' && (
        <div className="dash-inline-error billing-error" role="alert">
          <h2 className="billing-error__title">{BILLING_UI_MESSAGES.loadFailed}</h2>
          {load.message !== BILLING_UI_MESSAGES.loadFailed && <p>{load.message}</p>}
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              setLoad({ status: 'loading' });
              void reload();
            }}
          >
            Retry
          </button>
        </div>
      )}
      {load.status === 'ready' && (
        <BillingDetails
          billing={load.billing}
          usage={load.usage}
          interval={interval}
          onInterval={setBillingInterval}
          busy={busy}
          isWaiting={wait === 'waiting'}
          actionError={actionError}
          email={email}
          isEmailConfirmed={isEmailConfirmed}
          onCheckout={checkout}
          onPortal={portal}
          onTrial={trial}
        />
      )}
      {trialEnd !== undefined && (
        <TrialStartedDialog
          trialEnd={trialEnd}
          onClose={() => {
            setTrialEnd(undefined);
            // The trial's button is gone: focus the plan it changed rather than the page's start.
            document.getElementById('billing-current-title')?.focus();
          }}
        />
      )}
    </main>
  );
}

/** A notice above the plan: its icon, its title and what else it says or offers. */
function Banner({
  tone,
  role,
  icon,
  title,
  id,
  children,
}: {
  tone?: 'waiting' | 'success' | 'warning' | 'danger';
  role: 'status' | 'alert' | 'note';
  icon: ReactNode;
  title: ReactNode;
  id?: string;
  children?: ReactNode;
}) {
  return (
    <div id={id} className={tone ? `billing-banner billing-banner--${tone}` : 'billing-banner'} role={role}>
      {icon}
      <div>
        <p className="billing-banner__title">{title}</p>
        {children}
      </div>
    </div>
  );
}

function CheckoutReturnNotice({ wait, onCheckAgain }: { wait: TCheckoutWait; onCheckAgain: () => void }) {
  if (wait === null) return null;
  if (wait === 'waiting')
    return (
      <Banner tone="waiting" role="status" icon={<span className="billing-spinner ui-spinner" aria-hidden="true" />} title="Confirming your payment…">
        <p>Stripe is telling us about your payment. Your new plan appears here as soon as it is confirmed, usually within a few seconds.</p>
      </Banner>
    );
  if (wait === 'confirmed') return <Banner tone="success" role="status" icon={<CheckIcon size={20} />} title={BILLING_UI_MESSAGES.paymentSucceeded} />;
  if (wait === 'cancelled') return <Banner role="status" icon={<AlertIcon size={20} />} title="Checkout cancelled. You have not been charged and your plan has not changed." />;
  return (
    <Banner tone="warning" role="alert" icon={<AlertIcon size={20} />} title="Your payment has not been confirmed yet">
      <p>
        Stripe has not confirmed your payment to us yet, so your plan has not changed. This can take a few minutes. If you completed the payment you will not be charged again:
        check again shortly.
      </p>
      <button type="button" className="button button--secondary billing-banner__action" onClick={onCheckAgain}>
        Check again
      </button>
    </Banner>
  );
}

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
}: TBillingDetailsProps) {
  const { subscription, billing_configured: isConfigured } = billing;
  const plan = PLANS[subscription.plan_id];
  const badge = statusBadge(subscription.status);
  const isBusy = busy !== null;
  const canBuy = isConfigured && !isWaiting;
  const canOpenPortal = isConfigured && subscription.has_billing_account;
  const notConfiguredId = useId();
  const confirmFirstId = useId();
  const needsConfirmation = subscription.trial_available && !isEmailConfirmed;
  const now = Date.now();
  const dates = describeDates(subscription);

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
          {canOpenPortal && (
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
        {needsConfirmation && <ConfirmEmailForTrial id={confirmFirstId} email={email} />}
        {canOpenPortal && <p className="billing-current__hint">Change your card, download invoices or cancel in Stripe’s billing portal.</p>}
      </section>

      <section className="billing-section" aria-labelledby="billing-usage-title">
        <div className="billing-section__head">
          <h2 id="billing-usage-title" className="billing-section-title">
            Usage
          </h2>
          <p className="billing-section__note">API requests count from the first of the month (UTC).</p>
        </div>
        <ul role="list" className="billing-usage">
          {usageMeters(usage.currentUsage, usage.limits).map((meter) => {
            const percent = usagePercent(meter.used, meter.limit);
            // A limit of nothing (Free's API requests) has no bar until something is used of it.
            const hasBar = percent !== null && (meter.limit !== 0 || meter.used > 0);
            return (
              <li key={meter.label} className="billing-meter" data-level={meterLevel(meter.used, meter.limit)}>
                <h3 className="billing-meter__label">{meter.label}</h3>
                <p className="billing-meter__value">{describeUsage(meter.used, meter.limit, meter.unit)}</p>
                {hasBar && (
                  <div
                    className="billing-meter__bar"
                    role="meter"
                    aria-label={`${meter.label} used`}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={percent}
                    aria-valuetext={`${percent}% (${describeUsage(meter.used, meter.limit, meter.unit)})`}
                  >
                    <span className="billing-meter__fill" style={{ width: `${percent}%` }} />
                  </div>
                )}
                {hasBar && <p className="billing-meter__percent">{percent}% used</p>}
              </li>
            );
          })}
        </ul>
      </section>

      <section className="billing-section" aria-labelledby="billing-plans-title">
        <div className="billing-section__head">
          <h2 id="billing-plans-title" className="billing-section-title">
            Plans
          </h2>
          <IntervalSwitch interval={interval} onChange={onInterval} />
        </div>
        <ul role="list" className="billing-plans">
          {PLAN_IDS.map((id) => (
            <PlanCard
              key={id}
              id={id}
              subscription={subscription}
              interval={interval}
              busy={busy}
              canBuy={canBuy}
              canOpenPortal={canOpenPortal}
              describedBy={isConfigured ? undefined : notConfiguredId}
              onCheckout={onCheckout}
              onPortal={onPortal}
            />
          ))}
        </ul>
        <p className="billing-section__note">
          Cancel any time in the billing portal: your plan stays until the end of the period you paid for, then your account moves to Free. Nothing is deleted.{' '}
          <a href="/refund-cancellation">Refund and cancellation policy</a>
        </p>
      </section>
    </>
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

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
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

function IntervalSwitch({ interval, onChange }: { interval: TBillingInterval; onChange: (interval: TBillingInterval) => void }) {
  const name = useId();
  const saving = yearlySaving(PLANS.pro_monthly);
  return (
    <fieldset className="billing-interval">
      <legend className="visually-hidden">Billing interval</legend>
      {(['monthly', 'yearly'] as const).map((value) => (
        <label key={value} className="billing-interval__option">
          <input type="radio" name={name} value={value} checked={interval === value} onChange={() => onChange(value)} />
          <span>
            {value === 'monthly' ? 'Monthly' : 'Yearly'}
            {value === 'yearly' && saving > 0 && <span className="billing-interval__save"> 2 months free</span>}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

interface TPlanCardProps {
  id: TPlanId;
  subscription: TSubscription;
  interval: TBillingInterval;
  busy: TBusy;
  canBuy: boolean;
  canOpenPortal: boolean;
  describedBy: string | undefined;
  onCheckout: (planId: TPaidPlanId) => void;
  onPortal: () => void;
}

function PlanCard({ id, subscription, interval, busy, canBuy, canOpenPortal, describedBy, onCheckout, onPortal }: TPlanCardProps) {
  const plan = PLANS[id];
  const isCurrent = subscription.plan_id === id;
  const offer = planOffer(id, subscription, PLAN_IDS);
  const headingId = `billing-plan-${id}`;
  const saving = interval === 'yearly' ? yearlySaving(plan) : 0;
  const current = PLANS[subscription.plan_id];

  return (
    <li className="billing-plan" aria-labelledby={headingId} data-current={isCurrent ? '' : undefined}>
      <div className="billing-plan__head">
        <h3 id={headingId} className="billing-plan__name">
          {plan.name}
        </h3>
        {isCurrent && (
          <span className="billing-badge" data-tone="secondary">
            Current plan
          </span>
        )}
        {!isCurrent && id === TRIAL_PLAN_ID && (
          <span className="billing-badge" data-tone="accent">
            Most Popular
          </span>
        )}
      </div>
      <p className="billing-plan__summary">{plan.summary}</p>
      <p className="billing-plan__price">
        {formatPrice(plan, interval)}
        {saving > 0 && <span className="billing-plan__saving">Save ${saving}</span>}
      </p>
      {offer === 'checkout' && (
        <button
          type="button"
          className={`button ${id === TRIAL_PLAN_ID ? 'button--primary' : 'button--secondary'} billing-plan__button`}
          onClick={() => onCheckout(id as TPaidPlanId)}
          disabled={!canBuy || busy !== null}
          aria-describedby={describedBy}
        >
          {busy?.action === 'checkout' && busy.planId === id ? 'Opening checkout…' : isCurrent ? `Keep ${plan.name} after the trial` : `Upgrade to ${plan.name}`}
          <span className="visually-hidden"> ({interval === 'yearly' ? 'billed yearly' : 'billed monthly'})</span>
        </button>
      )}
      {offer === 'portal' && (
        <>
          <button type="button" className="button button--secondary billing-plan__button" onClick={onPortal} disabled={!canOpenPortal || busy !== null}>
            {busy?.action === 'portal' ? 'Opening billing…' : `Switch to ${plan.name}`}
          </button>
          <p className="billing-plan__hint">
            You pay for {current.name} through Stripe: open the billing portal to change plans, or <a href="/payment">contact sales</a>.
          </p>
        </>
      )}
      <PlanFeatures plan={plan} className="billing-plan__features" />
    </li>
  );
}

function BillingSkeleton() {
  return (
    <div className="billing-skeleton" role="status">
      <span className="visually-hidden">Loading your plan and usage…</span>
      <div aria-hidden="true">
        <div className="billing-current billing-current--skeleton">
          <div className="dash-skeleton dash-skeleton--title" />
          <div className="dash-skeleton dash-skeleton--heading" />
          <div className="dash-skeleton dash-skeleton--text" />
        </div>
        <ul role="list" className="billing-usage">
          {[0, 1, 2, 3].map((key) => (
            <li key={key} className="billing-meter">
              <div className="dash-skeleton dash-skeleton--text" />
              <div className="dash-skeleton billing-skeleton__bar" />
            </li>
          ))}
        </ul>
        <ul role="list" className="billing-plans">
          {[0, 1, 2].map((key) => (
            <li key={key} className="billing-plan">
              <div className="dash-skeleton dash-skeleton--title" />
              <div className="dash-skeleton dash-skeleton--lines" />
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
