/**
 * /billing (spec 2 'Billing dashboard'): the signed-in creator's plan with its status badge and
 * renewal or end date, what they use of it, the plans they can move to (Stripe Checkout, monthly or
 * yearly), the Customer Portal for paying creators, and the one Pro trial. Coming back from
 * Checkout the page waits until Stripe's webhook has fulfilled the payment: the browser's return
 * upgrades nothing, so no success is shown before the server says so.
 */
import { useCallback, useEffect, useState } from 'react';
import {
  BILLING_ERRORS,
  BILLING_UI_MESSAGES,
  type TBillingInterval,
  type TPaidPlanId,
  type TSubscription,
  type TSubscriptionResponse,
  type TUsageResponse,
} from '@dropsite/shared';
import { ApiRequestError } from '@dropsite/shared/browser/api-client';
import { BILLING_PATH } from '../../auth/auth-paths.ts';
import { SiteFooter } from '../../chrome/site-footer.tsx';
import { SiteHeader } from '../../chrome/site-header.tsx';
import { AccessGuard } from '../../auth/access-guard.tsx';
import { createCheckout, fetchSubscription, fetchUsage, openBillingPortal, startTrial } from '../../billing/billing-api.ts';
import { billingActionMessage, billingLoadMessage, isCheckoutFulfilled, readCheckoutReturn, type TCheckoutReturn } from '../../billing/billing-view.ts';
import { TrialStartedDialog } from '../../billing/trial-started-dialog.tsx';
import type { TBusy } from './billing-action.ts';
import { BillingDetails } from './billing-details.tsx';
import { CheckoutReturnNotice, type TCheckoutWait } from './billing-notices.tsx';
import { BillingSkeleton } from './billing-skeleton.tsx';
import { useWorkspacePermissions, useWorkspaceSwitch } from '../../workspaces/workspace-store.ts';
import '../dashboard/dashboard.css';
import '../../billing/billing.css';

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

  // The plan is the current workspace's: another workspace in the header shows its plan.
  const can = useWorkspacePermissions();
  useWorkspaceSwitch(() => {
    setLoad({ status: 'loading' });
    setActionError(null);
    void reload();
  });

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
          canManage={can?.('billing.manage') ?? false}
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
