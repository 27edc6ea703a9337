import { describe, expect, it } from 'vitest';
import { createFakeClock, startTestApp, testAppForSuite } from '@dropsite/testkit/control-api/test-app';
import { createSignedInCreator } from '@dropsite/testkit/control-api/accounts';
import { hashSecret } from './secret-tokens.ts';
import { createSession, SESSION_MAX_LIFETIME_MS, SESSION_TTL_MS, validateSessionToken } from './sessions.ts';
import { insertSession } from './sessions.repository.ts';
import { sweepExpiredAccountRows } from './account-sweeper.ts';

const DAY = 86_400_000;

describe('creator sessions', () => {
  const clock = createFakeClock();

  const app = testAppForSuite({ clock, startWorker: false });

  it('hands out id.secret with 160 bits of secret and stores only the secret’s SHA-256', async () => {
    const creator = await createSignedInCreator(app.deps, { email: 'Ada@Example.com', name: 'Ada' });
    expect(creator.email).toBe('ada@example.com');
    const token = creator.cookie.slice('dropsite_session='.length);
    const [id, secret] = token.split('.') as [string, string];
    expect(token).toMatch(/^[a-z2-7]{32}\.[a-z2-7]{32}$/);
    const row = await app.deps.db.selectFrom('auth_sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(hashSecret(secret));
    expect(JSON.stringify(row)).not.toContain(secret);
    const found = await validateSessionToken(app.deps, token);
    expect(found?.creator).toEqual({ id: creator.id, email: 'ada@example.com', name: 'Ada', avatarUrl: '', emailVerified: true, sessionId: id, linkSignedInAt: null });
  });

  it('refuses a wrong secret, a malformed token and an unknown id alike', async () => {
    const creator = await createSignedInCreator(app.deps, { email: 'bo@example.com' });
    const [id] = creator.cookie.slice('dropsite_session='.length).split('.') as [string];
    expect(await validateSessionToken(app.deps, `${id}.${'a'.repeat(32)}`)).toBeNull();
    expect(await validateSessionToken(app.deps, `${'b'.repeat(32)}.${'a'.repeat(32)}`)).toBeNull();
    expect(await validateSessionToken(app.deps, id)).toBeNull();
    // The anonymous creator's token has another shape and never passes as a session.
    expect(await validateSessionToken(app.deps, `${'A'.repeat(22)}.${'B'.repeat(43)}`)).toBeNull();
  });

  it('slides: renewed for 30 days once less than half remains, ended after 30 idle days', async () => {
    const creator = await createSignedInCreator(app.deps, { email: 'cy@example.com' });
    const token = creator.cookie.slice('dropsite_session='.length);
    const id = token.split('.')[0]!;
    const expiry = async () => (await app.deps.db.selectFrom('auth_sessions').select('expires_at').where('id', '=', id).executeTakeFirstOrThrow()).expires_at;
    const issuedUntil = await expiry();
    expect(issuedUntil).toBe(clock.now() + SESSION_TTL_MS);

    clock.advance(10 * DAY);
    expect((await validateSessionToken(app.deps, token))?.renewedUntil).toBeNull();
    expect(await expiry()).toBe(issuedUntil);

    clock.advance(6 * DAY);
    const renewed = await validateSessionToken(app.deps, token);
    expect(renewed?.renewedUntil).toBe(clock.now() + SESSION_TTL_MS);
    expect(await expiry()).toBe(clock.now() + SESSION_TTL_MS);

    clock.advance(SESSION_TTL_MS);
    expect(await validateSessionToken(app.deps, token)).toBeNull();
    expect(await app.deps.db.selectFrom('auth_sessions').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
  });

  it('ends 90 days after the sign-in, however active: renewals stop at that day, and a row slid past it is refused and swept', async () => {
    const creator = await createSignedInCreator(app.deps, { email: 'ed@example.com' });
    const token = creator.cookie.slice('dropsite_session='.length);
    const signedInAt = clock.now();
    for (let day = 14; day < 90; day += 14) {
      clock.set(signedInAt + day * DAY);
      const found = await validateSessionToken(app.deps, token);
      expect(found?.creator.email, `day ${day}`).toBe('ed@example.com');
      if (found?.renewedUntil) expect(found.renewedUntil, `day ${day}`).toBeLessThanOrEqual(signedInAt + SESSION_MAX_LIFETIME_MS);
    }
    clock.set(signedInAt + SESSION_MAX_LIFETIME_MS);
    expect(await validateSessionToken(app.deps, token)).toBeNull();

    // A session renewed before lifetimes existed, still running 100 days after its sign-in.
    const now = clock.now();
    const secret = 'c'.repeat(32);
    const slidRow = {
      id: 'd'.repeat(32),
      creatorId: creator.id,
      secretHash: hashSecret(secret),
      createdAt: now - 100 * DAY,
      expiresAt: now + 20 * DAY,
      userAgent: null,
      linkSignedInAt: null,
    };
    await insertSession(app.deps.db, slidRow);
    const slid = () => app.deps.db.selectFrom('auth_sessions').select('id').where('id', '=', 'd'.repeat(32)).executeTakeFirst();
    await sweepExpiredAccountRows(app.deps);
    expect(await slid()).toBeUndefined();
    await insertSession(app.deps.db, slidRow);
    expect(await validateSessionToken(app.deps, `${'d'.repeat(32)}.${secret}`)).toBeNull();
    expect(await slid()).toBeUndefined();
  });

  it('makes a new session each time, so sessions are independent', async () => {
    const creator = await createSignedInCreator(app.deps, { email: 'di@example.com' });
    const a = await createSession(app.deps, creator.id, 'Firefox');
    const b = await createSession(app.deps, creator.id, 'Chromium');
    expect(a.token).not.toBe(b.token);
    expect(a.id).not.toBe(b.id);
    const row = await app.deps.db.selectFrom('auth_sessions').selectAll().where('id', '=', b.id).executeTakeFirstOrThrow();
    expect(row.user_agent).toBe('Chromium');
  });
});

describe('the account sweeper', () => {
  it('removes expired sessions and expired one-time tokens, and nothing else', async () => {
    const clock = createFakeClock();
    const app = await startTestApp({ clock, startWorker: false });
    try {
      const creator = await createSignedInCreator(app.deps, { email: 'sweep@example.com' });
      await createSession(app.deps, creator.id, null);
      const now = clock.now();
      const token = (id: string, expiresAt: number) => ({
        id,
        token_hash: id.padEnd(64, '0'),
        purpose: 'sign_in_link' as const,
        creator_id: creator.id,
        email: creator.email,
        anonymous_session_id: null,
        return_to: null,
        created_at: now,
        expires_at: expiresAt,
        used_at: null,
      });
      await app.deps.db
        .insertInto('account_tokens')
        .values([token('old', now + 1000), token('fresh', now + 40 * DAY)])
        .execute();
      clock.advance(SESSION_TTL_MS + 1);
      const fresh = await createSession(app.deps, creator.id, null);
      expect(await sweepExpiredAccountRows(app.deps)).toEqual({ sessions: 2, tokens: 1 });
      expect((await app.deps.db.selectFrom('auth_sessions').select('id').execute()).map((r) => r.id)).toEqual([fresh.id]);
      expect((await app.deps.db.selectFrom('account_tokens').select('id').execute()).map((r) => r.id)).toEqual(['fresh']);
    } finally {
      await app.close();
    }
  });
});
