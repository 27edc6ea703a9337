import { PLANS, PLAN_IDS, type TPlan, type TPlanId } from '@dropsite/shared';
import { CheckIcon } from '../../components/icons.tsx';

const PLAN_COPY: Record<TPlanId, { summary: string; action: string; isFeatured?: boolean }> = {
  free: { summary: 'For trying Dropsite with real clients.', action: 'Get Started' },
  pro_monthly: { summary: 'For working photographers and designers.', action: 'Start Free Trial', isFeatured: true },
  business_monthly: { summary: 'For studios and agencies that deliver as a team.', action: 'Contact Sales' },
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
    <section id="pricing" className="section section--alt" aria-labelledby="pricing-heading">
      <div className="container">
        <div className="section-heading section-heading--center">
          <p className="eyebrow">Pricing</p>
          <h2 id="pricing-heading">Start free. Upgrade when your clients need more.</h2>
        </div>
        <ul role="list" className="plans">
          {PLAN_IDS.map((id) => {
            const plan = PLANS[id];
            const copy = PLAN_COPY[id];
            const headingId = `plan-${id}`;
            return (
              <li key={id} className="plan" data-featured={copy.isFeatured ? '' : undefined}>
                <div className="plan__head">
                  <h3 id={headingId} className="plan__name">
                    {plan.name}
                  </h3>
                  {copy.isFeatured && <span className="tag tag--accent">Most Popular</span>}
                </div>
                <p className="plan__summary">{copy.summary}</p>
                <p className="plan__price">
                  <span className="plan__amount">{formatPlanPrice(plan)}</span>
                  <span className="plan__period">/ month</span>
                </p>
                <a className={`button ${copy.isFeatured ? 'button--primary' : 'button--secondary'} plan__button`} href="/billing">
                  {copy.action}
                </a>
                <ul role="list" className="plan__features">
                  {plan.features.map((feature) => (
                    <li key={feature}>
                      <CheckIcon size={16} />
                      {feature}
                    </li>
                  ))}
                </ul>
              </li>
            );
          })}
        </ul>
        <p className="pricing__note">
          Prices in US dollars, billed monthly. Questions about plans? <a href="/faq">Read the FAQ</a>.
        </p>
      </div>
    </section>
  );
}
