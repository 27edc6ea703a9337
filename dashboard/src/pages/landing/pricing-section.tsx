import { APP_PATHS } from '@dropsite/shared/app-routes';
import { PLANS, PLAN_IDS, TRIAL_DAYS, type TPlan, type TPlanId } from '@dropsite/shared/plans';
import { PlanFeatures } from '../../ui/plan-features.tsx';
import { LandingSection } from './landing-section.tsx';

/**
 * Each card's button (spec 9: Pro 'Start Free Trial', Business 'Contact Sales'). Pro leads to the
 * billing page, where a signed-in creator starts the trial or buys (a signed-out visitor signs in
 * on the way); Business to the sales form on the payment page; Free starts a site.
 */
const PLAN_ACTIONS: Record<TPlanId, { label: string; href: string; isFeatured?: boolean }> = {
  free: { label: 'Get Started', href: '/#upload' },
  pro_monthly: { label: 'Start Free Trial', href: APP_PATHS.billing, isFeatured: true },
  business_monthly: { label: 'Contact Sales', href: '/payment' },
};

/** A plan's monthly price in its currency: $0, $19, $49 (cents only when a price has them). */
export function formatPlanPrice(plan: TPlan): string {
  const fractionDigits = Number.isInteger(plan.price) ? 0 : 2;
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: plan.currency,
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  }).format(plan.price);
}

export function PricingSection() {
  return (
    <LandingSection id="pricing" alt headingId="pricing-heading" eyebrow="Pricing" title="Start free. Upgrade when your clients need more." centred>
      <ul role="list" className="plans">
        {PLAN_IDS.map((id) => {
          const plan = PLANS[id];
          const action = PLAN_ACTIONS[id];
          const headingId = `plan-${id}`;
          return (
            <li key={id} className="plan" data-featured={action.isFeatured ? '' : undefined}>
              <div className="plan__head">
                <h3 id={headingId} className="plan__name">
                  {plan.name}
                </h3>
                {action.isFeatured && <span className="tag tag--accent">Most Popular</span>}
              </div>
              <p className="plan__summary">{plan.summary}</p>
              <p className="plan__price">
                <span className="plan__amount">{formatPlanPrice(plan)}</span>
                <span className="plan__period">/ month</span>
              </p>
              <a className={`button ${action.isFeatured ? 'button--primary' : 'button--secondary'} plan__button`} href={action.href}>
                {action.label}
              </a>
              <PlanFeatures plan={plan} className="plan__features" />
            </li>
          );
        })}
      </ul>
      <p className="pricing__note">
        Prices in US dollars, billed monthly, or yearly for the price of ten months. Pro starts with a {TRIAL_DAYS}-day free trial, no card needed. Cancel any time; nothing is
        deleted when a plan ends.
      </p>
    </LandingSection>
  );
}
