/**
 * Site passwords: at least 8 characters when set (every publish call), hashed with argon2id
 * (OWASP: 19 MiB, 2 passes, 1 lane); a flood of guesses runs a bounded number of hashes at once
 * and is refused beyond a short queue, of which one client address gets a share; scrypt hashes of earlier sites still verify and become
 * argon2id on their next successful unlock, without revoking anything.
 */
import { randomBytes, scryptSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZSitePasswordSchema, SITE_PASSWORD_MESSAGES } from '@dropsite/shared';
import { loadConfig } from '../config/config.ts';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { buildUploadForm, postUpload } from '@dropsite/testkit/control-api/fixtures';
import { initChunked, initDirect } from '@dropsite/testkit/control-api/upload-session-client';
import { createBrowser, seedSite } from '@dropsite/testkit/control-api/site-fixtures';
import { AppError } from '../http/app-error.ts';
import { PASSWORD_HASH_LIMITS, PasswordChecksBusyError, hashPassword, passwordHashLoad, verifyPassword } from './password-hash.ts';
import { changeSitePassword } from './site-password.service.ts';

const DEFAULTS = loadConfig({});

/** A hash as sites published before argon2id stored it. */
function legacyScrypt(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 16384, r: 8, p: 1 });
  return `scrypt$16384$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

describe('site password hashing', () => {
  it('hashes with argon2id at the OWASP parameters, salted, and verifies only the right password', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horsf', a)).toBe(false);
    expect(await verifyPassword('correct horse', 'garbage')).toBe(false);
  });

  it('still verifies scrypt hashes of earlier sites', async () => {
    const old = legacyScrypt('short');
    expect(await verifyPassword('short', old)).toBe(true);
    expect(await verifyPassword('shorts', old)).toBe(false);
  });

  it('runs a bounded number of hashes at once and refuses a flood beyond its queue with 503', async () => {
    const stored = await hashPassword('correct horse');
    const flood = Array.from({ length: PASSWORD_HASH_LIMITS.concurrency + PASSWORD_HASH_LIMITS.maxWaiting + 20 }, () => verifyPassword('guess', stored));
    expect(passwordHashLoad().running).toBeLessThanOrEqual(PASSWORD_HASH_LIMITS.concurrency);
    expect(passwordHashLoad().waiting).toBeLessThanOrEqual(PASSWORD_HASH_LIMITS.maxWaiting);
    const results = await Promise.allSettled(flood);
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused.length).toBe(20);
    for (const r of refused) {
      const reason = (r as PromiseRejectedResult).reason as AppError;
      expect(reason).toBeInstanceOf(AppError);
      expect(reason.status).toBe(503);
      expect(reason.headers['Retry-After']).toBeDefined();
    }
    expect(results.filter((r) => r.status === 'fulfilled').every((r) => (r as PromiseFulfilledResult<boolean>).value === false)).toBe(true);
    expect(passwordHashLoad()).toEqual({ running: 0, waiting: 0 });
  }, 60_000);

  it('gives each client address a share of the queue: beyond it that address is refused with 429, another still gets its turn', async () => {
    const stored = await hashPassword('correct horse');
    const mine = Array.from({ length: PASSWORD_HASH_LIMITS.perClient + 3 }, () => verifyPassword('guess', stored, { client: '203.0.113.1' }));
    const theirs = verifyPassword('correct horse', stored, { client: '198.51.100.1' });
    const results = await Promise.allSettled(mine);
    const refused = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason as AppError);
    expect(refused).toHaveLength(3);
    for (const reason of refused) {
      expect(reason).toBeInstanceOf(PasswordChecksBusyError);
      expect(reason.status).toBe(429);
      expect(reason.headers['Retry-After']).toBe('1');
    }
    expect(await theirs).toBe(true);
    // The share is free again once its checks are done.
    expect(await verifyPassword('correct horse', stored, { client: '203.0.113.1' })).toBe(true);
  });

  it('the shared schema asks for at least 8 characters', () => {
    expect(ZSitePasswordSchema.safeParse('1234567').success).toBe(false);
    expect(ZSitePasswordSchema.safeParse('12345678').success).toBe(true);
    expect(ZSitePasswordSchema.safeParse('1234567').error?.issues[0]?.message).toBe(SITE_PASSWORD_MESSAGES.tooShort);
  });
});

describe('site passwords through the API', () => {
  let app: TTestApp;
  beforeAll(async () => {
    app = await startTestApp({ startWorker: false, config: { rateLimits: { ...DEFAULTS.rateLimits, unlockPerMinute: 1000, unlockSitePerMinute: 1000 } } });
  });
  afterAll(() => app.close());

  it('every publish call refuses a password shorter than 8 characters, naming the rule', async () => {
    const file = { name: 'a.txt', type: 'text/plain', bytes: Buffer.from('hello') };
    const regular = await postUpload(app.url, buildUploadForm([file], { password: 'x' }));
    expect(regular.status).toBe(400);
    expect(regular.body).toMatchObject({ success: false, code: 'validation_failed' });
    expect(String(regular.body.error)).toContain(SITE_PASSWORD_MESSAGES.tooShort);
    const chunked = await initChunked(app.url, [file], { password: '1234567' });
    expect(chunked.status).toBe(400);
    expect(chunked.body.error).toContain(SITE_PASSWORD_MESSAGES.tooShort);
    const direct = await initDirect(app.url, [file], { password: 'abc' });
    expect(direct.status).toBe(400);
    expect(direct.body.error).toContain(SITE_PASSWORD_MESSAGES.tooShort);
    await expect(changeSitePassword(app.deps, 'nope', 'short')).rejects.toThrow(SITE_PASSWORD_MESSAGES.tooShort);
    // Eight characters are enough; stored as argon2id.
    const ok = await postUpload(app.url, buildUploadForm([file], { password: '12345678' }));
    expect(ok.status).toBe(201);
    const row = await app.deps.db.selectFrom('projects').select('password_hash').where('slug', '=', String(ok.body.slug)).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('an earlier site with a scrypt hash (even a short password) still unlocks, and its hash becomes argon2id without revoking anything', async () => {
    const site = await seedSite(app);
    await app.deps.db
      .updateTable('projects')
      .set({ password_hash: legacyScrypt('pw'), password_version: 3 })
      .where('id', '=', site.project.id)
      .execute();
    const visitor = createBrowser(app);
    expect((await visitor.json(`/api/sites/${site.slug}/unlock`, { method: 'POST', json: { password: 'nope' } })).status).toBe(401);
    expect((await visitor.json(`/api/sites/${site.slug}/unlock`, { method: 'POST', json: { password: 'pw' } })).status).toBe(200);
    expect((await visitor.fetch(`/${site.slug}`)).status).toBe(200);
    const row = await app.deps.db.selectFrom('projects').select(['password_hash', 'password_version']).where('id', '=', site.project.id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.password_version).toBe(3);
    // The same password still opens it for another visitor.
    const other = createBrowser(app);
    expect((await other.json(`/api/sites/${site.slug}/unlock`, { method: 'POST', json: { password: 'pw' } })).status).toBe(200);
    expect((await other.fetch(`/${site.slug}`)).status).toBe(200);
  });
});
