/**
 * A plan's feature lines as the landing page's pricing, the payment page and the billing page show
 * them: a check for what the product has, a dot and 'Coming soon' for what it does not have yet.
 * Each page places and spaces the list with its own class.
 */
import type { TPlan } from '@dropsite/shared/plans';
import { CheckIcon } from './icons.tsx';
import './plan-features.css';

export function PlanFeatures({ plan, className }: { plan: TPlan; className: string }) {
  return (
    <ul role="list" className={`plan-features ${className}`}>
      {plan.features.map((feature) => (
        <li key={feature.label} data-coming-soon={feature.comingSoon ? '' : undefined}>
          {feature.comingSoon ? <span className="plan-features__dot" aria-hidden="true" /> : <CheckIcon size={16} />}
          <span>
            {feature.label}
            {feature.comingSoon && <span className="plan-features__soon">Coming soon</span>}
          </span>
        </li>
      ))}
    </ul>
  );
}
