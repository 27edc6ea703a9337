/** The small pages a recipient lands on from a confirmation or unsubscribe link. Everything shown is escaped. */
import { escapeHtml } from '../http/escape-html.ts';

const STYLE = `
:root{color-scheme:light dark;--bg:#f8f7f4;--card:#fff;--text:#1c1b19;--muted:#625f58;--accent:#e8492a}
@media (prefers-color-scheme:dark){:root{--bg:#141311;--card:#1d1c19;--text:#f3f1ec;--muted:#a9a59c;--accent:#ff6b4a}}
*{box-sizing:border-box}html,body{margin:0;height:100%}
body{display:grid;place-items:center;background:var(--bg);color:var(--text);font:16px/1.55 ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;padding:24px}
main{background:var(--card);border-radius:16px;padding:40px 36px;max-width:480px;width:100%;text-align:center;box-shadow:0 1px 2px rgba(0,0,0,.06),0 12px 32px rgba(0,0,0,.08)}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 8px;letter-spacing:-.01em}p{margin:0 0 12px;color:var(--muted)}strong{color:var(--text)}
form{margin:20px 0 0}button{font:inherit;font-weight:600;border:0;border-radius:10px;padding:12px 22px;background:var(--accent);color:#fff;cursor:pointer}
button:focus-visible,a:focus-visible{outline:3px solid var(--text);outline-offset:2px}
a{color:var(--text);font-weight:600;text-underline-offset:3px}`;

export function page(heading: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><meta name="referrer" content="no-referrer"><title>${escapeHtml(heading)}</title><style>${STYLE}</style></head><body><main><h1>${escapeHtml(heading)}</h1>${body}</main></body></html>`;
}

export function button(action: string, label: string): string {
  return `<form method="post" action="${escapeHtml(action)}"><button type="submit">${escapeHtml(label)}</button></form>`;
}

/** “A”, “B” and “C”: the creator's site titles, already shortened to one line each. */
function siteList(titles: readonly string[]): string {
  const quoted = titles.map((t) => `“${escapeHtml(t)}”`);
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
}

function forSites(titles: readonly string[]): string {
  return titles.length === 0 ? 'your sites' : `${titles.length === 1 ? 'the site' : 'the sites'} ${siteList(titles)}`;
}

export function confirmPromptPage(options: { email: string; titles: readonly string[]; action: string }): string {
  return page(
    'Confirm your email address',
    `<p>Notifications about activity on ${forSites(options.titles)} will go to <strong>${escapeHtml(options.email)}</strong>.</p>${button(options.action, 'Confirm email address')}<p style="margin-top:16px">If you did not ask for this, close this page: nothing will be sent.</p>`,
  );
}

export function confirmedPage(options: { email: string; titles: readonly string[]; sentSignInLink?: boolean }): string {
  const body =
    options.titles.length === 0
      ? `<p>We can now write to <strong>${escapeHtml(options.email)}</strong> about your sites.</p>`
      : `<p>You will get notifications for ${siteList(options.titles)} at <strong>${escapeHtml(options.email)}</strong>.</p>`;
  const signIn = options.sentSignInLink ? '<p>We also sent you a sign-in link: open it to keep your sites, and everything visitors do on them, in a free account.</p>' : '';
  return page('Email confirmed', `${body}${signIn}<p>Every message has a link to stop them with one click.</p>`);
}

export function invalidConfirmLinkPage(): string {
  return page('This link does not work', '<p>It is not a confirmation link, or it was already used. If you confirmed before, there is nothing more to do.</p>');
}

export function expiredConfirmLinkPage(): string {
  return page('This link has expired', '<p>Confirmation links work for 7 days. Save the address again in Dropsite to get a new one.</p>');
}

export function unsubscribePromptPage(options: { email: string; titles: readonly string[]; action: string }): string {
  return page(
    'Unsubscribe?',
    `<p><strong>${escapeHtml(options.email)}</strong> will get no more notification emails about ${forSites(options.titles)}.</p>${button(options.action, 'Unsubscribe')}`,
  );
}

export function unsubscribedPage(options: { email: string; titles: readonly string[]; resubscribeAction: string }): string {
  return page(
    'You are unsubscribed',
    `<p><strong>${escapeHtml(options.email)}</strong> will get no more notification emails about ${forSites(options.titles)}.</p><p>Unsubscribed by mistake?</p>${button(options.resubscribeAction, 'Subscribe again')}`,
  );
}

export function invalidUnsubscribeLinkPage(): string {
  return page('This link does not work', '<p>It is not an unsubscribe link we sent. Use the link at the bottom of one of our messages.</p>');
}
