/**
 * The small pages of the public forms without JavaScript (a classic form post answers one), and the
 * newsletter's confirmation and unsubscribe pages. Same look as the email-link pages; everything shown is escaped.
 */
import { FORM_CONFIRMATIONS, type TFormKind } from '@dropsite/shared';
import { button, page } from '../notifications/email-pages.ts';
import { escapeHtml } from '../http/escape-html.ts';

/** The page each form is on, for the way back. */
const FORM_PAGES: Record<TFormKind, { path: string; label: string }> = {
  contact: { path: '/contact', label: 'Back to Contact' },
  feedback: { path: '/feedback', label: 'Back to Feedback' },
  sales: { path: '/payment', label: 'Back to Pricing and payment' },
  newsletter: { path: '/', label: 'Back to the home page' },
};

function backLink(kind: TFormKind): string {
  const to = FORM_PAGES[kind];
  return `<p style="margin-top:20px"><a href="${escapeHtml(to.path)}">${escapeHtml(to.label)}</a></p>`;
}

/** The form was taken: the same confirmation the enhanced form shows. */
export function formSentPage(kind: TFormKind): string {
  const { title, body } = FORM_CONFIRMATIONS[kind];
  return page(title, `<p>${escapeHtml(body)}</p>${backLink(kind)}`);
}

/** The form was refused: why, and how to fix it without losing what was typed. */
export function formRefusedPage(kind: TFormKind, message: string, isRateLimited: boolean): string {
  const heading = isRateLimited ? 'Please wait a little' : 'Your message was not sent';
  const hint = isRateLimited ? '' : "<p>Use your browser's Back button to correct it: what you typed is still in the form.</p>";
  return page(heading, `<p><strong>${escapeHtml(message)}</strong></p>${hint}${backLink(kind)}`);
}

export function newsletterConfirmPromptPage(options: { email: string; action: string }): string {
  return page(
    'Confirm your subscription',
    `<p>The Dropsite newsletter will go to <strong>${escapeHtml(options.email)}</strong>.</p>${button(options.action, 'Confirm subscription')}<p style="margin-top:16px">If you did not ask for this, close this page: nothing will be sent.</p>`,
  );
}

export function newsletterConfirmedPage(email: string): string {
  return page(
    'You are subscribed',
    `<p>The Dropsite newsletter will go to <strong>${escapeHtml(email)}</strong>.</p><p>Every issue has a link to unsubscribe with one click.</p>${backLink('newsletter')}`,
  );
}

export function newsletterInvalidConfirmLinkPage(): string {
  return page('This link does not work', `<p>It is not a confirmation link we sent, or a newer one replaced it.</p>${backLink('newsletter')}`);
}

export function newsletterExpiredConfirmLinkPage(): string {
  return page('This link has expired', `<p>Confirmation links work for 7 days. Subscribe again to get a new one.</p>${backLink('newsletter')}`);
}

export function newsletterUnsubscribePromptPage(options: { email: string; action: string }): string {
  return page('Unsubscribe?', `<p><strong>${escapeHtml(options.email)}</strong> will get no more Dropsite newsletters.</p>${button(options.action, 'Unsubscribe')}`);
}

export function newsletterUnsubscribedPage(email: string): string {
  return page(
    'You are unsubscribed',
    `<p><strong>${escapeHtml(email)}</strong> will get no more Dropsite newsletters.</p><p>Unsubscribed by mistake? Subscribe again from the box at the foot of our home page.</p>${backLink('newsletter')}`,
  );
}

export function newsletterInvalidUnsubscribeLinkPage(): string {
  return page('This link does not work', '<p>It is not an unsubscribe link we sent. Use the link at the bottom of one of our messages.</p>');
}
