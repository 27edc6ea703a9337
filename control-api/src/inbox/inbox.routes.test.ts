import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ZFormReplySchema } from '@dropsite/shared';
import { loadConfig } from '../config/config.ts';
import type { Mailer } from '../notifications/mailer.ts';
import { createCapturingMailer, type TCapturingMailer } from '@dropsite/testkit/control-api/account-mail';
import { createFakeClock, startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { isDialectAvailable, TEST_DIALECTS, testAppDatabase } from '@dropsite/testkit/control-api/test-database';
import { NEWSLETTER_CONFIRM_SUBJECT, NEWSLETTER_RESEND_MS, sendUnsentMessages } from './inbox.service.ts';

const OPERATOR = 'operator@dropsite.example';
const CONTACT = { name: 'Ada Lovelace', email: 'Ada@Studio.example', subject: 'Custom domain', message: 'Can my sites live on files.studio.example?' };

async function outboxFiles(app: TTestApp): Promise<string[]> {
  const dir = path.join(app.dataDir, 'outbox');
  const names = await readdir(dir).catch(() => [] as string[]);
  return Promise.all(names.filter((n) => n.endsWith('.eml')).map((n) => readFile(path.join(dir, n), 'utf8')));
}

function post(app: TTestApp, path: string, body: unknown) {
  return fetch(`${app.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) });
}

function postForm(app: TTestApp, path: string, fields: Record<string, string>, origin?: string) {
  return fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(origin ? { Origin: origin } : {}) },
    body: new URLSearchParams(fields).toString(),
  });
}

async function messages(app: TTestApp) {
  return app.deps.db.selectFrom('messages').selectAll().orderBy('created_at').execute();
}

for (const dialect of TEST_DIALECTS) {
  const available = await isDialectAvailable(dialect);

  describe.skipIf(!available)(`the contact form round trip (${dialect})`, () => {
    let app: TTestApp;
    let database: ReturnType<typeof testAppDatabase>;

    beforeAll(async () => {
      database = testAppDatabase(dialect, 'inbox');
      app = await startTestApp({ startWorker: false, config: { ...database.config, notifications: { ...loadConfig({}).notifications, operatorEmail: OPERATOR } } });
    });
    afterAll(async () => {
      await app?.close();
      await database?.drop();
    });

    it('stores the message, writes an email to the operator in the outbox, and answers the confirmation', async () => {
      const res = await post(app, '/api/contact', CONTACT);
      expect(res.status).toBe(201);
      expect(ZFormReplySchema.parse(await res.json())).toEqual({
        success: true,
        title: 'Message sent',
        message: 'Thank you for reaching out. We’ll get back to you within 24 hours.',
      });
      const [row] = await messages(app);
      expect(row).toMatchObject({ kind: 'contact', name: 'Ada Lovelace', email: 'ada@studio.example', subject: 'Custom domain', message: CONTACT.message });
      const [mail] = await vi.waitFor(async () => {
        const files = await outboxFiles(app);
        expect(files).toHaveLength(1);
        return files;
      });
      expect(mail).toMatch(new RegExp(`^To: ${OPERATOR}$`, 'm'));
      expect(mail).toMatch(/^Subject: Contact: Custom domain$/m);
      expect(mail).toMatch(/^Reply-To: ada@studio\.example$/m);
      expect(mail).toContain('Can my sites live on files.studio.example?');
      await vi.waitFor(async () => expect((await messages(app))[0]?.emailed_at).not.toBeNull());
    });
  });
}

describe('the public forms', () => {
  let app: TTestApp;
  let mail: TCapturingMailer;
  const clock = createFakeClock();

  beforeAll(async () => {
    app = await startTestApp({ clock, startWorker: false, config: { formSubmissionsPerAddressPerHour: 1000 } });
  });
  beforeEach(async () => {
    mail = createCapturingMailer();
    app.deps.mailer = mail;
    await app.deps.db.deleteFrom('messages').execute();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('refuses a missing or malformed field with 400 naming it, and an oversized one with 413 naming the limit', async () => {
    const cases: Array<[string, Record<string, unknown>, number, string, string]> = [
      ['/api/contact', { ...CONTACT, name: '  ' }, 400, 'name', 'Please enter your name.'],
      ['/api/contact', { ...CONTACT, email: 'ada@studio' }, 400, 'email', 'Please enter a valid email address.'],
      ['/api/contact', { ...CONTACT, subject: undefined }, 400, 'subject', 'Please enter a subject.'],
      ['/api/contact', { ...CONTACT, message: 'x'.repeat(5001) }, 413, 'message', 'Message must be at most 5,000 characters.'],
      ['/api/contact', { ...CONTACT, name: 'n'.repeat(101) }, 413, 'name', 'Name must be at most 100 characters.'],
      ['/api/feedback', { rating: 3 }, 400, 'feedback', 'Please tell us your feedback.'],
      ['/api/feedback', { feedback: 'Nice', rating: 6 }, 400, 'rating', 'Choose a rating from 1 to 5 stars.'],
      ['/api/feedback', { feedback: 'Nice', email: 'not an address' }, 400, 'email', 'Please enter a valid email address.'],
      ['/api/sales', { name: 'Ada', email: 'ada@studio.example', message: 'Hi' }, 400, 'company', 'Please enter your company name.'],
      ['/api/sales', { name: 'Ada', email: 'ada@studio.example', company: 'c'.repeat(121), message: 'Hi' }, 413, 'company', 'Company name must be at most 120 characters.'],
      ['/api/newsletter', { email: '' }, 400, 'email', 'Please enter your email address.'],
    ];
    for (const [path, body, status, field, error] of cases) {
      const res = await post(app, path, body);
      expect(res.status, `${path} ${field}`).toBe(status);
      expect(await res.json()).toEqual({ success: false, error, code: status === 413 ? 'payload_too_large' : 'validation_failed', field });
    }
    expect(await messages(app)).toEqual([]);
    expect(mail.sent).toEqual([]);
  });

  it('takes feedback with only the text, or with a rating and the subject Request Template; sales with the company', async () => {
    expect((await post(app, '/api/feedback', { feedback: 'Love the gallery' })).status).toBe(201);
    const res = await post(app, '/api/feedback', { name: 'Mira', email: '', rating: '4', subject: 'Request Template', feedback: 'A template for recipes, please', website: '' });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ success: true, title: 'Thank you for your feedback!' });
    const sales = await post(app, '/api/sales', { name: 'Ada', email: 'ada@studio.example', company: 'Studio Ltd', message: 'Forty seats' });
    expect(await sales.json()).toMatchObject({ success: true, title: 'Thank you!', message: 'Our sales team will contact you within 24 hours.' });

    expect((await messages(app)).map((m) => [m.kind, m.name, m.email, m.subject, m.company, m.rating, m.message])).toEqual([
      ['feedback', '', '', '', '', null, 'Love the gallery'],
      ['feedback', 'Mira', '', 'Request Template', '', 4, 'A template for recipes, please'],
      ['sales', 'Ada', 'ada@studio.example', '', 'Studio Ltd', null, 'Forty seats'],
    ]);
    expect(mail.sent.map((m) => [m.to, m.subject])).toEqual([
      ['Dropsite <notifications@localhost>', 'Feedback: from someone who left no name'],
      ['Dropsite <notifications@localhost>', 'Feedback: Request Template'],
      ['Dropsite <notifications@localhost>', 'Contact Sales: Studio Ltd'],
    ]);
    expect(mail.sent[1]?.text).toContain('Rating: 4 of 5 stars');
    // No address given: no Reply-To.
    expect(mail.sent[0]?.headers).toBeUndefined();
  });

  it('answers a filled honeypot as sent, and stores and sends nothing', async () => {
    const res = await post(app, '/api/contact', { ...CONTACT, website: 'http://spam.example' });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ success: true, title: 'Message sent' });
    expect(await messages(app)).toEqual([]);
    expect(mail.sent).toEqual([]);
  });

  it('keeps the message when the mail cannot be sent, still answers success, and sends it on a later try', async () => {
    const failing: Mailer = { driver: 'smtp', send: () => Promise.reject(new Error('connection refused')), close: async () => {} };
    app.deps.mailer = failing;
    expect((await post(app, '/api/contact', CONTACT)).status).toBe(201);
    await vi.waitFor(async () => expect((await messages(app))[0]).toMatchObject({ email: 'ada@studio.example', emailed_at: null, email_attempts: 1 }));

    // Too soon for another try; ten minutes later the retry sends it, once.
    app.deps.mailer = mail;
    expect(await sendUnsentMessages(app.deps)).toBe(0);
    clock.advance(11 * 60_000);
    expect(await sendUnsentMessages(app.deps)).toBe(1);
    expect(mail.sent.map((m) => m.subject)).toEqual(['Contact: Custom domain']);
    expect((await messages(app))[0]).toMatchObject({ emailed_at: clock.now(), email_attempts: 2 });
    expect(await sendUnsentMessages(app.deps)).toBe(0);
  });

  it('answers a classic form post (JavaScript off) with a page: the confirmation, or why it was refused', async () => {
    const sent = await postForm(app, '/api/contact', { ...CONTACT, website: '' }, app.url);
    expect(sent.status).toBe(200);
    expect(sent.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await sent.text();
    expect(html).toContain('<h1>Message sent</h1>');
    expect(html).toContain('We’ll get back to you within 24 hours.');
    expect(html).toContain('href="/contact"');
    expect(await messages(app)).toHaveLength(1);

    const refused = await postForm(app, '/api/contact', { ...CONTACT, message: '' }, app.url);
    expect(refused.status).toBe(400);
    const refusedHtml = await refused.text();
    expect(refusedHtml).toContain('Please enter your message.');
    expect(refusedHtml).toContain('Back button');

    const tooLong = await postForm(app, '/api/feedback', { feedback: 'y'.repeat(5001) }, app.url);
    expect(tooLong.status).toBe(413);
    expect(await tooLong.text()).toContain('Feedback must be at most 5,000 characters.');
  });

  it('refuses a form posted from another site', async () => {
    const res = await postForm(app, '/api/contact', CONTACT, 'https://evil.example');
    expect(res.status).toBe(403);
    expect(await messages(app)).toEqual([]);
  });

  describe('the newsletter', () => {
    function confirmToken(): string {
      const message = mail.sent.findLast((m) => m.subject === NEWSLETTER_CONFIRM_SUBJECT);
      const match = /\/api\/newsletter\/confirm\?token=([A-Za-z0-9_-]{43})/.exec(message?.text ?? '');
      if (!match) throw new Error('no confirmation link was mailed');
      return match[1]!;
    }

    it('sends one confirmation with confirm and unsubscribe links; confirming and unsubscribing go through a button', async () => {
      const res = await post(app, '/api/newsletter', { email: ' Reader@Example.com ' });
      expect(res.status).toBe(202);
      expect(await res.json()).toMatchObject({ success: true, title: 'Check your inbox' });
      expect(mail.sent).toHaveLength(1);
      const message = mail.sent[0]!;
      expect(message.to).toBe('reader@example.com');
      expect(message.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
      const unsubscribeUrl = /^<(.+)>$/.exec(message.headers?.['List-Unsubscribe'] ?? '')?.[1];
      expect(unsubscribeUrl).toMatch(/\/api\/newsletter\/unsubscribe\?id=/);
      expect(message.text).toContain(unsubscribeUrl);

      // Asking again within the window sends nothing more, with the same answer.
      const again = await post(app, '/api/newsletter', { email: 'reader@example.com' });
      expect(await again.json()).toMatchObject({ success: true, title: 'Check your inbox' });
      expect(mail.sent).toHaveLength(1);

      const token = confirmToken();
      const prompt = await fetch(`${app.url}/api/newsletter/confirm?token=${token}`);
      expect(prompt.status).toBe(200);
      expect(await prompt.text()).toContain('Confirm subscription');
      const subscriber = () => app.deps.db.selectFrom('newsletter_subscribers').selectAll().where('email', '=', 'reader@example.com').executeTakeFirstOrThrow();
      expect((await subscriber()).status).toBe('pending');
      expect((await subscriber()).token_hash).not.toContain(token);

      const confirmed = await fetch(`${app.url}/api/newsletter/confirm?token=${token}`, { method: 'POST' });
      expect(await confirmed.text()).toContain('You are subscribed');
      expect((await subscriber()).status).toBe('confirmed');

      // A confirmed address gets nothing more, whenever it subscribes again.
      clock.advance(NEWSLETTER_RESEND_MS * 2);
      expect((await post(app, '/api/newsletter', { email: 'reader@example.com' })).status).toBe(202);
      expect(mail.sent).toHaveLength(1);

      const unsubscribePage = await fetch(unsubscribeUrl!.replace(/^https?:\/\/[^/]+/, app.url));
      expect(await unsubscribePage.text()).toContain('Unsubscribe?');
      const oneClick = await fetch(unsubscribeUrl!.replace(/^https?:\/\/[^/]+/, app.url), {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(oneClick.status).toBe(200);
      expect(await oneClick.text()).toContain('You are unsubscribed');
      expect((await subscriber()).status).toBe('unsubscribed');

      // Subscribing again asks for a new confirmation; the old link no longer confirms.
      expect((await post(app, '/api/newsletter', { email: 'reader@example.com' })).status).toBe(202);
      expect(mail.sent).toHaveLength(2);
      expect((await fetch(`${app.url}/api/newsletter/confirm?token=${token}`, { method: 'POST' })).status).toBe(404);
      expect((await subscriber()).status).toBe('pending');
    });

    it('refuses links it did not send, and confirmation links past 7 days', async () => {
      expect((await fetch(`${app.url}/api/newsletter/confirm?token=${'a'.repeat(43)}`)).status).toBe(404);
      expect((await fetch(`${app.url}/api/newsletter/confirm?token=short`)).status).toBe(404);
      expect((await fetch(`${app.url}/api/newsletter/unsubscribe?id=abc&token=${'a'.repeat(43)}`, { method: 'POST' })).status).toBe(404);

      await post(app, '/api/newsletter', { email: 'late@example.com' });
      const token = confirmToken();
      clock.advance(8 * 24 * 3_600_000);
      const expired = await fetch(`${app.url}/api/newsletter/confirm?token=${token}`, { method: 'POST' });
      expect(expired.status).toBe(410);
      expect(await expired.text()).toContain('This link has expired');
    });

    it('ignores a filled honeypot', async () => {
      expect((await post(app, '/api/newsletter', { email: 'bot@example.com', website: 'x' })).status).toBe(202);
      expect(mail.sent).toEqual([]);
      expect(await app.deps.db.selectFrom('newsletter_subscribers').selectAll().where('email', '=', 'bot@example.com').execute()).toEqual([]);
    });
  });
});

describe('the forms rate limit', () => {
  let app: TTestApp;

  beforeAll(async () => {
    app = await startTestApp({ startWorker: false, config: { formSubmissionsPerAddressPerHour: 2 } });
    app.deps.mailer = createCapturingMailer();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('allows so many submissions per address per hour, all forms together, then answers 429 with Retry-After', async () => {
    // A refused body costs nothing: fixing the form is not a second message.
    expect((await post(app, '/api/contact', { ...CONTACT, email: '' })).status).toBe(400);
    expect((await post(app, '/api/contact', CONTACT)).status).toBe(201);
    expect((await post(app, '/api/feedback', { feedback: 'Hi' })).status).toBe(201);
    const refused = await post(app, '/api/sales', { name: 'Ada', email: 'ada@studio.example', company: 'Studio', message: 'Hi' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ success: false, error: 'Too many messages from your connection. Please try again in 30 minutes.', code: 'rate_limited' });
    expect(await messages(app)).toHaveLength(2);

    const page = await postForm(app, '/api/contact', CONTACT);
    expect(page.status).toBe(429);
    expect(await page.text()).toContain('Please wait a little');
  });
});
