/**
 * The email prompt cannot put a stranger's sites in someone else's account (login CSRF): a sign-in
 * link that claims an anonymous session's sites is mailed only to an address that session
 * confirmed (by the link of the confirmation message); the link's page learns the address it signs in
 * as before anything is used; and a session an emailed link opened claims none of the sites the
 * browser made before signing in.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { confirmationTokenIn, createCapturingMailer, type TCapturingMailer } from '@dropsite/testkit/control-api/account-mail';
import { createSignedInCreator } from '@dropsite/testkit/control-api/accounts';
import { buildUploadForm } from '@dropsite/testkit/control-api/fixtures';
import { createBrowser, type TBrowser } from '@dropsite/testkit/control-api/site-fixtures';
import { createFakeClock, startTestApp, UNREACHED_RATE_LIMITS, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { CLAIM_AFTER_LINK, LINK_GONE } from './accounts.service.ts';

describe('claim links and the sessions links open', () => {
  let app: TTestApp;
  let mail: TCapturingMailer;
  const clock = createFakeClock();

  beforeAll(async () => {
    app = await startTestApp({ clock, startWorker: false, config: { rateLimits: UNREACHED_RATE_LIMITS } });
  });
  beforeEach(() => {
    mail = createCapturingMailer();
    app.deps.mailer = mail;
  });
  afterAll(async () => {
    await app.close();
  });

  /** A browser that published a site without an account: its anonymous session. */
  async function publisher(title: string): Promise<{ browser: TBrowser; sessionId: string }> {
    const browser = createBrowser(app);
    const form = buildUploadForm([{ name: 'a.txt', type: 'text/plain', bytes: new TextEncoder().encode(title) }], { title });
    const res = await browser.fetch('/api/upload', { method: 'POST', body: form });
    expect(res.status).toBe(201);
    await res.arrayBuffer();
    return { browser, sessionId: browser.cookies.get('dropsite_anon')!.split('.')[0]! };
  }

  const ownersOf = async (sessionId: string) =>
    (await app.deps.db.selectFrom('projects').select('owner_creator_id').where('anonymous_session_id', '=', sessionId).execute()).map((p) => p.owner_creator_id);

  const signInLinksTo = (to: string) => mail.sent.filter((m) => m.to === to && m.text.includes('/sign-in?link='));

  it('a stranger’s email prompt with someone else’s address mails no link that claims: only the confirmation', async () => {
    const stranger = await publisher('Stranger’s site');
    const answer = await stranger.browser.json('/api/email-collection', { method: 'POST', json: { email: 'victim@studio.example', trigger: 'success_page' } });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ success: true, sent: 'confirmation' });
    await expect.poll(() => confirmationTokenIn(mail, 'victim@studio.example')).toBeDefined();
    expect(signInLinksTo('victim@studio.example')).toEqual([]);
    // Asking again changes nothing: still no sign-in link, nothing claimed.
    await stranger.browser.json('/api/email-collection', { method: 'POST', json: { email: 'Victim@Studio.example', trigger: 'return_visit' } });
    expect(signInLinksTo('victim@studio.example')).toEqual([]);
    expect(await ownersOf(stranger.sessionId)).toEqual([null]);

    // The victim signs in with a link of their own: the stranger's site stays out of their account.
    await createBrowser(app).json('/api/auth/email-link', { method: 'POST', json: { email: 'victim@studio.example' } });
    const own = mail.lastToken('victim@studio.example', '/sign-in?link=');
    const consumed = await createBrowser(app).json<{ claimed: number }>('/api/auth/email-link/consume', { method: 'POST', json: { token: own } });
    expect(consumed.status).toBe(200);
    expect(consumed.body.claimed).toBe(0);
    expect(await ownersOf(stranger.sessionId)).toEqual([null]);
  });

  it('once the address’s owner confirms it, the claim link follows and adds the sites', async () => {
    const creator = await publisher('My own site');
    const answer = await creator.browser.json('/api/email-collection', { method: 'POST', json: { email: 'owner@studio.example', trigger: 'success_page' } });
    expect(answer.body).toEqual({ success: true, sent: 'confirmation' });
    await expect.poll(() => confirmationTokenIn(mail, 'owner@studio.example')).toBeDefined();
    const confirmed = await createBrowser(app).fetch(`/api/email/confirm?token=${confirmationTokenIn(mail, 'owner@studio.example')}`, { method: 'POST' });
    expect(confirmed.status).toBe(200);
    expect(signInLinksTo('owner@studio.example')).toHaveLength(1);
    const token = mail.lastToken('owner@studio.example', '/sign-in?link=');
    const consumed = await createBrowser(app).json<{ claimed: number }>('/api/auth/email-link/consume', { method: 'POST', json: { token } });
    expect(consumed.body.claimed).toBe(1);
    expect(await ownersOf(creator.sessionId)).toEqual([expect.any(String)]);
  });

  it('an address the session confirmed already (its sites’ notification address) gets the claim link at once', async () => {
    const browser = createBrowser(app);
    const settings = JSON.stringify({ enableAnalytics: true, enableNotifications: true, notificationEmail: 'notify@studio.example' });
    const form = buildUploadForm([{ name: 'a.txt', type: 'text/plain', bytes: new TextEncoder().encode('notify') }], { title: 'Notified site', settings });
    expect((await browser.fetch('/api/upload', { method: 'POST', body: form })).status).toBe(201);
    const sessionId = browser.cookies.get('dropsite_anon')!.split('.')[0]!;
    await expect.poll(() => confirmationTokenIn(mail, 'notify@studio.example')).toBeDefined();
    const confirmed = await createBrowser(app).fetch(`/api/email/confirm?token=${confirmationTokenIn(mail, 'notify@studio.example')}`, { method: 'POST' });
    expect(confirmed.status).toBe(200);
    // Confirmed for its notifications, not asked for by the prompt: no sign-in link yet.
    expect(signInLinksTo('notify@studio.example')).toEqual([]);
    const answer = await browser.json('/api/email-collection', { method: 'POST', json: { email: 'notify@studio.example', trigger: 'return_visit' } });
    expect(answer.body).toEqual({ success: true, sent: 'sign_in_link' });
    const consumed = await createBrowser(app).json<{ claimed: number }>('/api/auth/email-link/consume', {
      method: 'POST',
      json: { token: mail.lastToken('notify@studio.example', '/sign-in?link=') },
    });
    expect(consumed.body.claimed).toBe(1);
    expect(await ownersOf(sessionId)).toEqual([expect.any(String)]);
  });

  it('the link’s page names the address it signs in as, without using the link', async () => {
    await createBrowser(app).json('/api/auth/email-link', { method: 'POST', json: { email: 'named@studio.example' } });
    const token = mail.lastToken('named@studio.example', '/sign-in?link=');
    const described = await createBrowser(app).json('/api/auth/email-link/describe', { method: 'POST', json: { token } });
    expect(described.status).toBe(200);
    expect(described.body).toEqual({ success: true, email: 'named@studio.example', addsSites: false });
    expect(described.headers.get('cache-control')).toBe('private, no-store');
    // Still usable after being described; used, it describes as gone.
    expect((await createBrowser(app).json('/api/auth/email-link/consume', { method: 'POST', json: { token } })).status).toBe(200);
    const gone = await createBrowser(app).json('/api/auth/email-link/describe', { method: 'POST', json: { token } });
    expect(gone.status).toBe(410);
    expect(gone.body).toEqual({ success: false, error: LINK_GONE, code: 'gone' });
  });

  it('a session an emailed link opened claims none of the sites the browser made before', async () => {
    // Someone's own link, opened in another person's browser that holds sites of its own.
    await createBrowser(app).json('/api/auth/email-link', { method: 'POST', json: { email: 'sender@studio.example' } });
    const token = mail.lastToken('sender@studio.example', '/sign-in?link=');
    const victim = await publisher('Victim’s unclaimed site');
    const consumed = await victim.browser.json<{ claimed: number }>('/api/auth/email-link/consume', { method: 'POST', json: { token } });
    expect(consumed.status).toBe(200);
    expect(consumed.body.claimed).toBe(0);
    // The dashboard is told, so it shows no claim banner; and the claim itself is refused.
    const session = await victim.browser.json<{ creator: { email: string; signedInByLink?: boolean } }>('/api/auth/session');
    expect(session.body.creator).toMatchObject({ email: 'sender@studio.example', signedInByLink: true });
    const claim = await victim.browser.json('/api/creators/claim', { method: 'POST', json: {} });
    expect(claim.status).toBe(403);
    expect(claim.body).toEqual({ success: false, error: CLAIM_AFTER_LINK, code: 'forbidden' });
    expect(await ownersOf(victim.sessionId)).toEqual([null]);
    // The browser still holds its own sites' cookie.
    expect(victim.browser.cookies.get('dropsite_anon')).toBeDefined();

    // A password sign-in in that browser is the account owner's own: it may claim.
    const owner = await publisher('Claimed with a password');
    await createSignedInCreator(app.deps, { email: 'password@studio.example', password: 'a long enough password' });
    const signedIn = await owner.browser.json('/api/auth/sign-in', { method: 'POST', json: { email: 'password@studio.example', password: 'a long enough password' } });
    expect(signedIn.status).toBe(200);
    const session2 = await owner.browser.json<{ creator: { signedInByLink?: boolean } }>('/api/auth/session');
    expect(session2.body.creator.signedInByLink).toBeUndefined();
    const claimed = await owner.browser.json('/api/creators/claim', { method: 'POST', json: {} });
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({ claimed: 1 });
  });
});
