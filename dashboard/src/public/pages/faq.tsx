import { ANONYMOUS_WINDOW_DAYS, EXPIRED_SITE_GRACE_DAYS, UPLOAD_LIMITS } from '@dropsite/shared/constants';
import { PLANS, TRIAL_DAYS } from '@dropsite/shared/plans';
import { TEMPLATE_CATALOGUE, TEMPLATE_IDS } from '@dropsite/shared/templates';
import type { ReactNode } from 'react';
import { formatPlanPrice } from '../../pages/landing/pricing-section.tsx';
import { CancellationRule, RefundRule } from '../content/refund-rule.tsx';
import { ContentCta } from '../layout/content-cta.tsx';
import { PageIntro } from '../layout/page-intro.tsx';
import { PublicLayout } from '../layout/public-layout.tsx';
import type { TPublicPage } from '../public-page.ts';
import './content-pages.css';

interface TFaqSection {
  id: string;
  title: string;
  questions: readonly { question: string; answer: ReactNode }[];
}

const GB = 1024 ** 3;
const gigabytes = (bytes: number) => `${Math.round(bytes / GB)} GB`;

const FAQ_SECTIONS: readonly TFaqSection[] = [
  {
    id: 'general',
    title: 'General',
    questions: [
      {
        question: 'What is Dropsite?',
        answer: (
          <p>
            Dropsite turns the files you drop into a small website with a short link and a QR code. Your clients open the link in any browser and see every file in a viewer that
            suits it: photos in a gallery, PDFs page by page, video in a player. They can download one file or everything at once as a ZIP, and, if you turn these on, mark
            favourites, leave comments and approve files.
          </p>
        ),
      },
      {
        question: 'Who is it for?',
        answer: (
          <p>Anyone who hands files to someone else and wants it to look considered: photographers, designers, videographers, agencies, freelancers, educators and sales teams.</p>
        ),
      },
      {
        question: 'Do I need an account?',
        answer: (
          <p>
            No. You can publish a site from the <a href="/">home page</a> without one. The site stays online, and the browser you published it from can follow and manage it for{' '}
            {ANONYMOUS_WINDOW_DAYS} days. Sign up free, then or later, to keep your sites, and everything visitors did on them, in your dashboard.
          </p>
        ),
      },
      {
        question: 'Do my clients need an account?',
        answer: <p>No. Anyone with the link can open the site. If you set a password, they need that password too, and nothing else.</p>,
      },
    ],
  },
  {
    id: 'uploads',
    title: 'Uploads',
    questions: [
      {
        question: 'What kinds of files can I upload?',
        answer: (
          <>
            <p>Any kind. Each file is shown in the viewer that suits it:</p>
            <ul>
              <li>images (JPG, PNG, WebP, GIF, AVIF, HEIC, TIFF and more) in a gallery with a full-screen view;</li>
              <li>PDFs in a page viewer with zoom;</li>
              <li>video (MP4, MOV, M4V, WebM) in a player, and audio in an audio player;</li>
              <li>text files such as TXT, Markdown, CSV and JSON as readable text;</li>
              <li>ZIP archives with a list of what is inside.</li>
            </ul>
            <p>Files without a preview (a PSD or a RAR archive, for example) get a card with their name, size and a Download button.</p>
          </>
        ),
      },
      {
        question: 'How large can a delivery be?',
        answer: (
          <p>
            Up to {gigabytes(PLANS.free.maxDeliveryBytes)} per delivery (all its files together) on the Free plan, and on any site published without an account, with up to{' '}
            {UPLOAD_LIMITS.maxFilesPerSite} files per site. The paid plans raise the limit to {gigabytes(PLANS.pro_monthly.maxDeliveryBytes)} (Pro) and{' '}
            {gigabytes(PLANS.business_monthly.maxDeliveryBytes)} (Business). Large files are sent in parts, so a dropped connection does not mean starting over.
          </p>
        ),
      },
      {
        question: 'Can I change the files after publishing?',
        answer: (
          <p>
            Yes, from your dashboard once you are signed in. You can add files, remove them, or replace one with a new version. The link stays the same, a replaced file keeps its
            place on the page, and the favourites and comments it had stay with it.
          </p>
        ),
      },
      {
        question: 'How long do my files stay online?',
        answer: (
          <p>
            Until you delete the site, or until the expiry date you set for it. When a site expires, visitors see a page saying so, and its files are removed from our servers{' '}
            {EXPIRED_SITE_GRACE_DAYS} days later.
          </p>
        ),
      },
    ],
  },
  {
    id: 'sharing',
    title: 'Sharing',
    questions: [
      {
        question: 'How do I share a site?',
        answer: <p>When your site is ready you get its link and a QR code. Copy the link into an email or a message, or print the QR code on a proof sheet or a flyer.</p>,
      },
      {
        question: 'Can I protect a site with a password?',
        answer: (
          <p>
            Yes. Set a password of at least 8 characters when you publish, or later from your dashboard. Visitors enter it once and stay unlocked for 12 hours. Changing or removing
            the password takes effect at once: anyone who unlocked with the old one has to enter the new one.
          </p>
        ),
      },
      {
        question: 'Can a site expire on its own?',
        answer: <p>Yes. Choose an expiry date when you publish, or set, change or remove it later from your dashboard. From that moment the link no longer shows the files.</p>,
      },
      {
        question: 'What can my clients do on the site?',
        answer: (
          <p>
            View and download every file, or download everything as one ZIP. You choose whether they can also mark favourites, leave comments, and approve files or ask for changes;
            each can be turned on or off per site.
          </p>
        ),
      },
      {
        question: 'Will I know when someone looks at my site?',
        answer: (
          <p>
            Yes. Your dashboard shows views, unique visitors and downloads, per site and per file, with a daily chart and a CSV export, plus every favourite, comment and approval.
            With notifications on, you also get an email when a client engages, once you have confirmed your address. You can turn analytics off for a site.
          </p>
        ),
      },
    ],
  },
  {
    id: 'templates',
    title: 'Templates',
    questions: [
      {
        question: 'Which templates are there?',
        answer: (
          <>
            <p>Each template has a live demo:</p>
            <ul>
              {TEMPLATE_IDS.map((id) => (
                <li key={id}>
                  <a href={TEMPLATE_CATALOGUE[id].demoPath}>{TEMPLATE_CATALOGUE[id].name}</a>: {TEMPLATE_CATALOGUE[id].description}
                </li>
              ))}
            </ul>
            <p>
              See them side by side on the <a href="/templates">templates page</a>.
            </p>
          </>
        ),
      },
      {
        question: 'Can I change the look after publishing?',
        answer: (
          <p>
            Yes. From your dashboard you can switch the template, pick one of ten themes (five styles, each in light and dark) and choose how the top of the page looks. The link
            stays the same; the site is rebuilt in a few moments.
          </p>
        ),
      },
    ],
  },
  {
    id: 'pro',
    title: 'Pro and Business',
    questions: [
      {
        question: 'What do the paid plans add?',
        answer: (
          <>
            <p>
              Pro ({formatPlanPrice(PLANS.pro_monthly)} a month) lets your clients comment on and approve files, emails you when they do, removes Free’s limit of{' '}
              {PLANS.free.limits.projects} active sites, and raises storage to {gigabytes(PLANS.pro_monthly.limits.storage)} and the delivery size to{' '}
              {gigabytes(PLANS.pro_monthly.maxDeliveryBytes)}. Business ({formatPlanPrice(PLANS.business_monthly)} a month) adds unlimited storage and deliveries up to{' '}
              {gigabytes(PLANS.business_monthly.maxDeliveryBytes)}; its team features are still marked Coming soon. Analytics, client favourites, passwords, expiry dates and
              replacing files are in every plan, Free included.
            </p>
            <p>
              The full list of each plan is on the <a href="/payment">plans page</a>.
            </p>
          </>
        ),
      },
      {
        question: 'How do I buy a paid plan?',
        answer: (
          <p>
            Signed in, open Billing from your account menu and choose Pro or Business, monthly or yearly; payment goes through Stripe’s secure checkout. New to Pro? Its{' '}
            {TRIAL_DAYS}-day free trial needs no card. For a team, you can also use Contact Sales on the <a href="/payment">plans page</a>.
          </p>
        ),
      },
    ],
  },
  {
    id: 'billing',
    title: 'Billing',
    questions: [
      {
        question: 'How much does it cost?',
        answer: (
          <p>
            Free costs nothing. Pro is {formatPlanPrice(PLANS.pro_monthly)} and Business {formatPlanPrice(PLANS.business_monthly)} a month, in US dollars; paid yearly, a year costs
            ten months.
          </p>
        ),
      },
      { question: 'How do I cancel?', answer: <CancellationRule /> },
      { question: 'What is your refund policy?', answer: <RefundRule /> },
    ],
  },
  {
    id: 'technical',
    title: 'Technical',
    questions: [
      {
        question: 'Which browsers are supported?',
        answer: <p>Current versions of Chrome, Edge, Firefox and Safari, on computers and phones. Your clients need nothing installed.</p>,
      },
      {
        question: 'Is my data secure?',
        answer: (
          <p>
            Every page and file is served over HTTPS. Passwords are stored only as a one-way hash. Files you upload are never run as code on your site. Read our{' '}
            <a href="/privacy-policy">Privacy Policy</a> for what we store and for how long.
          </p>
        ),
      },
      {
        question: 'Do you track my visitors?',
        answer: (
          <p>
            Only to count views and downloads for you, and only when analytics is on for the site. A visitor who views or engages gets a random visitor id in a cookie, so a person
            is counted once and their favourites stay theirs. There are no advertising or third-party trackers on Dropsite or on your sites.
          </p>
        ),
      },
    ],
  },
];

function Faq() {
  return (
    <PublicLayout path="/faq" mainClassName="content-page">
      <div className="container">
        <PageIntro eyebrow="FAQ" title="Frequently asked questions" lede="How Dropsite works, what it costs, and what your clients see. Open a topic to read its answers." />
        <div className="faq" data-island="faq-topics">
          {FAQ_SECTIONS.map((section, index) => (
            <details key={section.id} id={section.id} name="faq-sections" className="faq__section" open={index === 0}>
              <summary className="faq__summary">
                <h2 className="faq__title">{section.title}</h2>
                <span className="faq__count">{section.questions.length} questions</span>
              </summary>
              <div className="faq__answers prose">
                {section.questions.map((item) => (
                  <div key={item.question} className="faq__item">
                    <h3>{item.question}</h3>
                    {item.answer}
                  </div>
                ))}
              </div>
            </details>
          ))}
        </div>
        <ContentCta
          headingId="faq-cta-heading"
          title="Still have a question?"
          text="Our support team answers within a day."
          primary={{ href: '/contact', label: 'Contact Support' }}
          secondary={[
            { href: '/templates', label: 'View Templates' },
            { href: '/', label: 'Back to Home' },
          ]}
        />
      </div>
    </PublicLayout>
  );
}

export const faqPage: TPublicPage = {
  path: '/faq',
  title: 'Frequently asked questions',
  description: 'Answers about Dropsite: uploads, sharing, passwords and expiry, templates, plans, billing and refunds.',
  Page: Faq,
};
