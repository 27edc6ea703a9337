import { FeedbackForm } from '../../forms/feedback-form.tsx';
import { PageIntro } from '../layout/page-intro.tsx';
import { PublicLayout } from '../layout/public-layout.tsx';
import type { TPublicPage } from '../public-page.ts';
import './content-pages.css';

function Feedback() {
  return (
    <PublicLayout path="/feedback" mainClassName="content-page">
      <div className="container content-page__narrow">
        <PageIntro
          eyebrow="Feedback"
          title="Tell us what you think"
          lede="What works, what does not, what you wish Dropsite did: every message is read by the people who build it. Your name and email address are optional; leave an address if you would like an answer."
        />
        <section className="feedback-panel" aria-label="Feedback form">
          <FeedbackForm headingLevel="h2" />
        </section>
        <p className="content-page__aside">
          Need help with something specific? <a href="/contact">Contact support</a> or browse the <a href="/help">Help Center</a>.
        </p>
      </div>
    </PublicLayout>
  );
}

export const feedbackPage: TPublicPage = {
  path: '/feedback',
  title: 'Feedback',
  description: 'Tell the Dropsite team what works, what does not, and what you would like next.',
  Page: Feedback,
};
