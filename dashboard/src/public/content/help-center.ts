/**
 * The Help Center's categories and articles (spec 2, Help Center: six categories, each showing its
 * first 3 articles with a read time). Each article is a short, complete help text shown in place.
 */

import { ANONYMOUS_WINDOW_DAYS, UPLOAD_LIMITS } from '@dropsite/shared/constants';
import { PLANS, TRIAL_DAYS } from '@dropsite/shared/plans';

export interface THelpArticle {
  /** The anchor of the article on /help. */
  id: string;
  title: string;
  /** Paragraphs of plain text. */
  body: readonly string[];
}

export interface THelpCategory {
  id: string;
  title: string;
  description: string;
  articles: readonly THelpArticle[];
}

/** How many articles a category shows (spec 9: help categories show 3 articles). */
export const HELP_ARTICLES_SHOWN = 3;

const WORDS_PER_MINUTE = 200;

/** An article's read time in whole minutes, at least 1. */
export function readMinutes(article: THelpArticle): number {
  const words = article.body.join(' ').split(/\s+/).filter(Boolean).length + article.title.split(/\s+/).length;
  return Math.max(1, Math.round(words / WORDS_PER_MINUTE));
}

export const HELP_CATEGORIES: readonly THelpCategory[] = [
  {
    id: 'getting-started',
    title: 'Getting Started',
    description: 'Publish your first site and learn what your visitors will see.',
    articles: [
      {
        id: 'publish-your-first-site',
        title: 'Publish your first site',
        body: [
          'On the home page, drop your files into the upload box or choose them with the button. Any file type works.',
          'Pick a template, then give the site a title. A description and an author name are optional. You can also set a password or an expiry date here.',
          'Choose what visitors can do (favourites, comments, approvals, analytics, email notifications) and publish. When the site is ready you get its link and QR code.',
        ],
      },
      {
        id: 'keep-your-sites',
        title: 'Keep your sites with a free account',
        body: [
          `You can publish without an account. Such a site stays online, and the browser you used can follow its activity and manage it for ${ANONYMOUS_WINDOW_DAYS} days.`,
          'Sign up or sign in from that same browser, then or later, and your sites move into your account, with everything visitors have done on them. From then on you manage them from your dashboard on any device.',
        ],
      },
      {
        id: 'what-visitors-see',
        title: 'What your visitors see',
        body: [
          'Visitors open your link in any browser, with nothing to install and no account. They see your title and description, then each file in a viewer that suits it: a gallery for photos, a page viewer for PDFs, a player for video and audio.',
          'Every file can be downloaded on its own, and all files together as one ZIP.',
        ],
      },
    ],
  },
  {
    id: 'templates-and-design',
    title: 'Templates and Design',
    description: 'Choose a template, a theme and a header layout for your page.',
    articles: [
      {
        id: 'choose-a-template',
        title: 'Choose a template',
        body: [
          'A template decides how your files are laid out: Universal suits any mix of files, Photo Gallery puts images first, Portfolio / Resume, Event, Pitch, Product Showcase, Case Study and Client Delivery each suit their own kind of delivery.',
          'Every template has a live demo on the templates page, so you can see it before you choose.',
        ],
      },
      {
        id: 'change-the-theme',
        title: 'Change the theme',
        body: [
          'There are ten themes: five styles (professional, creative, nature, minimal and elegant), each in light and dark.',
          'Open your site in the dashboard, go to Settings and pick a theme. The site is rebuilt with it in a few moments; the link does not change.',
        ],
      },
      {
        id: 'header-layouts',
        title: 'Pick a header layout',
        body: [
          'The header is the top of your page, with its title and description. It comes in four layouts: minimal, centered, split and featured.',
          "Each template has a default. To choose another, open the site's Settings in your dashboard and pick a Header layout. Visitors can still switch the theme and layout for themselves.",
        ],
      },
    ],
  },
  {
    id: 'file-management',
    title: 'File Management',
    description: 'Add, replace and remove files, and what sizes and types are supported.',
    articles: [
      {
        id: 'supported-files',
        title: 'Supported file types and sizes',
        body: [
          'You can upload any file type. Images, PDFs, video, audio, text files and ZIP archives get a preview; every other file gets a download card.',
          `A delivery can be up to ${PLANS.free.maxDeliveryBytes / 1024 ** 3} GB in total on the Free plan, with up to ${UPLOAD_LIMITS.maxFilesPerSite} files per site. Large files are uploaded in parts, so an upload that stopped can continue where it left off.`,
        ],
      },
      {
        id: 'replace-a-file',
        title: 'Replace a file with a new version',
        body: [
          "Open the site in your dashboard, go to Settings and choose Replace next to the file. The new version takes the old one's place on the page and the link stays the same.",
          'Favourites, comments and approvals stay with the file, each marked with the version it was made on, so you can tell feedback on the old version from feedback on the new one.',
        ],
      },
      {
        id: 'add-or-remove-files',
        title: 'Add or remove files',
        body: [
          "In the site's Settings, add files to put them at the end of the page, or remove a file you no longer want to share. Removing a file also removes its favourites and comments.",
          'A site always keeps at least one file. To take everything down, delete the site instead.',
        ],
      },
    ],
  },
  {
    id: 'sharing-and-collaboration',
    title: 'Sharing and Collaboration',
    description: 'Links, QR codes, passwords, expiry, and feedback from your clients.',
    articles: [
      {
        id: 'share-link-and-qr',
        title: 'Share the link and QR code',
        body: [
          'When your site is published you get a short link and a QR code. Copy the link into an email or a message, or download the QR code for print.',
          'The link never changes, even when you replace files or switch the template.',
        ],
      },
      {
        id: 'password-and-expiry',
        title: 'Protect a site with a password or an expiry date',
        body: [
          'A password must be at least 8 characters. Visitors enter it once and stay unlocked for 12 hours. Changing or removing it applies at once to everyone.',
          'An expiry date closes the site at that moment: visitors see that it has expired. You can change or remove both from the Settings of the site.',
        ],
      },
      {
        id: 'favourites-comments-approvals',
        title: 'Favourites, comments and approvals',
        body: [
          'Turn on favourites to let clients heart the files they like, comments to collect feedback beside each file, and approvals to let them approve a file or ask for changes.',
          "You see all of it in the site's Engagement tab, and with notifications on you get an email when it happens. You can reply to comments from your dashboard.",
        ],
      },
    ],
  },
  {
    id: 'account-and-billing',
    title: 'Account and Billing',
    description: 'Your account, signing in, plans and refunds.',
    articles: [
      {
        id: 'sign-in-options',
        title: 'Sign in with a password or an email link',
        body: [
          'Sign in with your email address and password, or ask for a sign-in link by email: it works once and for 15 minutes.',
          'Forgot your password? Ask for a reset link on the sign-in page. Resetting it signs you out everywhere else.',
        ],
      },
      {
        id: 'plans-and-checkout',
        title: 'Plans and checkout',
        body: [
          `Every account starts on Free. Signed in, open Billing from your account menu: start the ${TRIAL_DAYS}-day Pro trial once (no card needed), or choose Pro or Business, monthly or yearly, and pay through Stripe’s checkout.`,
          'The billing page shows your plan, what you use of it and your renewal date; Manage billing opens Stripe’s portal for your card, invoices and cancellation.',
        ],
      },
      {
        id: 'delete-your-account',
        title: 'Delete your account',
        body: [
          'On your Account page, choose Delete account, type your email address and your password to confirm, and delete. No password on your account? Open a new sign-in link first: the page sends you one. Your sites stop answering at once, and their files and data are removed from our servers.',
        ],
      },
    ],
  },
  {
    id: 'troubleshooting',
    title: 'Troubleshooting',
    description: 'When an upload, a link or a preview does not work as expected.',
    articles: [
      {
        id: 'upload-stopped',
        title: 'An upload stopped or was refused',
        body: [
          'A large upload that stopped can continue where it left off: open the home page again in the same browser, choose the same files, and the upload box offers to continue.',
          'An upload is refused when it is larger than your plan allows, or after many uploads from one connection in a short time. The message says which; wait a while and try again.',
        ],
      },
      {
        id: 'link-does-not-open',
        title: 'A visitor cannot open the link',
        body: [
          'Check that the whole link was copied. A site that expired shows a page saying so; one that was deleted shows a page not found.',
          'If the site has a password, the visitor needs it: share it separately from the link.',
        ],
      },
      {
        id: 'no-preview',
        title: 'A file shows no preview',
        body: [
          'Some files have no preview in the browser, such as design files or RAR archives. They are shown as a card with a Download button.',
          'Presentations and office documents get a page preview only when our server can convert them; otherwise they are offered as a download too.',
        ],
      },
    ],
  },
];
