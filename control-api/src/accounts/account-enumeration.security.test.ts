/**
 * Which addresses have an account is never told (ASVS V2 anti-automation, OWASP authentication
 * cheat sheet): a sign-up, a password-reset request and a sign-in-link request answer a known and an
 * unknown address with the same status, headers and bytes, after the same work on the response path
 * (password hashes counted at the argon2 library, database statements through a counting plugin,
 * messages handed to the mailer), so neither the answer nor its time tells them apart.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import { startTestApp, UNREACHED_RATE_LIMITS, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { createBrowser } from '@dropsite/testkit/control-api/site-fixtures';
import { createCapturingMailer, type TCapturingMailer } from '@dropsite/testkit/control-api/account-mail';
import { createSignedInCreator } from '@dropsite/testkit/control-api/accounts';
import { statementCounter } from '@dropsite/testkit/control-api/test-database';

const argon2 = vi.hoisted(() => ({ hashes: 0 }));

vi.mock('@node-rs/argon2', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@node-rs/argon2')>();
  return {
    ...actual,
    hash: (...args: Parameters<typeof actual.hash>) => {
      argon2.hashes++;
      return actual.hash(...args);
    },
  };
});

const PASSWORD = 'correct horse battery';
/** Headers that differ between any two answers. */
const PER_REQUEST_HEADERS = new Set(['date', 'x-request-id', 'keep-alive', 'connection']);

interface TObserved {
  status: number;
  headers: Record<string, string>;
  bytes: string;
  hashes: number;
  statements: number;
  messages: number;
}

describe('answers alike for known and unknown addresses', () => {
  let app: TTestApp;
  let mail: TCapturingMailer;
  let plainDb: Kysely<Database>;

  beforeAll(async () => {
    app = await startTestApp({ startWorker: false, config: { rateLimits: UNREACHED_RATE_LIMITS } });
    plainDb = app.deps.db;
    await createSignedInCreator(app.deps, { email: 'known@studio.example', password: PASSWORD });
  });
  beforeEach(() => {
    mail = createCapturingMailer();
    app.deps.mailer = mail;
  });
  afterAll(async () => {
    app.deps.db = plainDb;
    await app.close();
  });

  /** Posts `json` to `path` and records the answer and the work done before it came. */
  async function observe(path: string, json: unknown): Promise<TObserved> {
    const counter = statementCounter();
    app.deps.db = plainDb.withPlugin(counter.plugin);
    const [hashesBefore, messagesBefore] = [argon2.hashes, mail.sent.length];
    try {
      const res = await createBrowser(app).fetch(path, { method: 'POST', json });
      const bytes = await res.text();
      const headers = Object.fromEntries([...res.headers].filter(([name]) => !PER_REQUEST_HEADERS.has(name)));
      return { status: res.status, headers, bytes, hashes: argon2.hashes - hashesBefore, statements: counter.count(), messages: mail.sent.length - messagesBefore };
    } finally {
      app.deps.db = plainDb;
    }
  }

  it('sign-up: the same 202, headers and bytes, no session either way, after one password hash and one message each', async () => {
    const known = await observe('/api/auth/sign-up', { email: 'known@studio.example', password: 'a new long password', name: 'Someone' });
    const unknown = await observe('/api/auth/sign-up', { email: 'unknown@studio.example', password: 'a new long password', name: 'Someone' });
    expect(known.status).toBe(202);
    expect(known.bytes).toBe('{"success":true}');
    expect(unknown).toEqual(known);
    expect(known.headers['set-cookie']).toBeUndefined();
    expect(known.hashes).toBe(1);
    expect(known.messages).toBe(1);
  });

  it('password-reset request: the same 202, headers and bytes, after the same statements and one message each', async () => {
    const known = await observe('/api/auth/password-reset/request', { email: 'known@studio.example' });
    const unknown = await observe('/api/auth/password-reset/request', { email: 'nobody-here@studio.example' });
    expect(known.status).toBe(202);
    expect(unknown).toEqual(known);
    expect(known.messages).toBe(1);
    expect(known.hashes).toBe(0);
  });

  it('sign-in-link request: the same 202, headers and bytes, after the same statements and one message each', async () => {
    const known = await observe('/api/auth/email-link', { email: 'known@studio.example' });
    const unknown = await observe('/api/auth/email-link', { email: 'nobody-either@studio.example' });
    expect(known.status).toBe(202);
    expect(unknown).toEqual(known);
    expect(known.messages).toBe(1);
  });
});
