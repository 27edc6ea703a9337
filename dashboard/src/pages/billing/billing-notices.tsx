/** The notices above the plan: the banner they share, and what the return from Checkout says. */
import type { ReactNode } from 'react';
import { BILLING_UI_MESSAGES } from '@dropsite/shared';
import { AlertIcon, CheckIcon } from '../../ui/icons.tsx';

export type TCheckoutWait = 'waiting' | 'confirmed' | 'timed-out' | 'cancelled' | null;

/** A notice above the plan: its icon, its title and what else it says or offers. */
export function Banner({
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

export function CheckoutReturnNotice({ wait, onCheckAgain }: { wait: TCheckoutWait; onCheckAgain: () => void }) {
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
