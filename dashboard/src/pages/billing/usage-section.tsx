/** What the creator uses of the plan: a meter per limit. */
import type { TUsageResponse } from '@dropsite/shared';
import { BillingSection } from './billing-section.tsx';
import { describeUsage, meterLevel, usageMeters, usagePercent } from '../../billing/billing-view.ts';

export function UsageSection({ usage }: { usage: TUsageResponse }) {
  return (
    <BillingSection titleId="billing-usage-title" title="Usage" aside={<p className="billing-section__note">API requests count from the first of the month (UTC).</p>}>
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
    </BillingSection>
  );
}
