import { EXPIRED_SITE_GRACE_DAYS } from '@dropsite/shared/constants';
import { TRIAL_DAYS } from '@dropsite/shared/plans';
import { ArrowRightIcon } from '../../ui/icons.tsx';
import { legalPage, type TLegalSection } from '../content/legal-document.tsx';

const MINIMUM_AGE = 13;
/** Policy (spec: liability limited to what was paid in the last 90 days). */
export const LIABILITY_WINDOW_DAYS = 90;

/** The 13 sections of the Terms and Conditions (spec 2, Legal pages). */
const SECTIONS: readonly TLegalSection[] = [
  {
    id: 'eligibility',
    title: 'Eligibility',
    body: (
      <p>
        You must be at least {MINIMUM_AGE} years old to use Dropsite, and old enough in your country to agree to these terms; if you are not, a parent or guardian must agree to
        them for you. If you use Dropsite for an organisation, you confirm that you may accept these terms on its behalf.
      </p>
    ),
  },
  {
    id: 'services',
    title: 'Our services',
    body: (
      <p>
        Dropsite turns files you upload into a website with a link and a QR code, and lets the people you share it with view and download your files and, where you allow it, mark
        favourites, comment and approve. We may change, add or remove features; when a change takes away something you pay for, we tell you in advance.
      </p>
    ),
  },
  {
    id: 'your-responsibilities',
    title: 'Your responsibilities',
    body: (
      <>
        <p>You are responsible for what you upload and share. You agree not to use Dropsite to:</p>
        <ul>
          <li>share content you do not have the right to share, or that infringes anyone's intellectual property or privacy;</li>
          <li>share content that is illegal, that exploits or harms children, or that harasses, threatens or defames anyone;</li>
          <li>distribute malware, phishing pages or anything meant to deceive or harm visitors;</li>
          <li>get around limits, passwords or other protections, or put an unreasonable load on the service.</li>
        </ul>
        <p>We may take down a site that breaks these rules, and we act on valid notices of infringement.</p>
      </>
    ),
  },
  {
    id: 'accounts',
    title: 'Accounts',
    body: (
      <p>
        Keep your password and sign-in links to yourself; you are responsible for what happens under your account. Give us a real email address you can read: we use it for sign-in
        links and important notices. You can delete your account at any time from your Account page.
      </p>
    ),
  },
  {
    id: 'file-storage',
    title: 'File storage',
    body: (
      <p>
        We store your files for as long as their site exists: until you delete it or your account, or until the expiry date you set. The files of an expired site are removed from
        our servers {EXPIRED_SITE_GRACE_DAYS} days after it expires, those of a deleted site shortly after you delete it, and they cannot be recovered after that. Dropsite is a way
        to deliver files, not a backup: keep your own copies.
      </p>
    ),
  },
  {
    id: 'plans-and-payments',
    title: 'Plans and payments',
    body: (
      <p>
        Dropsite has a Free plan and paid plans billed in advance, monthly or yearly as you choose at checkout, in US dollars; the plans and prices are listed on our{' '}
        <a href="/payment">plans page</a>. Pro can be tried free for {TRIAL_DAYS} days, once, without a card. Paid plans renew until you cancel, and cancelling takes effect at the
        end of the period you paid for. Fees are non-refundable, except as set out in our <a href="/refund-cancellation">Refund and Cancellation Policy</a> or required by law. We
        tell you before a price change applies to you.
      </p>
    ),
  },
  {
    id: 'intellectual-property',
    title: 'Intellectual property',
    body: (
      <p>
        Your files stay yours. You give us only the permission we need to store them, make previews of them and show them to the people you share your site with. Dropsite's
        software, design and name are ours; you may not copy them or use our name in a way that suggests we endorse you.
      </p>
    ),
  },
  {
    id: 'termination',
    title: 'Termination',
    body: (
      <p>
        You can stop using Dropsite and delete your account at any time. We may suspend or end your access, and take down your sites, if you seriously or repeatedly break these
        terms, or if the law requires it. An account terminated for violating these terms gets no refund.
      </p>
    ),
  },
  {
    id: 'warranties',
    title: 'Warranties',
    body: (
      <p>
        We work to keep Dropsite available and your files safe, but the service is provided as it is and as available, without warranties of any kind, to the extent the law allows.
        We do not promise that it will be uninterrupted or free of errors.
      </p>
    ),
  },
  {
    id: 'liability',
    title: 'Limitation of liability',
    body: (
      <p>
        To the extent the law allows, we are not liable for indirect or consequential losses, such as lost profits or lost data, and our total liability to you for any claim is
        limited to the amount you paid us in the {LIABILITY_WINDOW_DAYS} days before the event that gave rise to it. Nothing in these terms limits liability that cannot be limited
        by law.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to these terms',
    body: (
      <p>
        We may update these terms. We publish the new version on this page with a new date; if you keep using Dropsite after it applies, you accept it. If you do not, you can
        delete your account.
      </p>
    ),
  },
  {
    id: 'governing-law',
    title: 'Governing law',
    body: (
      <p>
        These terms are governed by the laws of the place where Dropsite's operator is established, without regard to conflict-of-law rules; this does not take away any protection
        the law of your country gives you as a consumer.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    body: (
      <p>
        Questions about these terms? Write to us through our <a href="/contact">contact page</a>.
      </p>
    ),
  },
];

export const termsConditionsPage = legalPage({
  path: '/terms-conditions',
  title: 'Terms and Conditions',
  description: 'The terms for using Dropsite: eligibility, your responsibilities, accounts, file storage, plans and payments, liability and more.',
  intro: <p>The agreement between you and Dropsite when you publish a site, open one, or create an account. Please read it before you use the service.</p>,
  sections: SECTIONS,
});

/** The same terms at their other address, said to be the same, with a way back home. */
export const termsOfServicePage = legalPage({
  path: '/terms-of-service',
  title: 'Terms of Service',
  description: "Dropsite's Terms of Service: the same agreement as our Terms and Conditions, in full.",
  canonical: '/terms-conditions',
  intro: (
    <p>
      Our Terms of Service are our <a href="/terms-conditions">Terms and Conditions</a>: one agreement, shown in full below, that applies when you publish a site, open one, or
      create an account.
    </p>
  ),
  sections: SECTIONS,
  actions: (
    <a className="button button--secondary" href="/">
      <ArrowRightIcon size={16} className="icon--flip" />
      Back to Home
    </a>
  ),
});
