/** The plans to compare and move to, monthly or yearly. */
import { useId } from 'react';
import { PLAN_IDS, PLANS, TRIAL_PLAN_ID, type TBillingInterval, type TPaidPlanId, type TPlanId } from '@dropsite/shared';
import { PlanFeatures } from '../../ui/plan-features.tsx';
import { formatPrice, planOffer, yearlySaving } from '../../billing/billing-view.ts';
import type { TPlanActions } from './billing-action.ts';
import { BillingSection } from './billing-section.tsx';
import '../../ui/spread-row.css';

export function PlansSection({ onInterval, ...cards }: Omit<TPlanCardProps, 'id'> & { onInterval: (interval: TBillingInterval) => void }) {
  return (
    <BillingSection titleId="billing-plans-title" title="Plans" aside={<IntervalSwitch interval={cards.interval} onChange={onInterval} />}>
      <ul role="list" className="billing-plans">
        {PLAN_IDS.map((id) => (
          <PlanCard key={id} id={id} {...cards} />
        ))}
      </ul>
      <p className="billing-section__note">
        Cancel any time in the billing portal: your plan stays until the end of the period you paid for, then your account moves to Free. Nothing is deleted.{' '}
        <a href="/refund-cancellation">Refund and cancellation policy</a>
      </p>
    </BillingSection>
  );
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

interface TPlanCardProps extends TPlanActions {
  id: TPlanId;
  interval: TBillingInterval;
  describedBy: string | undefined;
}

function PlanCard({ id, subscription, interval, busy, canBuy, canOpenPortal, canManage, describedBy, onCheckout, onPortal }: TPlanCardProps) {
  const plan = PLANS[id];
  const isCurrent = subscription.plan_id === id;
  const offer = planOffer(id, subscription, PLAN_IDS);
  const headingId = `billing-plan-${id}`;
  const saving = interval === 'yearly' ? yearlySaving(plan) : 0;
  const current = PLANS[subscription.plan_id];

  return (
    <li className="billing-plan" aria-labelledby={headingId} data-current={isCurrent ? '' : undefined}>
      <div className="billing-plan__head spread-row">
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
      {canManage && offer === 'checkout' && (
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
      {canManage && offer === 'portal' && (
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
