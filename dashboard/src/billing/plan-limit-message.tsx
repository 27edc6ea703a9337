/** A refusal's message, followed by a link to the plans when a better plan cures it (a plan limit or a Pro feature). */
import { BILLING_PATH } from '../auth/auth-paths.ts';
import { planLimitOf } from './billing-view.ts';

export function PlanLimitMessage({ message }: { message: string }) {
  if (planLimitOf(message) === null) return message;
  return (
    <>
      {message}{' '}
      <a className="plan-limit-link" href={BILLING_PATH}>
        See plans and upgrade
      </a>
    </>
  );
}
