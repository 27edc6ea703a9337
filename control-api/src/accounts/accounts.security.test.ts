/**
 * Accounts against attack (checklist: ASVS V7 sessions, V2 anti-automation): uniform sign-in
 * failures, sign-in limits per address and back-off per account and address, sessions and one-time tokens kept only as
 * hashes, idle expiry, renewal and the 90-day lifetime over HTTP, another creator's session out of reach, and the
 * __Host- cookie behind https.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.ts';
import { createFakeClock, startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { createBrowser, type TBrowser } from '@dropsite/testkit/control-api/site-fixtures';
import { createCapturingMailer, type TCapturingMailer } from '@dropsite/testkit/control-api/account-mail';
import { createSignedInCreator } from '@dropsite/testkit/control-api/accounts';

const DAY = 86_400_000;
const PASSWORD = 'correct horse battery';
const DEFAULTS = loadConfig({});

async function signIn(browser: TBrowser, email: string, password: string) {
  return browser.json<{ error?: string; code?: string }>('/api/auth/sign-in', { method: 'POST', json: { email, password } });
}

describe('account security', () => {
  let app: TTestApp;
  let mail: TCapturingMailer;
  const clock = createFakeClock();

  beforeAll(async () => {
    app = await startTestApp({
      clock,
      startWorker: false,
      config: {
        trustProxy: 1,
        accountLimits: { ...DEFAULTS.accountLimits, signInFailuresPerAccountPerHour: 3, signInFailuresPerAddressPerHour: 6 },
      },
    });
  });
  beforeEach(() => {
    mail = createCapturingMailer();
    app.deps.mailer = mail;
  });
  afterAll(async () => {
    await app.close();
  });

  it('fails alike for an unknown address, a wrong password and an account without one, in similar time', async () => {
    const ROUNDS = 5;
    for (let round = 0; round < ROUNDS; round++) {
      await createSignedInCreator(app.deps, { email: `known${round}@studio.example`, password: PASSWORD });
      await createSignedInCreator(app.deps, { email: `linkonly${round}@studio.example` });
    }
    // The dummy hash an unknown address is checked against is made on first use: not measured.
    await signIn(createBrowser(app, { address: '10.0.9.9' }), 'warm-up@studio.example', 'whatever password');
    const cases = [
      ['unknown', (round: number) => `nobody${round}@studio.example`, 'whatever password'],
      ['wrong', (round: number) => `known${round}@studio.example`, 'not the password'],
      ['no password', (round: number) => `linkonly${round}@studio.example`, 'whatever password'],
    ] as const;
    const timings: Record<string, number[]> = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const [label, emailOf, password] of cases) {
        const browser = createBrowser(app, { address: `10.0.${round}.${label.length}` });
        const started = performance.now();
        const res = await signIn(browser, emailOf(round), password);
        const spent = performance.now() - started;
        timings[label] = [...(timings[label] ?? []), spent];
        expect(res.status, label).toBe(401);
        expect(res.body, label).toEqual({ success: false, error: 'Incorrect email or password.', code: 'unauthorized' });
        expect(browser.cookies.has('dropsite_session'), label).toBe(false);
      }
    }
    // Each spends one argon2id check: none answers in a fraction of another's time (the fastest of
    // five rounds each, which leaves out most of the noise of a busy machine).
    const fastest = (label: string) => Math.min(...(timings[label] ?? []));
    for (const label of ['unknown', 'no password']) {
      expect(fastest(label), label).toBeGreaterThan(fastest('wrong') / 3);
      expect(fastest(label), label).toBeLessThan(fastest('wrong') * 3);
    }
  });

  it('limits failures per address (refusing even the right password meanwhile) and backs off per account and address, never locking the owner out', async () => {
    await createSignedInCreator(app.deps, { email: 'target@studio.example', password: PASSWORD });
    for (let i = 0; i < 3; i++) expect((await signIn(createBrowser(app, { address: `10.1.0.${i}` }), 'target@studio.example', `guess ${i} wrong`)).status).toBe(401);
    // Past the account's limit an address that fails once is held back, whatever it sends next...
    expect((await signIn(createBrowser(app, { address: '10.1.0.9' }), 'target@studio.example', 'guess 9 wrong')).status).toBe(401);
    const limited = await signIn(createBrowser(app, { address: '10.1.0.9' }), 'target@studio.example', PASSWORD);
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('Too many sign-in attempts. Please try again later.');
    const res = await createBrowser(app, { address: '10.1.0.9' }).fetch('/api/auth/sign-in', { method: 'POST', json: { email: 'target@studio.example', password: PASSWORD } });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    // ...while the owner, from an address that has not failed, signs in.
    expect((await signIn(createBrowser(app, { address: '10.1.1.1' }), 'target@studio.example', PASSWORD)).status).toBe(200);
    clock.advance(DAY);
    expect((await signIn(createBrowser(app, { address: '10.1.0.9' }), 'target@studio.example', PASSWORD)).status).toBe(200);

    // One address trying many accounts.
    const spray = createBrowser(app, { address: '10.2.0.1' });
    for (let i = 0; i < 6; i++) expect((await signIn(spray, `victim${i}@studio.example`, 'password123')).status).toBe(401);
    expect((await signIn(spray, 'target@studio.example', PASSWORD)).status).toBe(429);
    clock.advance(DAY);
  });

  it('keeps sessions and one-time tokens only as SHA-256 hashes', async () => {
    const browser = createBrowser(app);
    await browser.json('/api/auth/sign-up', { method: 'POST', json: { email: 'hash@studio.example', password: PASSWORD, name: 'Hash' } });
    const signUpToken = mail.lastToken('hash@studio.example', '/sign-in?link=');
    // A pending sign-up keeps the password as argon2id too.
    const pending = JSON.stringify(await app.deps.db.selectFrom('account_tokens').selectAll().execute());
    for (const plain of [signUpToken, PASSWORD]) expect(pending).not.toContain(plain);
    expect(pending).toContain('$argon2id$');
    await browser.json('/api/auth/email-link/consume', { method: 'POST', json: { token: signUpToken } });
    const token = browser.cookies.get('dropsite_session')!;
    const [, secret] = token.split('.') as [string, string];
    await createBrowser(app).json('/api/auth/email-link', { method: 'POST', json: { email: 'hash@studio.example' } });
    const linkToken = mail.lastToken('hash@studio.example', '/sign-in?link=');
    await browser.json('/api/account/email', { method: 'POST', json: { email: 'hash.new@studio.example', password: PASSWORD } });
    const verifyToken = mail.lastToken('hash.new@studio.example', '/verify-email?token=');
    const dump = JSON.stringify([
      await app.deps.db.selectFrom('auth_sessions').selectAll().execute(),
      await app.deps.db.selectFrom('account_tokens').selectAll().execute(),
      await app.deps.db.selectFrom('creators').selectAll().execute(),
    ]);
    for (const plain of [secret, signUpToken, verifyToken, linkToken, PASSWORD]) expect(dump).not.toContain(plain);
    expect(dump).toContain('$argon2id$');
  });

  it('ends a session after 30 idle days and renews an active one (the cookie too)', async () => {
    const creator = await createSignedInCreator(app.deps, { email: 'idle@studio.example' });
    const active = createBrowser(app);
    active.cookies.set('dropsite_session', creator.cookie.split('=')[1]!);
    clock.advance(20 * DAY);
    const res = await active.fetch('/api/auth/session');
    const renewed = res.headers.getSetCookie().find((c) => c.startsWith('dropsite_session='));
    expect(renewed).toMatch(/Max-Age=2592000/);
    clock.advance(25 * DAY);
    expect(((await active.json<{ creator: unknown }>('/api/auth/session')).body.creator as { email: string }).email).toBe('idle@studio.example');
    clock.advance(31 * DAY);
    expect((await active.json<{ creator: unknown }>('/api/auth/session')).body.creator).toBeNull();
    expect((await active.json('/api/account')).status).toBe(401);
  });

  it('ends a session 90 days after its sign-in however active, its cookie never renewed past that', async () => {
    const creator = await createSignedInCreator(app.deps, { email: 'busy@studio.example' });
    const signedInAt = clock.now();
    const active = createBrowser(app);
    active.cookies.set('dropsite_session', creator.cookie.split('=')[1]!);
    const sessionId = creator.cookie.split('=')[1]!.split('.')[0]!;
    // Used every eight days: renewed along the way, never beyond the 90 days.
    let renewals = 0;
    for (let day = 8; day < 90; day += 8) {
      clock.set(signedInAt + day * DAY);
      const res = await active.fetch('/api/auth/session');
      expect(((await res.json()) as { creator: { email: string } | null }).creator?.email, `day ${day}`).toBe('busy@studio.example');
      const renewed = res.headers.getSetCookie().find((c) => c.startsWith('dropsite_session='));
      if (!renewed) continue;
      renewals++;
      const maxAgeSeconds = Number(/Max-Age=(\d+)/.exec(renewed)?.[1]);
      expect(clock.now() + maxAgeSeconds * 1000, `day ${day}`).toBeLessThanOrEqual(signedInAt + 90 * DAY);
    }
    expect(renewals).toBeGreaterThan(0);
    const listed = await active.json<{ sessions: Array<{ id: string; expiresAt: string }> }>('/api/account');
    expect(listed.body.sessions.find((s) => s.id === sessionId)?.expiresAt).toBe(new Date(signedInAt + 90 * DAY).toISOString());

    clock.set(signedInAt + 90 * DAY);
    expect((await active.json<{ creator: unknown }>('/api/auth/session')).body.creator).toBeNull();
    expect((await active.json('/api/account')).status).toBe(401);
    expect(await app.deps.db.selectFrom('auth_sessions').select('id').where('id', '=', sessionId).executeTakeFirst()).toBeUndefined();
  });

  it('never lets one creator end another’s session or read their account', async () => {
    const a = await createSignedInCreator(app.deps, { email: 'a-idor@studio.example' });
    const b = await createSignedInCreator(app.deps, { email: 'b-idor@studio.example' });
    const aSession = a.cookie.split('=')[1]!.split('.')[0]!;
    const browser = createBrowser(app);
    browser.cookies.set('dropsite_session', b.cookie.split('=')[1]!);
    expect((await browser.json(`/api/account/sessions/${aSession}`, { method: 'DELETE' })).status).toBe(404);
    const still = await app.deps.db.selectFrom('auth_sessions').select('id').where('id', '=', aSession).executeTakeFirst();
    expect(still).toBeDefined();
    const account = await browser.json<{ creator: { email: string } }>('/api/account');
    expect(account.body.creator.email).toBe('b-idor@studio.example');
    for (const [method, path] of [
      ['GET', '/api/account'],
      ['PATCH', '/api/account'],
      ['DELETE', '/api/account'],
      ['POST', '/api/account/password'],
      ['POST', '/api/account/email'],
      ['DELETE', `/api/account/sessions/${aSession}`],
      ['POST', '/api/auth/verify-email/request'],
      ['POST', '/api/creators/sync'],
      ['POST', '/api/creators/claim'],
    ] as const) {
      const res = await createBrowser(app).json(path, {
        method,
        json: method === 'GET' ? undefined : { name: 'x', email: 'x@y.zz', newPassword: 'long enough pw', confirmEmail: 'x' },
      });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });
});

describe('the session cookie behind https', () => {
  let app: TTestApp;
  beforeAll(async () => {
    app = await startTestApp({ startWorker: false, config: { publicUrl: 'https://dropsite.example' } });
  });
  afterAll(async () => {
    await app.close();
  });

  it('is __Host- prefixed and Secure', async () => {
    await createSignedInCreator(app.deps, { email: 'secure@studio.example', password: PASSWORD });
    const res = await fetch(`${app.url}/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://dropsite.example' },
      body: JSON.stringify({ email: 'secure@studio.example', password: PASSWORD }),
    });
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('__Host-dropsite_session='))!;
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).not.toMatch(/Domain=/i);
  });
});
