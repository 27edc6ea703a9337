import { legalPage, type TLegalSection } from '../content/legal-document.tsx';
import { CancellationRule, RefundRule } from '../content/refund-rule.tsx';

const SECTIONS: readonly TLegalSection[] = [
  { id: 'cancellation', title: 'Cancellation', body: <CancellationRule /> },
  { id: 'refunds', title: 'Refunds', body: <RefundRule /> },
  {
    id: 'free-plan',
    title: 'The Free plan',
    body: <p>The Free plan costs nothing, so there is nothing to cancel or refund: you can stop using it, or delete your account from your Account page, at any time.</p>,
  },
  {
    id: 'contact',
    title: 'Contact',
    body: (
      <p>
        Questions about a payment, a cancellation or a refund? Write to us through our <a href="/contact">contact page</a>.
      </p>
    ),
  },
];

export const refundCancellationPage = legalPage({
  path: '/refund-cancellation',
  title: 'Refund and Cancellation Policy',
  description: 'Cancel a Dropsite plan at any time; it stays active to the end of the billing cycle. When payments are refunded and how to ask.',
  intro: (
    <p>
      How to cancel a paid plan, and when a payment is refunded. The same rule applies everywhere we mention it, including our <a href="/faq#billing">FAQ</a>.
    </p>
  ),
  sections: SECTIONS,
});
