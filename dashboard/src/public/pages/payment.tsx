import { APP_PATHS } from '@dropsite/shared/app-routes';
import { PLAN_IDS, PLANS, TRIAL_DAYS } from '@dropsite/shared/plans';
import { AlertIcon } from '../../ui/icons.tsx';
import { PlanFeatures } from '../../ui/plan-features.tsx';
import { formatPlanPrice } from '../../pages/landing/pricing-section.tsx';
import { SalesDialog } from '../../forms/sales-form.tsx';
import { PageIntro } from '../layout/page-intro.tsx';
import { PublicLayout } from '../layout/public-layout.tsx';
import type { TPublicPage } from '../public-page.ts';
import './content-pages.css';

/** Opens the Contact Sales dialog natively (invoker commands), so it works before any script has loaded. */
const OPEN_SALES_DIALOG = { commandfor: 'sales-dialog', command: 'show-modal' } as Record<string, string>;

function Payment() {
  return (
    <PublicLayout path="/payment" mainClassName="content-page">
      <div className="container">
        <PageIntro eyebrow="Plans" title="Plans and payment" lede="Start free. Prices are in US dollars, billed monthly, or yearly for the price of ten months." />

        <div className="notice" role="note">
          <AlertIcon size={20} />
          <div>
            <p className="notice__title">Choose a plan from your billing page</p>
            <p>
              Sign in and open Billing from your account menu: start Pro’s {TRIAL_DAYS}-day free trial (no card needed), or pay for Pro or Business, monthly or yearly, through
              Stripe’s secure checkout. Cancel any time from the same page. Want Business for your team? Contact our sales team.
            </p>
          </div>
        </div>

        <ul role="list" className="payment-plans">
          {PLAN_IDS.map((id) => {
            const plan = PLANS[id];
            return (
              <li key={id} className="payment-plan" aria-labelledby={`payment-plan-${id}`}>
                <h2 id={`payment-plan-${id}`} className="payment-plan__name">
                  {plan.name}
                </h2>
                <p className="payment-plan__summary">{plan.summary}</p>
                <p className="payment-plan__price">
                  <span className="payment-plan__amount">{formatPlanPrice(plan)}</span>
                  <span className="payment-plan__period"> / month</span>
                </p>
                {id === 'free' && (
                  <a className="button button--secondary payment-plan__action" href="/">
                    Start free
                  </a>
                )}
                {id === 'pro_monthly' && (
                  <a className="button button--primary payment-plan__action" href={APP_PATHS.billing}>
                    Choose Pro
                  </a>
                )}
                {id === 'business_monthly' && (
                  <button type="button" className="button button--primary payment-plan__action" {...OPEN_SALES_DIALOG} data-sales-open>
                    Contact Sales
                  </button>
                )}
                <PlanFeatures plan={plan} className="payment-plan__features" />
              </li>
            );
          })}
        </ul>

        <p className="content-page__aside">
          Something missing from a plan? <a href="/feedback">Tell us in the feedback form</a>. Questions about billing and refunds are answered in the{' '}
          <a href="/faq#billing">FAQ</a>.
        </p>

        <SalesDialog />
      </div>
    </PublicLayout>
  );
}

export const paymentPage: TPublicPage = {
  path: '/payment',
  title: 'Plans and payment',
  description: 'Dropsite plans in US dollars: Free, Pro and Business, monthly or yearly, with a 14-day free trial of Pro; contact sales for Business.',
  Page: Payment,
};
