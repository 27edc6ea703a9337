/**
 * Address changes against account takeover (checklist: ASVS V2 credential recovery, V3 sessions):
 * a pending change never outlives a recovery step (password changed or reset, signing out
 * everywhere, an unverified account taken over by a sign-in link), the owner can cancel it, the
 * previous address hears of it with a link that undoes it, and an account without a password
 * proves itself by a fresh sign-in link before changing its address, choosing a password or being
 * deleted. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.ts';
import { createFakeClock, startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { createBrowser, type TBrowser } from '@dropsite/testkit/control-api/site-fixtures';
import { createCapturingMailer, type TCapturingMailer } from '@dropsite/testkit/control-api/account-mail';
import { browserSignedInAs, createSignedInCreator } from '@dropsite/testkit/control-api/accounts';
import { isDialectAvailable, TEST_DIALECTS, testAppDatabase } from '@dropsite/testkit/control-api/test-database';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const PASSWORD = 'correct horse battery';
const DEFAULTS = loadConfig({});
const LINK_GONE = { success: false, error: 'This sign-in link has expired or was already used. Ask for a new one.', code: 'gone' };
const UNDO_GONE = { success: false, error: 'This link has expired or was already used. Sign in with a link sent to your address, or reset your password.', code: 'gone' };
const RECENT_SIGN_IN_NEEDED = {
  success: false,
  error: 'For your safety, confirm it’s you first: open a new sign-in link sent to your current address, then try again within 10 minutes.',
  code: 'forbidden',
};
const CHANGE_LINK = '/verify-email?token=';
const UNDO_LINK = '/undo-email-change?token=';

type TCreatorBody = { creator: { email: string; emailVerified: boolean } | null };
type TAccountBody = { creator: { email: string }; pendingEmail: string | null; hasPassword: boolean };

describe.each(TEST_DIALECTS)('address changes against account takeover (%s)', async (dialect) => {
  const available = await isDialectAvailable(dialect);
  let app: TTestApp;
  let mail: TCapturingMailer;
  const clock = createFakeClock();
  const database = testAppDatabase(dialect, 'email_change');
  let n = 0;
  const address = (name: string) => `${name}-${++n}@studio.example`;

  beforeAll(async () => {
    if (!available) return;
    app = await startTestApp({
      clock,
      startWorker: false,
      config: { accountLimits: { ...DEFAULTS.accountLimits, emailsPerAddressPerHour: 3, signInFailuresPerAccountPerHour: 5 }, ...database.config },
    });
  });
  beforeEach(() => {
    if (!available) return;
    mail = createCapturingMailer();
    app.deps.mailer = mail;
  });
  afterAll(async () => {
    if (!available) return;
    await app.close();
    await database.drop();
  });

  /** Signs up as the form does and opens the mailed link that makes the account. */
  async function signUp(email: string): Promise<TBrowser> {
    const browser = createBrowser(app);
    const asked = await browser.json('/api/auth/sign-up', { method: 'POST', json: { email, password: PASSWORD, name: 'Owner' } });
    expect(asked.status).toBe(202);
    const res = await browser.json('/api/auth/email-link/consume', { method: 'POST', json: { token: mail.lastToken(email, '/sign-in?link=') } });
    expect(res.status).toBe(200);
    return browser;
  }

  async function signInWithPassword(email: string, password = PASSWORD): Promise<TBrowser> {
    const browser = createBrowser(app);
    expect((await browser.json('/api/auth/sign-in', { method: 'POST', json: { email, password } })).status).toBe(200);
    return browser;
  }

  async function signInByLink(email: string): Promise<TBrowser> {
    expect((await createBrowser(app).json('/api/auth/email-link', { method: 'POST', json: { email } })).status).toBe(202);
    const browser = createBrowser(app);
    const res = await browser.json('/api/auth/email-link/consume', { method: 'POST', json: { token: mail.lastToken(email, '/sign-in?link=') } });
    expect(res.status).toBe(200);
    return browser;
  }

  async function askForChange(browser: TBrowser, email: string, password = PASSWORD) {
    return browser.json('/api/account/email', { method: 'POST', json: { email, password } });
  }

  async function confirmChange(token: string) {
    return createBrowser(app).json<TCreatorBody>('/api/auth/verify-email', { method: 'POST', json: { token } });
  }

  async function emailOf(browser: TBrowser) {
    return (await browser.json<TCreatorBody>('/api/auth/session')).body.creator?.email ?? null;
  }

  const recoverySteps: Array<[string, (owner: TBrowser, email: string) => Promise<void>]> = [
    [
      'a password change',
      async (owner) => {
        const res = await owner.json('/api/account/password', { method: 'POST', json: { currentPassword: PASSWORD, newPassword: 'a brand new password' } });
        expect(res.status).toBe(200);
      },
    ],
    [
      'a password reset',
      async (_owner, email) => {
        await createBrowser(app).json('/api/auth/password-reset/request', { method: 'POST', json: { email } });
        const token = mail.lastToken(email, '/reset-password?token=');
        expect((await createBrowser(app).json('/api/auth/password-reset', { method: 'POST', json: { token, password: 'a brand new password' } })).status).toBe(200);
      },
    ],
    [
      'signing out everywhere',
      async (owner) => {
        expect((await owner.json('/api/auth/sign-out-everywhere', { method: 'POST' })).status).toBe(200);
      },
    ],
  ];

  it.skipIf(!available).each(recoverySteps)("after %s, a thief's pending address change answers as an expired link", async (_label, recover) => {
    const email = address('owner');
    const owner = await signUp(email);
    const thief = await signInWithPassword(email);
    const thiefEmail = address('thief');
    expect((await askForChange(thief, thiefEmail)).status).toBe(202);
    const stolen = mail.lastToken(thiefEmail, CHANGE_LINK);

    await recover(owner, email);

    const res = await confirmChange(stolen);
    expect(res.status).toBe(410);
    expect(res.body).toEqual(LINK_GONE);
    expect(await emailOf(await signInByLink(email))).toBe(email);
    expect((await createBrowser(app).json('/api/auth/sign-in', { method: 'POST', json: { email: thiefEmail, password: PASSWORD } })).status).toBe(401);
  });

  it.skipIf(!available)('an address taken over by a sign-in link ends the change its pre-registering maker asked for', async () => {
    const victim = address('victim');
    const attackerEmail = address('attacker');
    // A sign-up is finished only from its inbox now; an unverified account with the victim's address
    // is what an earlier sign-up (before that rule) could have left.
    const attacker = browserSignedInAs(app, await createSignedInCreator(app.deps, { email: victim, password: PASSWORD, verified: false }));
    expect((await askForChange(attacker, attackerEmail)).status).toBe(202);
    const stolen = mail.lastToken(attackerEmail, CHANGE_LINK);

    const owner = await signInByLink(victim);

    expect((await confirmChange(stolen)).body).toEqual(LINK_GONE);
    expect(await emailOf(owner)).toBe(victim);
    expect(await emailOf(attacker)).toBeNull();
  });

  it.skipIf(!available)('the owner cancels a pending change: the account page no longer shows it and its link has expired', async () => {
    const email = address('canceller');
    const owner = await signUp(email);
    const next = address('next');
    expect((await askForChange(owner, next)).status).toBe(202);
    expect((await owner.json<TAccountBody>('/api/account')).body.pendingEmail).toBe(next);

    const cancelled = await owner.json('/api/account/email', { method: 'DELETE' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({ success: true });
    expect((await owner.json<TAccountBody>('/api/account')).body.pendingEmail).toBeNull();
    expect((await confirmChange(mail.lastToken(next, CHANGE_LINK))).body).toEqual(LINK_GONE);
    expect(await emailOf(owner)).toBe(email);
    expect((await createBrowser(app).json('/api/account/email', { method: 'DELETE' })).status).toBe(401);
  });

  it.skipIf(!available)('the previous address hears of a change asked and completed, and its link gives the address back and shuts the changer out', async () => {
    const email = address('told');
    await signUp(email);
    const thief = await signInWithPassword(email);
    const thiefEmail = address('taker');
    // The per-recipient limit is spent on the owner's address: the notices still arrive.
    for (let i = 0; i < 4; i++) await createBrowser(app).json('/api/auth/email-link', { method: 'POST', json: { email } });
    mail.sent.length = 0;

    expect((await askForChange(thief, thiefEmail)).status).toBe(202);
    const asked = mail.sent.find((m) => m.to === email);
    expect(asked?.subject).toBe('Someone asked to change your Dropsite email address');
    expect(asked?.text).toContain(`asked to use ${thiefEmail} instead of this address`);
    const askedUndo = mail.lastToken(email, UNDO_LINK);

    expect((await confirmChange(mail.lastToken(thiefEmail, CHANGE_LINK))).status).toBe(200);
    expect(await emailOf(thief)).toBe(thiefEmail);
    const done = mail.sent.filter((m) => m.to === email).at(-1);
    expect(done?.subject).toBe('Your Dropsite email address was changed');
    expect(done?.text).toContain(`now uses ${thiefEmail} instead of this address`);
    expect(done?.text).toContain('The link works once, for 7 days.');
    const undo = mail.lastToken(email, UNDO_LINK);
    expect(undo).not.toBe(askedUndo);
    // Whoever holds the account now cannot end the undo link, nor take the old address meanwhile.
    expect((await thief.json('/api/auth/sign-out-everywhere', { method: 'POST' })).status).toBe(200);
    const again = await signInWithPassword(thiefEmail);
    // A sign-up with the old address answers as always, but only that address's inbox could finish it.
    expect((await createBrowser(app).json('/api/auth/sign-up', { method: 'POST', json: { email, password: PASSWORD, name: 'Blocker' } })).status).toBe(202);

    const owner = createBrowser(app);
    const undone = await owner.json<TCreatorBody>('/api/auth/email-change/undo', { method: 'POST', json: { token: undo } });
    expect(undone.status).toBe(200);
    expect(undone.body.creator).toMatchObject({ email, emailVerified: true });
    expect(await emailOf(owner)).toBe(email);
    expect(await emailOf(again)).toBeNull();
    // The changer's password is gone with the change: neither address signs in with it.
    for (const who of [email, thiefEmail]) {
      expect((await createBrowser(app).json('/api/auth/sign-in', { method: 'POST', json: { email: who, password: PASSWORD } })).status).toBe(401);
    }
    expect((await owner.json('/api/auth/email-change/undo', { method: 'POST', json: { token: undo } })).body).toEqual(UNDO_GONE);
    expect((await owner.json('/api/auth/email-change/undo', { method: 'POST', json: { token: askedUndo } })).body).toEqual(UNDO_GONE);
  });

  it.skipIf(!available)('an undo link asked for at the request secures the account before the change, and lasts 7 days', async () => {
    const email = address('early');
    await signUp(email);
    const thief = await signInWithPassword(email);
    const thiefEmail = address('early-taker');
    expect((await askForChange(thief, thiefEmail)).status).toBe(202);
    const undo = mail.lastToken(email, UNDO_LINK);
    const owner = createBrowser(app);
    expect((await owner.json('/api/auth/email-change/undo', { method: 'POST', json: { token: undo } })).status).toBe(200);
    expect(await emailOf(thief)).toBeNull();
    expect((await confirmChange(mail.lastToken(thiefEmail, CHANGE_LINK))).body).toEqual(LINK_GONE);
    expect(await emailOf(owner)).toBe(email);

    const later = address('late');
    await signUp(later);
    expect((await askForChange(await signInWithPassword(later), address('late-taker'))).status).toBe(202);
    const lateUndo = mail.lastToken(later, UNDO_LINK);
    clock.advance(7 * DAY + 1);
    expect((await createBrowser(app).json('/api/auth/email-change/undo', { method: 'POST', json: { token: lateUndo } })).body).toEqual(UNDO_GONE);
  });

  it.skipIf(!available)('a previous address waits for its own account: another cannot move to it, the account itself can move back', async () => {
    const email = address('mover');
    const mover = await signUp(email);
    const moved = address('moved-to');
    expect((await askForChange(mover, moved)).status).toBe(202);
    expect((await confirmChange(mail.lastToken(moved, CHANGE_LINK))).status).toBe(200);

    const other = await signUp(address('other'));
    const refused = await askForChange(other, email);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ success: false, error: 'An account with this email already exists. Sign in instead.', code: 'conflict' });

    expect((await askForChange(mover, email)).status).toBe(202);
    expect((await confirmChange(mail.lastToken(email, CHANGE_LINK))).body.creator).toMatchObject({ email });
  });

  it.skipIf(!available)('an account without a password changes its address, chooses a password or is deleted only from a fresh sign-in link', async () => {
    const email = address('linkonly');
    const stale = browserSignedInAs(app, await createSignedInCreator(app.deps, { email }));
    const attempts = [
      () => askForChange(stale, address('elsewhere'), ''),
      () => stale.json('/api/account/password', { method: 'POST', json: { currentPassword: '', newPassword: 'chosen by someone' } }),
      () => stale.json('/api/account', { method: 'DELETE', json: { confirmEmail: email, password: '' } }),
    ];
    for (const attempt of attempts) {
      const res = await attempt();
      expect(res.status).toBe(403);
      expect(res.body).toEqual(RECENT_SIGN_IN_NEEDED);
    }
    expect((await stale.json<TAccountBody>('/api/account')).body).toMatchObject({ creator: { email }, pendingEmail: null, hasPassword: false });

    // A sign-in link to the current address opens a session that may, for 10 minutes.
    const fresh = await signInByLink(email);
    clock.advance(11 * MINUTE);
    expect((await askForChange(fresh, address('too-late'), '')).body).toEqual(RECENT_SIGN_IN_NEEDED);
    const renewed = await signInByLink(email);
    clock.advance(9 * MINUTE);
    const next = address('moved');
    expect((await askForChange(renewed, next, '')).status).toBe(202);
    expect((await renewed.json('/api/account/password', { method: 'POST', json: { currentPassword: '', newPassword: 'chosen by the owner' } })).status).toBe(200);
    expect((await stale.json('/api/account')).status).toBe(401);
  });

  it.skipIf(!available)('a session cannot guess the current password: wrong ones count as failed sign-ins of the account, in parallel too', async () => {
    const email = address('guessed');
    const thief = await signUp(email);
    const guesses = await Promise.all(Array.from({ length: 8 }, (_, i) => askForChange(thief, address('guess'), `guess number ${i}`)));
    expect(guesses.map((g) => g.status).sort()).toEqual([400, 400, 400, 400, 400, 429, 429, 429]);
    const right = await askForChange(thief, address('guess'));
    expect(right.status).toBe(429);
    expect(right.body).toMatchObject({ error: 'Too many wrong passwords. Please try again later.', code: 'rate_limited' });
    // The account's failures are spent, yet that is no wall for its owner: a client address that has
    // not guessed wrong still signs in with the right password.
    expect((await createBrowser(app).json('/api/auth/sign-in', { method: 'POST', json: { email, password: PASSWORD } })).status).toBe(200);
  });

  it.skipIf(!available)('deleting an account takes its password besides the typed address', async () => {
    const email = address('leaving');
    const owner = await signUp(email);
    for (const password of ['', 'not the password']) {
      const res = await owner.json('/api/account', { method: 'DELETE', json: { confirmEmail: email, password } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: 'Your current password is not correct.', code: 'bad_request' });
    }
    expect(await emailOf(owner)).toBe(email);
    expect((await owner.json('/api/account', { method: 'DELETE', json: { confirmEmail: email, password: PASSWORD } })).status).toBe(200);
    expect((await createBrowser(app).json('/api/auth/sign-in', { method: 'POST', json: { email, password: PASSWORD } })).status).toBe(401);
  });
});
