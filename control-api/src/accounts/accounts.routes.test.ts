import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFakeClock, startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { createBrowser, seedSite, type TBrowser } from '@dropsite/testkit/control-api/site-fixtures';
import { confirmationTokenIn, createCapturingMailer, type TCapturingMailer } from '@dropsite/testkit/control-api/account-mail';
import { browserSignedInAs, createSignedInCreator } from '@dropsite/testkit/control-api/accounts';
import { onlyOwnerOf } from './accounts.service.ts';
import { seedWorkspace } from '@dropsite/testkit/control-api/workspaces';
import { buildUploadForm } from '@dropsite/testkit/control-api/fixtures';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const PASSWORD = 'correct horse battery';

type TCreatorBody = { success: boolean; creator: { id: string; email: string; name: string; emailVerified: boolean; createdAt: string } | null };

describe('accounts', () => {
  let app: TTestApp;
  let mail: TCapturingMailer;
  const clock = createFakeClock();

  beforeAll(async () => {
    app = await startTestApp({ clock, startWorker: false });
  });
  beforeEach(() => {
    mail = createCapturingMailer();
    app.deps.mailer = mail;
  });
  afterAll(async () => {
    await app.close();
  });

  /** Signs up and opens the mailed link in `browser`, which is then signed in to the new account. */
  async function signUp(browser: TBrowser, email: string, password = PASSWORD) {
    const asked = await browser.json('/api/auth/sign-up', { method: 'POST', json: { email, password, name: 'Ada Maker' } });
    expect(asked.status).toBe(202);
    const token = mail.lastToken(email, '/sign-in?link=');
    return browser.json<TCreatorBody>('/api/auth/email-link/consume', { method: 'POST', json: { token } });
  }

  async function sessionOf(browser: TBrowser) {
    return (await browser.json<TCreatorBody>('/api/auth/session')).body.creator;
  }

  it('signs up by a mailed link that makes the account, verified, with the name and password chosen, and signs in', async () => {
    const browser = createBrowser(app);
    const res = await browser.fetch('/api/auth/sign-up', { method: 'POST', json: { email: ' Ada@Studio.example ', password: PASSWORD, name: 'Ada Maker', returnTo: '/billing' } });
    expect(res.status).toBe(202);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.getSetCookie().filter((c) => c.startsWith('dropsite_session='))).toEqual([]);
    expect(await res.json()).toEqual({ success: true });
    // Nothing exists until the link is used.
    expect(await app.deps.db.selectFrom('creators').select('id').where('email', '=', 'ada@studio.example').executeTakeFirst()).toBeUndefined();
    expect(mail.sent.map((m) => [m.to, m.subject])).toEqual([['ada@studio.example', 'Finish creating your Dropsite account']]);
    expect(mail.sent[0]!.text).toContain('The link works once, for 24 hours.');

    const token = mail.lastToken('ada@studio.example', '/sign-in?link=');
    clock.advance(23 * HOUR);
    const consumed = await browser.json<TCreatorBody & { returnTo: string | null }>('/api/auth/email-link/consume', { method: 'POST', json: { token } });
    expect(consumed.status).toBe(200);
    expect(consumed.body).toMatchObject({ returnTo: '/billing', creator: { email: 'ada@studio.example', name: 'Ada Maker', emailVerified: true } });
    expect(await sessionOf(browser)).toMatchObject({ email: 'ada@studio.example' });
    expect((await createBrowser(app).json('/api/auth/sign-in', { method: 'POST', json: { email: 'ada@studio.example', password: PASSWORD } })).status).toBe(200);
    expect((await createBrowser(app).json('/api/auth/email-link/consume', { method: 'POST', json: { token } })).status).toBe(410);

    // Signing up again with the address: the owner is told and sent a sign-in link; the password typed changes nothing.
    const again = await createBrowser(app).json('/api/auth/sign-up', {
      method: 'POST',
      json: { email: 'ada@studio.example', password: 'someone elses password', name: 'Mallory' },
    });
    expect(again.status).toBe(202);
    expect(mail.sent.at(-1)!.subject).toBe('You already have a Dropsite account');
    expect((await createBrowser(app).json('/api/auth/sign-in', { method: 'POST', json: { email: 'ada@studio.example', password: 'someone elses password' } })).status).toBe(401);
    expect((await createBrowser(app).json('/api/auth/sign-up', { method: 'POST', json: { email: 'short@studio.example', password: 'short', name: 'S' } })).status).toBe(400);
  });

  it('an unused sign-up link ends after 24 hours, and no account is made', async () => {
    await createBrowser(app).json('/api/auth/sign-up', { method: 'POST', json: { email: 'late-signup@studio.example', password: PASSWORD, name: 'Late' } });
    const token = mail.lastToken('late-signup@studio.example', '/sign-in?link=');
    clock.advance(DAY + 1);
    expect((await createBrowser(app).json('/api/auth/email-link/consume', { method: 'POST', json: { token } })).status).toBe(410);
    expect(await app.deps.db.selectFrom('creators').select('id').where('email', '=', 'late-signup@studio.example').executeTakeFirst()).toBeUndefined();
  });

  it('answers the session call signed out with creator null, never 401', async () => {
    const res = await createBrowser(app).json<TCreatorBody>('/api/auth/session');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, creator: null });
  });

  it('signs in with a new session every time, and the anonymous cookie never becomes one', async () => {
    await signUp(createBrowser(app), 'bo@studio.example');
    const browser = createBrowser(app);
    // A token planted before sign-in (fixation) is replaced, not adopted.
    browser.cookies.set('dropsite_session', `${'a'.repeat(32)}.${'b'.repeat(32)}`);
    const first = await browser.json<TCreatorBody>('/api/auth/sign-in', { method: 'POST', json: { email: 'BO@studio.example', password: PASSWORD } });
    expect(first.status).toBe(200);
    const firstToken = browser.cookies.get('dropsite_session')!;
    expect(firstToken).not.toBe(`${'a'.repeat(32)}.${'b'.repeat(32)}`);
    await browser.json('/api/auth/sign-in', { method: 'POST', json: { email: 'bo@studio.example', password: PASSWORD } });
    expect(browser.cookies.get('dropsite_session')).not.toBe(firstToken);

    const anonymous = createBrowser(app);
    const form = buildUploadForm([{ name: 'a.txt', type: 'text/plain', bytes: new TextEncoder().encode('x') }], { title: 'Anon' });
    expect((await anonymous.fetch('/api/upload', { method: 'POST', body: form })).status).toBe(201);
    const anonToken = anonymous.cookies.get('dropsite_anon')!;
    const planted = createBrowser(app);
    planted.cookies.set('dropsite_session', anonToken);
    expect(await sessionOf(planted)).toBeNull();
  });

  it('signs out this session, or every session', async () => {
    await signUp(createBrowser(app), 'cy@studio.example');
    const [a, b, c] = [createBrowser(app), createBrowser(app), createBrowser(app)];
    for (const browser of [a, b, c]) await browser.json('/api/auth/sign-in', { method: 'POST', json: { email: 'cy@studio.example', password: PASSWORD } });
    const aToken = a.cookies.get('dropsite_session')!;
    const out = await a.fetch('/api/auth/sign-out', { method: 'POST' });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().find((x) => x.startsWith('dropsite_session='))).toMatch(/Max-Age=0/);
    const replay = createBrowser(app);
    replay.cookies.set('dropsite_session', aToken);
    expect(await sessionOf(replay)).toBeNull();
    expect(await sessionOf(b)).not.toBeNull();

    expect((await b.json('/api/auth/sign-out-everywhere', { method: 'POST' })).status).toBe(200);
    expect(await sessionOf(b)).toBeNull();
    expect(await sessionOf(c)).toBeNull();
    expect((await c.json('/api/auth/sign-out-everywhere', { method: 'POST' })).status).toBe(401);
  });

  it('verifies the address with a single-use link that expires after 24 hours', async () => {
    const browser = browserSignedInAs(app, await createSignedInCreator(app.deps, { email: 'di@studio.example', password: PASSWORD, verified: false }));
    expect((await browser.json('/api/auth/verify-email/request', { method: 'POST' })).status).toBe(202);
    expect(await app.deps.db.selectFrom('email_addresses').select('id').where('email', '=', 'di@studio.example').execute()).toEqual([]);
    const token = mail.lastToken('di@studio.example', '/verify-email?token=');
    const ok = await createBrowser(app).json<TCreatorBody>('/api/auth/verify-email', { method: 'POST', json: { token } });
    expect(ok.status).toBe(200);
    expect(ok.body.creator).toMatchObject({ email: 'di@studio.example', emailVerified: true });
    // Notifications about the account's sites may now go to it (and only now: it is verified).
    const address = await app.deps.db
      .selectFrom('email_addresses')
      .select(['status'])
      .where('email', '=', 'di@studio.example')
      .where('owner_key', '=', `creator:${ok.body.creator!.id}`)
      .executeTakeFirst();
    expect(address).toEqual({ status: 'confirmed' });
    const reused = await createBrowser(app).json('/api/auth/verify-email', { method: 'POST', json: { token } });
    expect(reused.status).toBe(410);
    expect(reused.body).toMatchObject({ error: 'This sign-in link has expired or was already used. Ask for a new one.' });

    const late = browserSignedInAs(app, await createSignedInCreator(app.deps, { email: 'el@studio.example', password: PASSWORD, verified: false }));
    expect((await late.json('/api/auth/verify-email/request', { method: 'POST' })).status).toBe(202);
    const lateToken = mail.lastToken('el@studio.example', '/verify-email?token=');
    clock.advance(DAY + 1);
    expect((await late.json('/api/auth/verify-email', { method: 'POST', json: { token: lateToken } })).status).toBe(410);
  });

  it('resets a password with a one-hour single-use link that ends every other session', async () => {
    const before = createBrowser(app);
    await signUp(before, 'fa@studio.example');
    const unknown = await createBrowser(app).json('/api/auth/password-reset/request', { method: 'POST', json: { email: 'nobody@studio.example' } });
    expect(unknown.status).toBe(202);
    const known = await createBrowser(app).json('/api/auth/password-reset/request', { method: 'POST', json: { email: 'fa@studio.example' } });
    expect(known.status).toBe(202);
    // No account uses that address: it is told so, with no reset link.
    expect(mail.sent.filter((m) => m.to === 'nobody@studio.example').map((m) => m.text.includes('/reset-password?token='))).toEqual([false]);
    const token = mail.lastToken('fa@studio.example', '/reset-password?token=');

    const resetter = createBrowser(app);
    const reset = await resetter.json<TCreatorBody>('/api/auth/password-reset', { method: 'POST', json: { token, password: 'a new long password' } });
    expect(reset.status).toBe(200);
    expect(reset.body.creator).toMatchObject({ emailVerified: true });
    expect(await sessionOf(resetter)).toMatchObject({ email: 'fa@studio.example' });
    expect(await sessionOf(before)).toBeNull();
    expect((await resetter.json('/api/auth/password-reset', { method: 'POST', json: { token, password: 'another long password' } })).status).toBe(410);
    expect((await createBrowser(app).json('/api/auth/sign-in', { method: 'POST', json: { email: 'fa@studio.example', password: 'a new long password' } })).status).toBe(200);

    await createBrowser(app).json('/api/auth/password-reset/request', { method: 'POST', json: { email: 'fa@studio.example' } });
    const stale = mail.lastToken('fa@studio.example', '/reset-password?token=');
    clock.advance(HOUR + 1);
    expect((await createBrowser(app).json('/api/auth/password-reset', { method: 'POST', json: { token: stale, password: 'too late password' } })).status).toBe(410);
  });

  it('signs in by an emailed link (15 minutes, once), creating a verified account on first use', async () => {
    const res = await createBrowser(app).json('/api/auth/email-link', { method: 'POST', json: { email: 'Gi@Studio.example', returnTo: '/dashboard' } });
    expect(res.status).toBe(202);
    const token = mail.lastToken('gi@studio.example', '/sign-in?link=');
    expect(mail.sent.at(-1)!.text).toContain(`${app.url}/sign-in?link=${token}`);
    const browser = createBrowser(app);
    const consumed = await browser.json<TCreatorBody & { returnTo: string; claimed: number }>('/api/auth/email-link/consume', { method: 'POST', json: { token } });
    expect(consumed.status).toBe(200);
    expect(consumed.body).toMatchObject({ creator: { email: 'gi@studio.example', emailVerified: true }, returnTo: '/dashboard', claimed: 0 });
    expect(await sessionOf(browser)).toMatchObject({ email: 'gi@studio.example' });
    expect((await createBrowser(app).json('/api/auth/email-link/consume', { method: 'POST', json: { token } })).status).toBe(410);
    // Such an account has no password until it chooses one; then it signs in with it too.
    expect((await createBrowser(app).json('/api/auth/sign-in', { method: 'POST', json: { email: 'gi@studio.example', password: '' } })).status).toBe(400);
    expect((await browser.json('/api/account/password', { method: 'POST', json: { currentPassword: '', newPassword: 'chosen later on' } })).status).toBe(200);
    expect((await createBrowser(app).json('/api/auth/sign-in', { method: 'POST', json: { email: 'gi@studio.example', password: 'chosen later on' } })).status).toBe(200);

    await createBrowser(app).json('/api/auth/email-link', { method: 'POST', json: { email: 'gi@studio.example' } });
    const stale = mail.lastToken('gi@studio.example', '/sign-in?link=');
    clock.advance(15 * MINUTE + 1);
    expect((await createBrowser(app).json('/api/auth/email-link/consume', { method: 'POST', json: { token: stale } })).status).toBe(410);
    // Somewhere else than this site is never gone back to.
    await createBrowser(app).json('/api/auth/email-link', { method: 'POST', json: { email: 'gi@studio.example', returnTo: '//evil.example' } });
    const offsite = mail.lastToken('gi@studio.example', '/sign-in?link=');
    const back = await createBrowser(app).json<{ returnTo: string | null }>('/api/auth/email-link/consume', { method: 'POST', json: { token: offsite } });
    expect(back.body.returnTo).toBeNull();
  });

  it('keeps the email modal’s promise once the address is confirmed: its link signs in and claims the anonymous session’s sites', async () => {
    const creator = createBrowser(app);
    const form = buildUploadForm([{ name: 'a.txt', type: 'text/plain', bytes: new TextEncoder().encode('x') }], { title: 'Modal site' });
    expect((await creator.fetch('/api/upload', { method: 'POST', body: form })).status).toBe(201);
    const sessionId = creator.cookies.get('dropsite_anon')!.split('.')[0]!;
    const ok = await creator.json('/api/email-collection', { method: 'POST', json: { email: 'ha@studio.example', trigger: 'success_page' } });
    expect(ok.status).toBe(201);
    // The address is confirmed first; confirming it mails the sign-in link that claims the sites.
    expect(ok.body).toEqual({ success: true, sent: 'confirmation' });
    await expect.poll(() => confirmationTokenIn(mail, 'ha@studio.example')).toBeDefined();
    const confirmLink = confirmationTokenIn(mail, 'ha@studio.example');
    expect(mail.sent.some((m) => m.text.includes('/sign-in?link='))).toBe(false);
    const confirmed = await createBrowser(app).fetch(`/api/email/confirm?token=${confirmLink}`, { method: 'POST' });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain('We also sent you a sign-in link');
    const token = mail.lastToken('ha@studio.example', '/sign-in?link=');
    expect(mail.sent.find((m) => m.to === 'ha@studio.example' && m.text.includes('/sign-in?link='))?.subject).toBe('Keep your Dropsite sites and their reactions');

    // On another device: no anonymous cookie there, the link carries the session.
    const phone = createBrowser(app);
    const consumed = await phone.json<TCreatorBody & { claimed: number; returnTo: string }>('/api/auth/email-link/consume', { method: 'POST', json: { token } });
    expect(consumed.status).toBe(200);
    expect(consumed.body).toMatchObject({ claimed: 1, returnTo: '/dashboard', creator: { email: 'ha@studio.example', emailVerified: true } });
    const sites = await app.deps.db.selectFrom('projects').select(['owner_creator_id', 'title']).where('anonymous_session_id', '=', sessionId).execute();
    expect(sites).toEqual([{ owner_creator_id: consumed.body.creator!.id, title: 'Modal site' }]);
  });

  it('the account page: sessions, name, password change ending the others, ending one session', async () => {
    const browser = createBrowser(app);
    await signUp(browser, 'io@studio.example');
    const other = createBrowser(app);
    await other.json('/api/auth/sign-in', { method: 'POST', json: { email: 'io@studio.example', password: PASSWORD }, headers: { 'user-agent': 'Phone' } });
    const account = await browser.json<{ sessions: Array<{ id: string; current: boolean; userAgent: string | null }> }>('/api/account');
    expect(account.status).toBe(200);
    expect(account.body.sessions).toHaveLength(2);
    expect(account.body.sessions.filter((s) => s.current)).toHaveLength(1);
    const phone = account.body.sessions.find((s) => s.userAgent === 'Phone')!;
    expect(phone.current).toBe(false);

    const renamed = await browser.json<TCreatorBody>('/api/account', { method: 'PATCH', json: { name: 'Io' } });
    expect(renamed.body.creator?.name).toBe('Io');

    expect((await browser.json(`/api/account/sessions/${phone.id}`, { method: 'DELETE' })).status).toBe(200);
    expect(await sessionOf(other)).toBeNull();
    expect((await browser.json(`/api/account/sessions/${phone.id}`, { method: 'DELETE' })).status).toBe(404);

    await other.json('/api/auth/sign-in', { method: 'POST', json: { email: 'io@studio.example', password: PASSWORD } });
    const wrong = await browser.json('/api/account/password', { method: 'POST', json: { currentPassword: 'not it at all', newPassword: 'a brand new password' } });
    expect(wrong.status).toBe(400);
    const changed = await browser.json('/api/account/password', { method: 'POST', json: { currentPassword: PASSWORD, newPassword: 'a brand new password' } });
    expect(changed.status).toBe(200);
    expect(await sessionOf(browser)).not.toBeNull();
    expect(await sessionOf(other)).toBeNull();
  });

  it('changes the address only once the new one confirms', async () => {
    const browser = createBrowser(app);
    await signUp(browser, 'jo@studio.example');
    await signUp(createBrowser(app), 'taken@studio.example');
    expect((await browser.json('/api/account/email', { method: 'POST', json: { email: 'taken@studio.example', password: PASSWORD } })).status).toBe(409);
    expect((await browser.json('/api/account/email', { method: 'POST', json: { email: 'jo.new@studio.example', password: 'wrong password' } })).status).toBe(400);
    expect((await browser.json('/api/account/email', { method: 'POST', json: { email: 'jo.new@studio.example', password: PASSWORD } })).status).toBe(202);
    expect(await sessionOf(browser)).toMatchObject({ email: 'jo@studio.example' });
    expect((await browser.json<{ pendingEmail: string | null }>('/api/account')).body.pendingEmail).toBe('jo.new@studio.example');
    const token = mail.lastToken('jo.new@studio.example', '/verify-email?token=');
    const confirmed = await createBrowser(app).json<TCreatorBody>('/api/auth/verify-email', { method: 'POST', json: { token } });
    expect(confirmed.body.creator).toMatchObject({ email: 'jo.new@studio.example', emailVerified: true });
    expect(await sessionOf(browser)).toMatchObject({ email: 'jo.new@studio.example' });
    expect((await browser.json<{ pendingEmail: string | null }>('/api/account')).body.pendingEmail).toBeNull();
  });

  it('deletes the account once its address is typed and its password given: sites say they were removed at once, files go with the sweep', async () => {
    const creator = await createSignedInCreator(app.deps, { email: 'ka@studio.example', password: PASSWORD });
    const browser = createBrowser(app);
    browser.cookies.set('dropsite_session', creator.cookie.split('=')[1]!);
    const site = await seedSite(app, { title: 'To be deleted' });
    await app.deps.db.updateTable('projects').set({ owner_creator_id: creator.id, workspace_id: creator.id }).where('id', '=', site.project.id).execute();
    expect((await browser.fetch(`/${site.slug}`)).status).toBe(200);
    const now = clock.now();
    await app.deps.db
      .insertInto('email_addresses')
      .values({
        id: 'ka-address',
        email: 'ka.notify@studio.example',
        owner_key: `creator:${creator.id}`,
        status: 'confirmed',
        token_hash: null,
        token_expires_at: null,
        confirm_requested_at: null,
        confirm_sent_at: now,
        confirmed_at: now,
        unsubscribed_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();

    const wrong = await browser.json('/api/account', { method: 'DELETE', json: { confirmEmail: 'someone@else.example', password: PASSWORD } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: 'Type your email address to confirm.' });
    const deleted = await browser.json('/api/account', { method: 'DELETE', json: { confirmEmail: 'KA@studio.example', password: PASSWORD } });
    expect(deleted.status).toBe(200);
    const gone = await createBrowser(app).fetch(`/${site.slug}`);
    expect(gone.status).toBe(410);
    expect(await gone.text()).toContain('This site was removed');
    expect(await sessionOf(browser)).toBeNull();
    expect(await app.deps.db.selectFrom('creators').select('id').where('id', '=', creator.id).executeTakeFirst()).toBeUndefined();
    expect(await app.deps.db.selectFrom('email_addresses').select('id').where('owner_key', '=', `creator:${creator.id}`).execute()).toEqual([]);
    await expect.poll(async () => (await app.deps.storage.head(site.files[0]!.storage_key)) !== null, { timeout: 5000 }).toBe(false);
    await expect.poll(async () => app.deps.db.selectFrom('projects').select('id').where('id', '=', site.project.id).executeTakeFirst(), { timeout: 5000 }).toBeUndefined();
  });

  it('keeps a team workspace owned: its only owner hands it on before the account goes, and the team keeps the sites they published', async () => {
    const lead = await createSignedInCreator(app.deps, { email: 'lead@studio.example', password: PASSWORD });
    const partner = await createSignedInCreator(app.deps, { email: 'partner@studio.example', password: PASSWORD });
    const browser = browserSignedInAs(app, lead);
    const team = await seedWorkspace(app.deps, {
      name: 'Harbour Studio',
      members: [
        { id: lead.id, role: 'owner' },
        { id: partner.id, role: 'editor' },
      ],
    });
    const teamSite = await seedSite(app, { title: 'Team delivery' });
    await app.deps.db.updateTable('projects').set({ owner_creator_id: lead.id, workspace_id: team }).where('id', '=', teamSite.project.id).execute();
    const ownSite = await seedSite(app, { title: 'Own delivery' });
    await app.deps.db.updateTable('projects').set({ owner_creator_id: partner.id, workspace_id: lead.id }).where('id', '=', ownSite.project.id).execute();

    const refused = await browser.json('/api/account', { method: 'DELETE', json: { confirmEmail: 'lead@studio.example', password: PASSWORD } });
    expect(refused).toMatchObject({ status: 409, body: { error: onlyOwnerOf(['Harbour Studio']) } });
    expect(await app.deps.db.selectFrom('creators').select('id').where('id', '=', lead.id).executeTakeFirst()).toBeDefined();

    await app.deps.db.updateTable('workspace_members').set({ role: 'owner' }).where('workspace_id', '=', team).where('creator_id', '=', partner.id).execute();
    expect((await browser.json('/api/account', { method: 'DELETE', json: { confirmEmail: 'lead@studio.example', password: PASSWORD } })).status).toBe(200);
    // The team's site stays live in the team's workspace; the personal workspace's sites go, whoever published them.
    expect((await createBrowser(app).fetch(`/${teamSite.slug}`)).status).toBe(200);
    expect(await app.deps.db.selectFrom('projects').select(['workspace_id', 'deleted_at']).where('id', '=', teamSite.project.id).executeTakeFirst()).toEqual({
      workspace_id: team,
      deleted_at: null,
    });
    expect((await createBrowser(app).fetch(`/${ownSite.slug}`)).status).toBe(410);
    expect(await app.deps.db.selectFrom('workspace_members').select('creator_id').where('workspace_id', '=', team).execute()).toEqual([{ creator_id: partner.id }]);
  });

  it('sync answers for the signed-in session and ignores the body', async () => {
    const creator = await createSignedInCreator(app.deps, { email: 'li@studio.example', name: 'Li' });
    const browser = createBrowser(app);
    browser.cookies.set('dropsite_session', creator.cookie.split('=')[1]!);
    const res = await browser.json<TCreatorBody>('/api/creators/sync', { method: 'POST', json: { clerk_user_id: 'x', email: 'evil@example.com', name: 'Evil' } });
    expect(res.body.creator).toMatchObject({ id: creator.id, email: 'li@studio.example', name: 'Li' });
    expect((await createBrowser(app).json('/api/creators/sync', { method: 'POST', json: {} })).status).toBe(401);
  });
});
