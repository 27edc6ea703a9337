/**
 * Spec 2 'Free Trial Started': opened when the creator's Pro trial starts (on /billing or
 * /dashboard). It says the trial lasts 14 days and when it expires; Get Started closes it.
 */
import { useId } from 'react';
import { PLANS, TRIAL_DAYS, TRIAL_PLAN_ID } from '@dropsite/shared';
import { CheckIcon } from '../ui/icons.tsx';
import { SheetDialog } from '../ui/sheet-dialog.tsx';
import { formatBillingDate } from './billing-view.ts';
import './trial-started-dialog.css';

export function TrialStartedDialog({ trialEnd, onClose }: { trialEnd: string | null; onClose: () => void }) {
  const titleId = useId();
  const textId = useId();
  const plan = PLANS[TRIAL_PLAN_ID];
  const expires = formatBillingDate(trialEnd);

  return (
    <SheetDialog className="trial-dialog" cardClassName="trial-dialog__card" labelledBy={titleId} describedBy={textId} onClose={onClose}>
      {(close) => (
        <>
          <span className="trial-dialog__icon ui-tile" aria-hidden="true">
            <CheckIcon size={26} />
          </span>
          <h2 id={titleId} className="trial-dialog__title">
            Free Trial Started
          </h2>
          <div id={textId} className="trial-dialog__text">
            <p>
              Your {TRIAL_DAYS}-day {plan.name} trial has started: comments, approvals, email notifications and {plan.name}’s storage are yours to use now.
            </p>
            {expires && (
              <p className="trial-dialog__expiry">
                Your trial expires on <strong>{expires}</strong>.
              </p>
            )}
            <p className="trial-dialog__small">No card needed. When it ends your account returns to Free unless you choose a plan; nothing is deleted.</p>
          </div>
          <button type="button" className="button button--primary button--large trial-dialog__button" onClick={close} autoFocus>
            Get Started
          </button>
        </>
      )}
    </SheetDialog>
  );
}
