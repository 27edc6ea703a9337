/**
 * Notification email is not a relay: an address a creator types gets one confirmation with our own
 * fixed text, and nothing else until it confirms; every message can be stopped with one click; the
 * site title reaches a Subject only quoted, on one line and short; and one client can name only so
 * many addresses a day. Through the real publish and email-collection calls and a real SMTP server.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.ts';
import { createFakeClock, testAppForSuite } from '@dropsite/testkit/control-api/test-app';
import { buildUploadForm, makeJpeg, postUpload } from '@dropsite/testkit/control-api/fixtures';
import { createBrowser } from '@dropsite/testkit/control-api/site-fixtures';
import { dispatchDueNotifications } from './notifications.service.ts';
import { composeEmail } from './notification-messages.ts';
import { bodyOf, headerOf, mailingTestAppForSuite, rawHeadersOf, type TReceivedMail } from '@dropsite/testkit/control-api/smtp-test-server';

const DEFAULTS = loadConfig({});
const MAX_RECIPIENTS_PER_DAY = 8;

describe('notification email needs a confirmed address', () => {
  const clock = createFakeClock();
  const { app, smtp } = mailingTestAppForSuite({ clock, notifications: { maxRecipientsPerDay: MAX_RECIPIENTS_PER_DAY } });

  const mailTo = (email: string): TReceivedMail[] => smtp.messages.filter((m) => m.to.includes(email));
  const confirmLinkIn = (mail: TReceivedMail): string | undefined => bodyOf(mail.raw).match(/https?:\/\/[^\s"<>]+\/api\/email\/confirm\?token=[A-Za-z0-9_-]+/)?.[0];
  const notificationsTo = (email: string) => mailTo(email).filter((m) => /new interactions? on/.test(headerOf(m.raw, 'Subject') ?? ''));

  /** Publishes a one-photo site through POST /api/upload (a fresh anonymous creator each time) and opens it to visitors. */
  async function publish(options: {
    email: string;
    title?: string;
    cookie?: string;
  }): Promise<{ projectId: string; fileId: string; status: number; body: Record<string, unknown> }> {
    const form = buildUploadForm([{ name: 'photo.jpg', type: 'image/jpeg', bytes: await makeJpeg(16, 16) }], {
      title: options.title ?? 'Autumn Wedding',
      settings: JSON.stringify({ enableFavorites: true, enableComments: true, enableNotifications: true, notificationEmail: options.email }),
    });
    const res = await postUpload(app.url, form, options.cookie ? { cookie: options.cookie } : {});
    if (res.status !== 201) return { projectId: '', fileId: '', status: res.status, body: res.body };
    const site = await app.deps.db.selectFrom('projects').select('id').where('slug', '=', String(res.body.slug)).executeTakeFirstOrThrow();
    await app.deps.db.updateTable('projects').set({ status: 'live' }).where('id', '=', site.id).execute();
    const file = await app.deps.db.selectFrom('files').select('id').where('project_id', '=', site.id).executeTakeFirstOrThrow();
    return { projectId: site.id, fileId: file.id, status: res.status, body: res.body };
  }

  async function engage(site: { projectId: string; fileId: string }, favourites: number, comments: string[] = []): Promise<void> {
    const json = { projectId: site.projectId, fileId: site.fileId };
    for (let i = 0; i < favourites; i++) expect((await createBrowser(app).json('/api/favorites', { method: 'POST', json })).status).toBeLessThan(300);
    for (const commentText of comments) expect((await createBrowser(app).json('/api/comments', { method: 'POST', json: { ...json, commentText } })).status).toBeLessThan(300);
  }

  async function awaitConfirmation(email: string): Promise<TReceivedMail> {
    await expect.poll(() => mailTo(email).filter((m) => confirmLinkIn(m) !== undefined).length, { timeout: 5000, interval: 50 }).toBeGreaterThan(0);
    return mailTo(email).find((m) => confirmLinkIn(m) !== undefined)!;
  }

  /** Runs the dispatcher after the batch window. */
  async function dispatch(): Promise<void> {
    clock.advance(61_000);
    await dispatchDueNotifications(app.deps);
  }

  it('sends an unconfirmed address only the confirmation, with our fixed subject; after confirming, the waiting activity arrives', async () => {
    const email = 'client@example.com';
    const site = await publish({ email, title: 'Final invoice: pay now at evil.example' });
    const confirmation = await awaitConfirmation(email);
    expect(mailTo(email)).toHaveLength(1);
    expect(headerOf(confirmation.raw, 'Subject')).toBe('Confirm your email address for Dropsite notifications');
    // Nothing the creator typed is in the confirmation.
    expect(confirmation.raw).not.toContain('evil.example');
    expect(headerOf(confirmation.raw, 'List-Unsubscribe')).toMatch(/^<https?:\/\/.+\/api\/email\/unsubscribe\?.+>$/);
    expect(headerOf(confirmation.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');

    await engage(site, 2, ['Lovely']);
    await dispatch();
    await dispatch();
    expect(mailTo(email)).toHaveLength(1);

    // Opening the link (as a mail scanner would) shows a button and confirms nothing.
    const link = confirmLinkIn(confirmation)!;
    const shown = await fetch(link);
    expect(shown.status).toBe(200);
    const page = await shown.text();
    expect(page).toContain('method="post"');
    expect(page).toContain('Confirm email address');
    await dispatch();
    expect(mailTo(email)).toHaveLength(1);

    const confirmed = await fetch(link, { method: 'POST' });
    expect(confirmed.status).toBe(200);
    const done = await confirmed.text();
    expect(done).toContain('Email confirmed');
    expect(done).toContain('You will get notifications for');
    // A used link does not work twice.
    expect((await fetch(link, { method: 'POST' })).status).toBe(404);

    await dispatch();
    const notes = notificationsTo(email);
    expect(notes).toHaveLength(1);
    expect(headerOf(notes[0]!.raw, 'Subject')).toBe('3 new interactions on "Final invoice: pay now at evil.example"');
    expect(headerOf(notes[0]!.raw, 'List-Unsubscribe')).toMatch(/^<https?:\/\/.+\/api\/email\/unsubscribe\?id=[\w-]+&token=[\w-]+>$/);
    expect(headerOf(notes[0]!.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(bodyOf(notes[0]!.raw)).toMatch(/Unsubscribe: https?:\/\/\S+\/api\/email\/unsubscribe\?id=/);
  });

  it('stops every message after a one-click unsubscribe; the unsubscribe page alone changes nothing', async () => {
    const email = 'stop-me@example.com';
    const site = await publish({ email });
    const confirmation = await awaitConfirmation(email);
    expect((await fetch(confirmLinkIn(confirmation)!, { method: 'POST' })).status).toBe(200);
    await engage(site, 1);
    await dispatch();
    const first = notificationsTo(email);
    expect(first).toHaveLength(1);
    const unsubscribeUrl = headerOf(first[0]!.raw, 'List-Unsubscribe')!.slice(1, -1);

    // A link scanner's GET: a page with a button, still subscribed.
    const prompt = await fetch(unsubscribeUrl);
    expect(prompt.status).toBe(200);
    expect(await prompt.text()).toContain('method="post"');
    await engage(site, 1);
    await dispatch();
    expect(notificationsTo(email)).toHaveLength(2);

    // RFC 8058: the mail client POSTs the body below, with no Origin and no cookie.
    const oneClick = await fetch(unsubscribeUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.text()).toContain('You are unsubscribed');

    await engage(site, 3, ['Still there?']);
    await dispatch();
    await dispatch();
    expect(notificationsTo(email)).toHaveLength(2);

    // A forged link does nothing.
    const forged = unsubscribeUrl.replace(/token=[\w-]+/, `token=${'A'.repeat(43)}`);
    expect((await fetch(forged, { method: 'POST' })).status).toBe(404);
  });

  it('keeps CRLF and a long title out of the raw Subject header', async () => {
    const email = 'long-title@example.com';
    const title = `Shoot\r\nBcc: victim@example.com\r\nX-Evil: 1 ${'y'.repeat(150)}`;
    const site = await publish({ email, title });
    const confirmation = await awaitConfirmation(email);
    expect(confirmation.raw).not.toContain('yyyy');
    expect((await fetch(confirmLinkIn(confirmation)!, { method: 'POST' })).status).toBe(200);
    await engage(site, 1);
    await dispatch();
    const [mail] = notificationsTo(email);
    expect(mail).toBeDefined();
    const headers = rawHeadersOf(mail!.raw);
    expect(headers).not.toMatch(/^Bcc:/im);
    expect(headers).not.toMatch(/^X-Evil:/im);
    const subject = headerOf(mail!.raw, 'Subject')!;
    expect(subject).not.toMatch(/[\r\n]/);
    const quoted = subject.match(/"(.*)"$/)?.[1] ?? '';
    expect(Array.from(quoted).length).toBeLessThanOrEqual(60);
    expect(subject).not.toContain('y'.repeat(60));
  });

  it('sends one address at most three confirmations a day, however often creators give it', async () => {
    const email = 'victim@example.net';
    // Seven creators (each publish is a new anonymous creator) give the same address.
    for (let i = 0; i < 7; i++) expect((await publish({ email, title: `Site ${i}` })).status).toBe(201);
    await expect.poll(() => mailTo(email).length, { timeout: 5000, interval: 50 }).toBe(3);
    await dispatch();
    await dispatch();
    expect(mailTo(email)).toHaveLength(3);
    for (const mail of mailTo(email)) expect(headerOf(mail.raw, 'Subject')).toBe('Confirm your email address for Dropsite notifications');
  });
  it('answers 429 when one client names more distinct addresses in a day than allowed, and mails none of the extra', async () => {
    // Every request of this file comes from 127.0.0.1, which named four addresses above.
    const client = createBrowser(app);
    const collect = (email: string) => client.json('/api/email-collection', { method: 'POST', json: { email, trigger: 'success_page' } });
    const accepted: number[] = [];
    for (let i = 0; accepted.length < MAX_RECIPIENTS_PER_DAY + 2 && i < 20; i++) {
      const { status } = await collect(`person${i}@example.org`);
      accepted.push(status);
      if (status === 429) break;
    }
    expect(accepted.at(-1)).toBe(429);
    const refusedAt = accepted.length - 1;
    const refused = await collect(`person${refusedAt}@example.org`);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, code: 'rate_limited' });
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    // An address it already named is still fine.
    expect((await collect('person0@example.org')).status).toBe(201);
    // Publishing with yet another address is refused the same way.
    const publishRefused = await publish({ email: 'one-more@example.org' });
    expect(publishRefused.status).toBe(429);
    // And so is a resumable upload's init, before any session or byte is stored.
    const init = await client.json('/api/chunked-upload/init', {
      method: 'POST',
      json: { title: 'Resumable', files: [{ name: 'a.jpg', size: 10, type: 'image/jpeg' }], settings: { enableNotifications: true, notificationEmail: 'yet-another@example.org' } },
    });
    expect(init.status).toBe(429);
    expect(await app.deps.db.selectFrom('upload_sessions').select('id').execute()).toHaveLength(0);
    expect(mailTo('one-more@example.org')).toHaveLength(0);
    expect(mailTo('yet-another@example.org')).toHaveLength(0);
  });
});

describe('notification email without SMTP_URL (the outbox)', () => {
  const clock = createFakeClock();
  const app = testAppForSuite({ clock, startWorker: false, config: { notifications: { ...DEFAULTS.notifications, smtpUrl: undefined, batchSeconds: 60 } } });

  it('writes only the confirmation for an unconfirmed address, however much activity follows', async () => {
    const form = buildUploadForm([{ name: 'photo.jpg', type: 'image/jpeg', bytes: await makeJpeg(16, 16) }], {
      title: 'Quarterly report',
      settings: JSON.stringify({ enableFavorites: true, enableNotifications: true, notificationEmail: 'Outbox@Example.com ' }),
    });
    const published = await postUpload(app.url, form);
    expect(published.status).toBe(201);
    const site = await app.deps.db.selectFrom('projects').select('id').where('slug', '=', String(published.body.slug)).executeTakeFirstOrThrow();
    await app.deps.db.updateTable('projects').set({ status: 'live' }).where('id', '=', site.id).execute();
    const file = await app.deps.db.selectFrom('files').select('id').where('project_id', '=', site.id).executeTakeFirstOrThrow();

    const outbox = path.join(app.deps.config.dataDir, 'outbox');
    const emls = async () => (await readdir(outbox).catch(() => [] as string[])).filter((f) => f.endsWith('.eml'));
    await expect.poll(async () => (await emls()).length, { timeout: 5000, interval: 50 }).toBe(1);
    const raw = await readFile(path.join(outbox, (await emls())[0]!), 'utf8');
    expect(headerOf(raw, 'To')).toBe('outbox@example.com');
    expect(headerOf(raw, 'Subject')).toBe('Confirm your email address for Dropsite notifications');
    expect(headerOf(raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(raw).not.toContain('Quarterly report');

    for (let i = 0; i < 3; i++) await createBrowser(app).json('/api/favorites', { method: 'POST', json: { projectId: site.id, fileId: file.id } });
    for (let i = 0; i < 3; i++) {
      clock.advance(61_000);
      await dispatchDueNotifications(app.deps);
    }
    expect(await emls()).toHaveLength(1);
  });
});

describe('the subject of a notification email', () => {
  it('holds the site title only quoted, on one line and at most 60 characters long', () => {
    const title = `Your account is locked\r\nReply-To: thief@example.com\u2028 verify at https://evil.example/${'z'.repeat(120)}`;
    const { subject } = composeEmail([{ message: 'User 9fQk favourited "a.jpg"', created_at: Date.UTC(2026, 0, 1) }], {
      siteTitle: title,
      siteUrl: 'http://x/s',
      dashboardUrl: 'http://x/dashboard',
    });
    expect(subject).not.toMatch(/[\r\n\u2028]/);
    const quoted = subject.match(/^1 new interaction on "(.*)"$/)?.[1];
    expect(quoted).toBeDefined();
    expect(Array.from(quoted!).length).toBeLessThanOrEqual(60);
    expect(subject).not.toContain('zzzz');
  });
});
