/**
 * What creators are told about engagement, in app, by email and on Slack. Everything a visitor
 * or creator typed is data here: cleaned of control characters for one-line uses (no CRLF can
 * reach an email header), escaped by React in the email's HTML, and Slack-escaped so `<!channel>`, mentions,
 * links and mrkdwn stay literal text.
 */
import type { TApprovalStatus, TNotificationType, TUrgencyLevel } from '@dropsite/shared';
import { Fragment, createElement as h, type ReactElement } from 'react';
import { EmailDocument, FOOTNOTE_STYLE, HEADING_STYLE, LINK_STYLE, renderEmailHtml } from './email-html.ts';

export interface TEngagementEvent {
  type: 'favorite' | 'comment' | 'approval';
  siteId: string;
  fileId: string;
  fileName: string;
  visitorName: string;
  /** The comment's text. */
  text?: string;
  /** The approval's new status. */
  status?: TApprovalStatus;
}

/** One line of text: control characters (CR, LF, tabs, NUL, bidi overrides) become spaces, runs collapse. */
export function toOneLine(text: string, maxChars: number): string {
  const line = text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = Array.from(line);
  return chars.length > maxChars ? `${chars.slice(0, maxChars - 1).join('')}…` : line;
}

/** The activity line of an event, e.g. `User 9fQk commented on "a.jpg": "Lovely"`. */
export function describeEngagement(event: TEngagementEvent): string {
  const file = `"${toOneLine(event.fileName, 120)}"`;
  const who = event.visitorName;
  switch (event.type) {
    case 'favorite':
      return `${who} favourited ${file}`;
    case 'comment':
      return `${who} commented on ${file}: "${toOneLine(event.text ?? '', 140)}"`;
    case 'approval':
      if (event.status === 'approved') return `${who} approved ${file}`;
      if (event.status === 'rejected') return `${who} requested changes on ${file}`;
      return `${who} set ${file} back to pending`;
  }
}

export function urgencyOf(event: TEngagementEvent): TUrgencyLevel {
  if (event.type === 'approval' && event.status === 'rejected') return 'high';
  return event.type === 'favorite' ? 'low' : 'medium';
}

export function notificationTypeOf(event: TEngagementEvent): TNotificationType {
  return event.type;
}

/**
 * Text for a Slack message with mrkdwn off: `&`, `<`, `>` escaped as Slack asks (so `<!channel>`,
 * `<@U1>` and `<url|label>` are shown, not acted on), and `@channel`/`@here`/`@everyone` broken
 * with a zero-width joiner so no client turns them into mentions.
 */
export function escapeSlackText(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/@(channel|here|everyone)\b/gi, '@\u2060$1');
}

export interface TBatchItem {
  message: string;
  created_at: number;
}

export interface TBatchContext {
  siteTitle: string;
  siteUrl: string;
  dashboardUrl: string;
  /** The site's settings in the dashboard (its notification switches and address), for a site an account owns. */
  settingsUrl?: string;
  /** The recipient's one-click unsubscribe link (email only). */
  unsubscribeUrl?: string;
}

/** Most lines one message lists; the rest are counted. */
const MAX_LINES = 20;

/** Most characters of the site title in an email subject: the title is the creator's text, so it is quoted, one line and short. */
export const SUBJECT_TITLE_MAX_CHARS = 60;

function summaryLine(count: number, siteTitle: string, titleChars = 80): string {
  return `${count} new ${count === 1 ? 'interaction' : 'interactions'} on "${toOneLine(siteTitle, titleChars)}"`;
}

export interface TEmailContent {
  subject: string;
  text: string;
  html: string;
}

export function composeEmail(items: readonly TBatchItem[], context: TBatchContext): TEmailContent {
  // toOneLine strips CR and LF, so nothing a visitor typed can start a new header.
  const subject = toOneLine(summaryLine(items.length, context.siteTitle, SUBJECT_TITLE_MAX_CHARS), 100);
  const shown = items.slice(0, MAX_LINES);
  const more = items.length - shown.length;
  const time = (ms: number) => `${new Date(ms).toISOString().replace('T', ' ').slice(0, 16)} UTC`;
  const textLines = shown.map((i) => `- ${toOneLine(i.message, 400)} (${time(i.created_at)})`);
  if (more > 0) textLines.push(`- and ${more} more`);
  const text = [
    `${summaryLine(items.length, context.siteTitle)}:`,
    '',
    ...textLines,
    '',
    `View the site: ${context.siteUrl}`,
    `See all activity: ${context.dashboardUrl}`,
    ...(context.settingsUrl ? [`Notification settings: ${context.settingsUrl}`] : []),
    '',
    'You get this because you confirmed notifications for this site.',
    ...(context.unsubscribeUrl ? [`Unsubscribe: ${context.unsubscribeUrl}`] : []),
  ].join('\n');
  const lines = shown.map((i) => ({ message: toOneLine(i.message, 400), time: time(i.created_at) }));
  const html = renderEmailHtml(h(DigestEmail, { summary: summaryLine(items.length, context.siteTitle), lines, more, context }));
  return { subject, text, html };
}

const LINE_STYLE = { margin: '0 0 8px' };

/** The digest's HTML part: the summary, one line per interaction (at most MAX_LINES, the rest counted) and the links. */
function DigestEmail({ summary, lines, more, context }: { summary: string; lines: Array<{ message: string; time: string }>; more: number; context: TBatchContext }): ReactElement {
  const link = (href: string, label: string) => h('a', { href, style: LINK_STYLE }, label);
  return h(
    EmailDocument,
    null,
    h('h1', { style: HEADING_STYLE }, summary),
    h(
      'ul',
      { style: { paddingLeft: 20, margin: '0 0 24px' } },
      lines.map((line, i) => h('li', { key: i, style: LINE_STYLE }, line.message, ' ', h('span', { style: { color: '#6b7280' } }, `(${line.time})`))),
      more > 0 ? h('li', { style: LINE_STYLE }, `and ${more} more`) : null,
    ),
    h(
      'p',
      null,
      link(context.siteUrl, 'View the site'),
      ' · ',
      link(context.dashboardUrl, 'See all activity'),
      context.settingsUrl ? h(Fragment, null, ' · ', link(context.settingsUrl, 'Notification settings')) : null,
    ),
    h(
      'p',
      { style: FOOTNOTE_STYLE },
      'You get this because you confirmed notifications for this site.',
      context.unsubscribeUrl ? h(Fragment, null, ' ', h('a', { href: context.unsubscribeUrl, style: { color: '#6b7280' } }, 'Unsubscribe')) : null,
    ),
  );
}

export interface TSlackPayload {
  text: string;
  mrkdwn: false;
  unfurl_links: false;
  unfurl_media: false;
}

export function composeSlackMessage(items: readonly TBatchItem[], context: TBatchContext): TSlackPayload {
  const shown = items.slice(0, MAX_LINES);
  const more = items.length - shown.length;
  const lines = [
    `${escapeSlackText(summaryLine(items.length, context.siteTitle))}:`,
    ...shown.map((i) => `• ${escapeSlackText(toOneLine(i.message, 400))}`),
    ...(more > 0 ? [`• and ${more} more`] : []),
    `View the site: ${escapeSlackText(context.siteUrl)}`,
  ];
  return { text: lines.join('\n'), mrkdwn: false, unfurl_links: false, unfurl_media: false };
}
