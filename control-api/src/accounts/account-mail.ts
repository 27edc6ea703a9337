/**
 * The messages accounts send: a sign-in link, an address verification, a password reset, an
 * email change, and the notices to the previous address of a change asked and completed (each
 * with a link that undoes it). Fixed texts with the link and nothing a caller typed besides
 * addresses, so no one can use us to mail their words to someone else. Account messages are the
 * one kind of mail that goes to an address not yet verified (that is what they verify).
 */
import { createElement as h, Fragment, type ReactElement } from 'react';
import { renderEmailHtml } from '../notifications/email-html.ts';
import type { TMailMessage } from '../notifications/mailer.ts';

export type TAccountMailKind =
  | 'sign_in_link'
  | 'claim_link'
  | 'sign_up'
  | 'sign_up_existing'
  | 'verify_email'
  | 'change_email'
  | 'password_reset'
  | 'password_reset_no_account'
  | 'email_change_requested'
  | 'email_changed';

const UNDO_LIFETIME =
  'If it was not you, use the link: your account keeps (or gets back) this address, every device is signed out and the password is removed, so you sign in again with a link sent here. The link works once, for 7 days.';
const NOTHING_TO_DO = 'If you asked for this yourself, there is nothing to do.';

const TEXTS: Record<TAccountMailKind, { subject: string; intro: string; action: string; lifetime: string; closing?: string }> = {
  sign_in_link: {
    subject: 'Your Dropsite sign-in link',
    intro: 'Use this link to sign in to Dropsite. If you have no account yet, it creates a free one for this address.',
    action: 'Sign in',
    lifetime: 'The link works once, for 15 minutes.',
  },
  claim_link: {
    subject: 'Keep your Dropsite sites and their reactions',
    intro:
      'You asked to keep the sites you published and every reaction they get. This link signs you in (creating a free account for this address on first use) and moves your sites into your account, so you can pick them up on any device.',
    action: 'Sign in and keep my sites',
    lifetime: 'The link works once, for 15 minutes. Need a new one? Sign in with this address and ask for another link.',
  },
  sign_up: {
    subject: 'Finish creating your Dropsite account',
    intro: 'Use this link to confirm your address and finish creating your free Dropsite account. It signs you in, with the name and password you chose.',
    action: 'Finish creating my account',
    lifetime: 'The link works once, for 24 hours.',
  },
  sign_up_existing: {
    subject: 'You already have a Dropsite account',
    intro:
      'Someone, probably you, tried to create a Dropsite account with this address, which already has one. Use this link to sign in; to choose a new password, use "Forgot password?" on the sign-in page.',
    action: 'Sign in',
    lifetime: 'The link works once, for 15 minutes.',
  },
  verify_email: {
    subject: 'Confirm your email address for Dropsite',
    intro: 'Confirm that this address belongs to your Dropsite account. Notifications about your sites go only to confirmed addresses.',
    action: 'Confirm my address',
    lifetime: 'The link works once, for 24 hours.',
  },
  change_email: {
    subject: 'Confirm your new email address for Dropsite',
    intro: 'You asked to use this address for your Dropsite account. Your account keeps its current address until you confirm.',
    action: 'Use this address',
    lifetime: 'The link works once, for 24 hours.',
  },
  password_reset: {
    subject: 'Reset your Dropsite password',
    intro: 'Use this link to choose a new password for your Dropsite account. Choosing one signs you out everywhere else.',
    action: 'Choose a new password',
    lifetime: 'The link works once, for 1 hour.',
  },
  email_change_requested: {
    subject: 'Someone asked to change your Dropsite email address',
    intro: 'Someone signed in to your Dropsite account asked to use {address} instead of this address. Nothing changes until that address confirms.',
    action: 'It wasn’t me: secure my account',
    lifetime: UNDO_LIFETIME,
    closing: NOTHING_TO_DO,
  },
  email_changed: {
    subject: 'Your Dropsite email address was changed',
    intro: 'Your Dropsite account now uses {address} instead of this address.',
    action: 'It wasn’t me: restore my address',
    lifetime: UNDO_LIFETIME,
    closing: NOTHING_TO_DO,
  },
  password_reset_no_account: {
    subject: 'Reset your Dropsite password',
    intro:
      'Someone, probably you, asked to reset the password of a Dropsite account for this address, but no account uses it. Perhaps you signed up with another address. Or use this link to sign in, which creates a free account for this address.',
    action: 'Sign in',
    lifetime: 'The link works once, for 15 minutes.',
  },
};

const IGNORE = 'If you did not ask for this, you can ignore this message: nothing changes without the link.';

/** An account message's HTML part: the same paragraphs as its text part, the link under its action. */
function AccountEmail({ intro, link, action, lifetime, closing }: { intro: string; link: string; action: string; lifetime: string; closing: string }): ReactElement {
  return h(Fragment, null, h('p', null, intro), h('p', null, h('a', { href: link }, action)), h('p', null, lifetime), h('p', null, closing), h('p', null, 'Dropsite'));
}

/** `address`: the new address a notice to the previous one names. */
export function accountMessage(kind: TAccountMailKind, to: string, link: string, address = ''): TMailMessage {
  const t = TEXTS[kind];
  const intro = t.intro.replace('{address}', address);
  const closing = t.closing ?? IGNORE;
  const text = `${intro}\n\n${t.action}: ${link}\n\n${t.lifetime}\n\n${closing}\n\nDropsite\n`;
  const html = renderEmailHtml(h(AccountEmail, { intro, link, action: t.action, lifetime: t.lifetime, closing }));
  return { to, subject: t.subject, text, html };
}
