/**
 * The one refund and cancellation rule (spec 2, Legal pages: Refund and Cancellation). The FAQ and
 * /refund-cancellation both render it from here, so the two can never say different things.
 */

export const REFUND_WINDOW_DAYS = 7;
const REFUND_CREDIT_DAYS = '7 to 14';

/** Cancelling a paid plan. */
export function CancellationRule() {
  return (
    <>
      <p>You can cancel a paid plan at any time. Your plan stays active until the end of the billing cycle you have already paid for; then your account moves to the Free plan.</p>
      <p>If you cancel during a free trial, you are not charged.</p>
    </>
  );
}

/** When a payment is refunded, how to ask, and how long it takes. */
export function RefundRule() {
  return (
    <div className="refund-rule" data-refund-rule>
      <p>Payments are not refunded, except in these cases:</p>
      <ul>
        <li>you were charged twice for the same thing because of a technical error;</li>
        <li>we made a billing error;</li>
        <li>the law requires a refund.</li>
      </ul>
      <p>
        To ask for a refund, write to us through the <a href="/contact">contact page</a> within {REFUND_WINDOW_DAYS} days of the payment, with the transaction ID, the payment
        method and the reason for the request. An approved refund is credited to the original payment method within {REFUND_CREDIT_DAYS} banking days.
      </p>
      <p>
        There is no refund when an account is terminated for violating our <a href="/terms-conditions">Terms and Conditions</a>.
      </p>
    </div>
  );
}
