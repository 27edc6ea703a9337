/** The tip that offers an account: the overlay shows it with a sign-up link (opening in a new tab, the upload keeps going). */
export const ACCOUNT_TIP = 'Create a free account to keep your engagement data and manage every site you publish.';

/** The 'Almost done...' overlay's tips (spec 9: 8 tips, a new one every 4 s). */
export const WIZARD_TIPS = [
  'Share the QR code on printed proofs, invoices or a business card: it opens your site on any phone.',
  'Turn on favorites so clients can heart the shots they love, then see their picks in one place.',
  'Approvals let a client sign off on each file, so nothing gets lost in an email thread.',
  'Password-protect a delivery when it holds private work; only people you tell can open it.',
  'Set an expiry date for time-limited work and the link stops working when you say so.',
  'Visitors can download every file in full quality, one by one or all at once.',
  'Your site works on phones, tablets and desktops, in light and dark mode.',
  ACCOUNT_TIP,
] as const;
