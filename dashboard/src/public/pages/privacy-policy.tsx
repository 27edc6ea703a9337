import { ANONYMOUS_WINDOW_DAYS, EXPIRED_SITE_GRACE_DAYS, SIGN_IN_SESSION_DAYS, VISITOR_ID_MAX_AGE_DAYS } from '@dropsite/shared/constants';
import { TRIAL_DAYS } from '@dropsite/shared/plans';
import { legalPage, type TLegalSection } from '../content/legal-document.tsx';

const SECTIONS: readonly TLegalSection[] = [
  {
    id: 'who-we-are',
    title: 'Who we are',
    body: (
      <p>
        Dropsite is a service that turns files you upload into a small website you can share with a link and a QR code. This policy explains what we store about creators (the
        people who publish sites) and visitors (the people who open them), why, for how long, and what you can ask of us. You can reach us at any time through our{' '}
        <a href="/contact">contact page</a>.
      </p>
    ),
  },
  {
    id: 'what-we-store',
    title: 'What we store',
    body: (
      <>
        <h3>Your account</h3>
        <p>
          Your email address, your name, a one-way hash of your password (never the password itself), whether your address is verified, and your sign-in sessions: when each started
          and was last used, and the browser it came from, so you can see and end them on your Account page.
        </p>
        <h3>The sites you publish</h3>
        <p>
          The files you upload, the preview images we make from them, and what you enter when publishing: title, description, author name, template, theme, the contact details you
          choose to show, your site's settings, an expiry date if you set one, and a one-way hash of the site's password if you set one. The notification address you give for a
          site is used only to send you notifications and is never shown on the site.
        </p>
        <h3>Publishing without an account</h3>
        <p>
          When you publish without signing in, your browser receives a cookie holding a random token that links it to the sites it published. We store only a hash of that token. It
          lets that browser follow and manage its sites for {ANONYMOUS_WINDOW_DAYS} days, and move them into an account when you sign up, even after those days. The sites
          themselves stay online after those days, like any other site: until they are deleted or reach the expiry date you set.
        </p>
        <h3>Visitors and engagement</h3>
        <p>
          When a visitor views a site with analytics on, or marks a favourite, comments or approves a file, their browser receives a cookie with a random visitor id issued by our
          server. With it we count views, unique visitors and downloads, and keep each favourite, comment and approval with the visitor who made it. Comments are shown under a name
          made from the visitor id (such as 'User 3f9a'), not a real name. A visitor who unlocks a password-protected site gets a cookie that keeps that site unlocked for 12 hours.
        </p>
        <h3>Email addresses you give us</h3>
        <p>
          If you give us an email address to receive notifications or a sign-in link, we store it, whether you confirmed it, and whether you unsubscribed. We record whether you
          accepted or skipped that prompt, to know how often it is useful.
        </p>
        <h3>Messages and subscriptions</h3>
        <p>
          When you use our contact, feedback or Contact Sales forms, we store what you send (name, email address, company, subject, message, rating) and forward it to our team. If
          you subscribe to our newsletter, we store your address and when you confirmed or unsubscribed.
        </p>
        <h3>Emails we send</h3>
        <p>We keep the notifications we send about your sites, with when they were sent, so a message is never sent twice.</p>
        <h3>Payments</h3>
        <p>
          Payments for the paid plans are handled by Stripe: you enter your card on Stripe's checkout page, never on ours. We store your plan, whether you pay monthly or yearly,
          its status, renewal date and cancellation, your {TRIAL_DAYS}-day trial if you started it, and Stripe's references to you and your subscription; never your card number.
        </p>
      </>
    ),
  },
  {
    id: 'cookies',
    title: 'Cookies',
    body: (
      <>
        <p>We use only cookies that the service needs to work, all of them set by our own server and unreadable by scripts:</p>
        <ul>
          <li>your sign-in session, for {SIGN_IN_SESSION_DAYS} days after you last used it;</li>
          <li>the anonymous publishing token described above;</li>
          <li>the visitor id, renewed while you keep visiting and honoured for at most {VISITOR_ID_MAX_AGE_DAYS} days;</li>
          <li>the unlock of a password-protected site, for at most 12 hours.</li>
        </ul>
        <p>We do not use advertising cookies, and we do not use cookies to follow you across other websites.</p>
      </>
    ),
  },
  {
    id: 'how-we-use-it',
    title: 'How we use it',
    body: (
      <ul>
        <li>to publish, serve and protect your sites and files;</li>
        <li>to show you who viewed, downloaded, favourited, commented on and approved your files;</li>
        <li>to send you the emails you asked for: sign-in links, verification, notifications, answers to your messages;</li>
        <li>to keep the service safe: limits on sign-in attempts, uploads and form messages, which use your connection's address in memory for a short time;</li>
        <li>to understand which parts of Dropsite are used, from the records described above.</li>
      </ul>
    ),
  },
  {
    id: 'no-trackers',
    title: 'No third-party trackers',
    body: (
      <p>
        Dropsite and the sites you publish load no advertising, analytics or social-media scripts from other companies, and every page, script and font is served from our own
        servers. Files you upload are never used to train models and never shown to anyone but the people who have your site's link (and its password, if you set one).
      </p>
    ),
  },
  {
    id: 'processors',
    title: 'Who processes data for us',
    body: (
      <>
        <p>We share data only with the providers that run parts of the service for us, only what they need, and never sell it:</p>
        <ul>
          <li>our email delivery provider, which receives the address and content of each email we send you;</li>
          <li>our hosting and storage providers, which keep the service and your files running;</li>
          <li>Stripe, for payments: it receives your name, your email address and your payment details when you buy or manage a paid plan.</li>
        </ul>
        <p>We may disclose data when the law requires it, and only the data it requires.</p>
      </>
    ),
  },
  {
    id: 'retention',
    title: 'How long we keep it',
    body: (
      <ul>
        <li>
          A site and its files, engagement and analytics: until you delete the site or your account, or until the site expires. An expired site's files and data are removed from
          our servers {EXPIRED_SITE_GRACE_DAYS} days after it expires; a deleted site's shortly after you delete it.
        </li>
        <li>Your account: until you delete it. Deleting it takes your sites offline at once and removes their files and data.</li>
        <li>Sign-in sessions: until you sign out, or {SIGN_IN_SESSION_DAYS} days without use. One-time links: removed once they expire.</li>
        <li>Unfinished uploads: removed after a day.</li>
        <li>Messages sent through our forms: as long as we need them to answer you and improve the product; ask us and we delete them.</li>
      </ul>
    ),
  },
  {
    id: 'your-rights',
    title: 'Your rights',
    body: (
      <>
        <p>
          You can see, correct and delete your data. Your name, email address, password and sessions are on your Account page, where you can also delete your account. Your sites,
          their files and their engagement are in your dashboard, where you can change or delete each one and download its engagement as CSV.
        </p>
        <p>
          You can also ask us, through the <a href="/contact">contact page</a>, for a copy of your data, for its correction or deletion, or to object to how we use it. Every
          notification email has a link to stop it. Visitors can clear our cookies in their browser at any time.
        </p>
      </>
    ),
  },
  {
    id: 'children',
    title: 'Children',
    body: (
      <p>Dropsite is not meant for children under 13, and we do not knowingly store data about them. If you believe a child has given us data, tell us and we will delete it.</p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to this policy',
    body: <p>When we change this policy, we publish the new version on this page and update the date at the top.</p>,
  },
  {
    id: 'contact',
    title: 'Contact',
    body: (
      <p>
        Questions about your data or this policy? Write to us through our <a href="/contact">contact page</a>; we reply within 24 hours.
      </p>
    ),
  },
];

export const privacyPolicyPage = legalPage({
  path: '/privacy-policy',
  title: 'Privacy Policy',
  description: 'What Dropsite stores about creators and visitors, why, for how long, and how to have it changed or deleted.',
  intro: <p>What we store when you use Dropsite or open a site made with it, why, for how long, and how to have it changed or deleted.</p>,
  sections: SECTIONS,
});
