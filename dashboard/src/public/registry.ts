/** Every prerendered public page of the route table. The prerender writes each; the API serves them by path. */
import { aboutUsPage } from './pages/about-us.tsx';
import { articlePages, blogPages } from './pages/blog.tsx';
import { contactPage } from './pages/contact.tsx';
import { faqPage } from './pages/faq.tsx';
import { feedbackPage } from './pages/feedback.tsx';
import { helpPage } from './pages/help.tsx';
import { heroExamplesPage } from './pages/hero-examples.tsx';
import { notFoundPage } from './pages/not-found.tsx';
import { paymentPage } from './pages/payment.tsx';
import { privacyPolicyPage } from './pages/privacy-policy.tsx';
import { refundCancellationPage } from './pages/refund-cancellation.tsx';
import { templatesPage } from './pages/templates.tsx';
import { termsConditionsPage, termsOfServicePage } from './pages/terms.tsx';
import type { TPublicPage } from './public-page.ts';

export const PUBLIC_PAGES: readonly TPublicPage[] = [
  notFoundPage,
  faqPage,
  helpPage,
  privacyPolicyPage,
  termsConditionsPage,
  termsOfServicePage,
  refundCancellationPage,
  aboutUsPage,
  contactPage,
  feedbackPage,
  paymentPage,
  ...blogPages,
  ...articlePages,
  templatesPage,
  heroExamplesPage,
];
