import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type TConfig } from '../config/config.ts';
import { createFakeClock, startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { createBrowser, seedSite, type TSeededSite } from '@dropsite/testkit/control-api/site-fixtures';
import { dispatchDueNotifications } from './notifications.service.ts';
import { listNotificationsOfSite } from './notifications.repository.ts';
import { composeEmail, escapeSlackText, toOneLine } from './notification-messages.ts';
import { newId } from '../db/ids.ts';
import { findEmailAddress, insertPendingEmailAddress, setEmailAddressStatus } from './email-addresses.repository.ts';
import { notificationAddressOf, ownerKeyOf } from './email-confirmation.service.ts';
import { headerOf, startSmtpTestServer } from '@dropsite/testkit/control-api/smtp-test-server';
import { createSignedInCreator } from '@dropsite/testkit/control-api/accounts';

const DEFAULTS = loadConfig({});

/** A seeded site whose notification address (if any) has confirmed its link, as every recipient here has. */
async function seedConfirmedSite(app: TTestApp, options: Parameters<typeof seedSite>[1] = {}): Promise<TSeededSite> {
  const site = await seedSite(app, options);
  const email = notificationAddressOf(options.settings);
  if (email) {
    const ownerKey = ownerKeyOf(site.project);
    await insertPendingEmailAddress(app.deps.db, { id: newId(), email, ownerKey, now: app.deps.clock.now() });
    const row = await findEmailAddress(app.deps.db, email, ownerKey);
    await setEmailAddressStatus(app.deps.db, row!.id, 'confirmed', app.deps.clock.now());
  }
  return site;
}

/** A local HTTP receiver standing in for Slack's webhook endpoint. */
async function startSlackReceiver(): Promise<{ origin: string; payloads: unknown[]; close(): Promise<void> }> {
  const payloads: unknown[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      payloads.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, payloads, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function notificationConfig(overrides: Partial<TConfig['notifications']>): Partial<TConfig> {
  return {
    notifications: { ...DEFAULTS.notifications, batchSeconds: 60, ...overrides },
    rateLimits: { ...DEFAULTS.rateLimits, writesPerMinute: 10_000, siteWritesPerMinute: 10_000, readsPerMinute: 10_000 },
  };
}

async function engage(app: TTestApp, site: TSeededSite, counts: { favorites?: number; comments?: string[]; approvals?: number }): Promise<void> {
  const fileId = site.files[0]!.id;
  const json = { projectId: site.project.id, fileId };
  for (let i = 0; i < (counts.favorites ?? 0); i++) await createBrowser(app).json('/api/favorites', { method: 'POST', json });
  for (const text of counts.comments ?? []) await createBrowser(app).json('/api/comments', { method: 'POST', json: { ...json, commentText: text } });
  for (let i = 0; i < (counts.approvals ?? 0); i++) await createBrowser(app).json('/api/approvals', { method: 'POST', json: { ...json, status: 'approved' } });
}

describe('engagement notifications', () => {
  const clock = createFakeClock();
  let app: TTestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
  let slack: Awaited<ReturnType<typeof startSlackReceiver>>;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    slack = await startSlackReceiver();
    app = await startTestApp({
      clock,
      startWorker: false,
      config: notificationConfig({ smtpUrl: smtp.url, smtpFrom: 'Dropsite <notify@dropsite.test>', maxPerHour: 3, slackWebhookOrigins: [slack.origin] }),
    });
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
    await slack.close();
  });

  it('sends one email per batch window for a burst, through a real SMTP server', async () => {
    const site = await seedConfirmedSite(app, { settings: { enableNotifications: true, notificationEmail: 'studio@example.com' } });
    await engage(app, site, { favorites: 5, comments: ['First impressions: great', 'Second thought'], approvals: 2 });

    // Inside the window nothing goes out.
    expect(await dispatchDueNotifications(app.deps)).toMatchObject({ sent: 0 });
    expect(smtp.messages).toHaveLength(0);

    clock.advance(60_000);
    expect(await dispatchDueNotifications(app.deps)).toMatchObject({ sent: 1 });
    expect(await dispatchDueNotifications(app.deps)).toMatchObject({ sent: 0 });
    expect(smtp.messages).toHaveLength(1);
    const mail = smtp.messages[0]!;
    expect(mail.to).toEqual(['studio@example.com']);
    expect(mail.from).toBe('notify@dropsite.test');
    expect(headerOf(mail.raw, 'Subject')).toBe('9 new interactions on "Autumn Wedding"');
    // Quoted-printable soft line breaks joined.
    const body = mail.raw.replace(/=\r?\n/g, '');
    expect(body).toContain('commented on "photo-1.jpg": "First impressions: great"');
    expect(body).toContain(`${app.url}/${site.slug}`);

    const rows = await listNotificationsOfSite(app.deps.db, site.project.id);
    expect(rows.filter((r) => r.channel === 'email').every((r) => r.sent_at !== null)).toBe(true);

    // The next burst is the next message.
    clock.advance(1000);
    await engage(app, site, { favorites: 1 });
    clock.advance(60_000);
    await dispatchDueNotifications(app.deps);
    expect(smtp.messages).toHaveLength(2);
    expect(headerOf(smtp.messages[1]!.raw, 'Subject')).toBe('1 new interaction on "Autumn Wedding"');
  });

  it("links an account's site to its page and notification settings in the dashboard, with a one-click unsubscribe", async () => {
    const owner = await createSignedInCreator(app.deps, { email: 'owner@studio.example' });
    // The site is the account's before its address is confirmed (confirmations belong to the owner).
    const owned = await seedSite(app, { settings: { enableNotifications: true, notificationEmail: 'owned@example.com' } });
    await app.deps.db.updateTable('projects').set({ owner_creator_id: owner.id, workspace_id: owner.id, anonymous_session_id: null }).where('id', '=', owned.project.id).execute();
    const ownerKey = ownerKeyOf({ ...owned.project, owner_creator_id: owner.id, anonymous_session_id: null });
    await insertPendingEmailAddress(app.deps.db, { id: newId(), email: 'owned@example.com', ownerKey, now: app.deps.clock.now() });
    const address = await findEmailAddress(app.deps.db, 'owned@example.com', ownerKey);
    await setEmailAddressStatus(app.deps.db, address!.id, 'confirmed', app.deps.clock.now());
    const anonymous = await seedConfirmedSite(app, { settings: { enableNotifications: true, notificationEmail: 'anonymous@example.com' } });
    await engage(app, owned, { favorites: 1 });
    await engage(app, anonymous, { favorites: 1 });
    const before = smtp.messages.length;
    clock.advance(60_000);
    await dispatchDueNotifications(app.deps);
    const mails = smtp.messages.slice(before);
    const mailTo = (address: string) => {
      const mail = mails.find((m) => m.to.includes(address) && /new interaction/.test(headerOf(m.raw, 'Subject') ?? ''));
      expect(mail, address).toBeDefined();
      return { raw: mail!.raw, body: mail!.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=') };
    };
    const ownedMail = mailTo('owned@example.com');
    expect(ownedMail.body).toContain(`See all activity: ${app.url}/dashboard/projects/${owned.project.id}`);
    expect(ownedMail.body).toContain(`Notification settings: ${app.url}/dashboard/projects/${owned.project.id}#settings`);
    expect(headerOf(ownedMail.raw, 'List-Unsubscribe')).toMatch(/^<http.+>$/);
    expect(headerOf(ownedMail.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    // An anonymous site has no page of its own in the dashboard until it is claimed there.
    const anonymousMail = mailTo('anonymous@example.com');
    expect(anonymousMail.body).toMatch(new RegExp(`See all activity: ${app.url.replace(/[.]/g, '\\.')}/dashboard\\r?\\n`));
    expect(anonymousMail.body).not.toContain('Notification settings');
  });

  it('keeps CRLF out of the subject: a title cannot add headers', async () => {
    const site = await seedConfirmedSite(app, {
      title: 'Shoot\r\nBcc: victim@example.com\r\nX-Evil: 1',
      settings: { enableNotifications: true, notificationEmail: 'owner@example.com' },
    });
    await engage(app, site, { comments: ['Hello\r\nBcc: another@example.com'] });
    clock.advance(60_000);
    const before = smtp.messages.length;
    await dispatchDueNotifications(app.deps);
    const mail = smtp.messages[before]!;
    expect(mail.to).toEqual(['owner@example.com']);
    const headers = mail.raw.split(/\r?\n\r?\n/)[0]!;
    expect(headers).not.toMatch(/^Bcc:/im);
    expect(headers).not.toMatch(/^X-Evil:/im);
    expect(headerOf(mail.raw, 'Subject')).toBe('1 new interaction on "Shoot Bcc: victim@example.com X-Evil: 1"');
  });

  it('escapes Slack messages: no @channel, no links, no mrkdwn', async () => {
    const site = await seedSite(app, { settings: { enableNotifications: true, slackWebhook: `${slack.origin}/services/T000/B000/XXXX` } });
    await engage(app, site, { comments: ['<!channel> <@U123> *urgent* _now_ <http://evil.example|click here> @here & @everyone'] });
    clock.advance(60_000);
    await dispatchDueNotifications(app.deps);
    expect(slack.payloads).toHaveLength(1);
    const payload = slack.payloads[0] as { text: string; mrkdwn: boolean };
    expect(payload.mrkdwn).toBe(false);
    expect(payload.text).toContain('&lt;!channel&gt; &lt;@U123&gt; *urgent* _now_ &lt;http://evil.example|click here&gt; @\u2060here &amp; @\u2060everyone');
    expect(payload.text).not.toContain('<!channel>');
    expect(payload.text).not.toMatch(/[<>]/);
  });

  it('never calls a webhook outside the allowed origins', async () => {
    const site = await seedSite(app, { settings: { enableNotifications: true, slackWebhook: 'http://169.254.169.254/latest/meta-data' } });
    await engage(app, site, { favorites: 1 });
    clock.advance(60_000);
    const before = slack.payloads.length;
    await dispatchDueNotifications(app.deps);
    expect(slack.payloads).toHaveLength(before);
    const rows = await listNotificationsOfSite(app.deps.db, site.project.id);
    expect(rows.map((r) => r.channel)).toEqual([]);
  });

  it('caps messages per destination per hour, keeping the rows for the next allowed message', async () => {
    const site = await seedConfirmedSite(app, { settings: { enableNotifications: true, notificationEmail: 'capped@example.com' } });
    const sentTo = () => smtp.messages.filter((m) => m.to.includes('capped@example.com')).length;
    for (let i = 0; i < 4; i++) {
      await engage(app, site, { favorites: 1 });
      clock.advance(60_000);
      await dispatchDueNotifications(app.deps);
    }
    expect(sentTo()).toBe(3);
    const unsent = (await listNotificationsOfSite(app.deps.db, site.project.id)).filter((r) => r.sent_at === null);
    expect(unsent).toHaveLength(1);
    clock.advance(20 * 60_000);
    await dispatchDueNotifications(app.deps);
    expect(sentTo()).toBe(4);
  });

  it('retries a failed send in the next round and does not lose the batch', async () => {
    const site = await seedConfirmedSite(app, { settings: { enableNotifications: true, notificationEmail: 'retry@example.com' } });
    await engage(app, site, { favorites: 2 });
    clock.advance(60_000);
    smtp.setFailing(true);
    expect(await dispatchDueNotifications(app.deps)).toMatchObject({ failed: 1 });
    smtp.setFailing(false);
    const rows = await listNotificationsOfSite(app.deps.db, site.project.id);
    expect(rows.map((r) => [r.sent_at, r.attempts])).toEqual([
      [null, 1],
      [null, 1],
    ]);
    expect(await dispatchDueNotifications(app.deps)).toMatchObject({ sent: 1 });
    expect(headerOf(smtp.messages.at(-1)!.raw, 'Subject')).toMatch(/^2 new interactions/);
  });

  it('sends nothing when notifications are off, and stops when they are turned off', async () => {
    const quiet = await seedConfirmedSite(app, { settings: { enableNotifications: false, notificationEmail: 'quiet@example.com' } });
    await engage(app, quiet, { favorites: 2 });
    expect((await listNotificationsOfSite(app.deps.db, quiet.project.id)).filter((r) => r.channel !== 'in_app')).toEqual([]);

    const site = await seedConfirmedSite(app, { settings: { enableNotifications: true, notificationEmail: 'later-off@example.com' } });
    await engage(app, site, { favorites: 1 });
    await app.deps.db
      .updateTable('projects')
      .set({ settings: JSON.stringify({ enableNotifications: false }) })
      .where('id', '=', site.project.id)
      .execute();
    clock.advance(60_000);
    expect(await dispatchDueNotifications(app.deps)).toMatchObject({ dropped: 1, sent: 0 });
    expect(smtp.messages.some((m) => m.to.includes('later-off@example.com'))).toBe(false);
  });
});

describe('email without SMTP_URL', () => {
  const clock = createFakeClock();
  let app: TTestApp;

  beforeAll(async () => {
    app = await startTestApp({ clock, startWorker: false, config: notificationConfig({ smtpUrl: undefined }) });
  });
  afterAll(async () => {
    await app.close();
  });

  it('writes the message to DATA_DIR/outbox as an .eml file', async () => {
    const site = await seedConfirmedSite(app, { settings: { enableNotifications: true, notificationEmail: 'outbox@example.com' } });
    await engage(app, site, { favorites: 2 });
    clock.advance(60_000);
    expect(await dispatchDueNotifications(app.deps)).toMatchObject({ sent: 1 });
    const outbox = path.join(app.deps.config.dataDir, 'outbox');
    const files = (await readdir(outbox)).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const raw = await readFile(path.join(outbox, files[0]!), 'utf8');
    expect(headerOf(raw, 'To')).toBe('outbox@example.com');
    expect(headerOf(raw, 'Subject')).toBe('2 new interactions on "Autumn Wedding"');
  });
});

describe('notification texts', () => {
  it('turn anything typed into one line', () => {
    expect(toOneLine('a\r\nb\u2028c\u0000d\te\u202Ef', 100)).toBe('a b c d e f');
    expect(toOneLine('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('escape Slack’s control sequences', () => {
    expect(escapeSlackText('<!here> & <#C1> @channel')).toBe('&lt;!here&gt; &amp; &lt;#C1&gt; @\u2060channel');
  });

  it('escape HTML in the email body and list at most 20 lines', () => {
    const items = Array.from({ length: 25 }, (_, i) => ({ message: `<script>${i}</script>`, created_at: Date.UTC(2026, 0, 1) }));
    const email = composeEmail(items, { siteTitle: 'T', siteUrl: 'http://x/s', dashboardUrl: 'http://x/dashboard' });
    expect(email.subject).toBe('25 new interactions on "T"');
    expect(email.html).not.toContain('<script>');
    expect(email.html).toContain('&lt;script&gt;0&lt;/script&gt;');
    expect(email.text).toContain('- and 5 more');
  });
});

describe('the dispatcher in the API process', () => {
  let app: TTestApp;

  beforeAll(async () => {
    app = await startTestApp({ startWorker: false, config: notificationConfig({ smtpUrl: undefined, batchSeconds: 1 }) });
  });
  afterAll(async () => {
    await app.close();
  });

  it('sends due batches on its own, and stops cleanly', async () => {
    const { startBackgroundJobs } = await import('../background-jobs.ts');
    const jobs = startBackgroundJobs(app.deps);
    try {
      const site = await seedConfirmedSite(app, { settings: { enableNotifications: true, notificationEmail: 'timer@example.com' } });
      await engage(app, site, { favorites: 1, comments: ['By the timer'] });
      const outbox = path.join(app.deps.config.dataDir, 'outbox');
      await expect.poll(async () => (await readdir(outbox).catch(() => [])).filter((f) => f.endsWith('.eml')).length, { timeout: 10_000, interval: 200 }).toBe(1);
    } finally {
      await jobs.stop();
    }
  });
});
