/**
 * What a client is told when the database cannot be reached: 503 with Retry-After (try again in a
 * moment), never a 500, whether PostgreSQL refuses the connection, drops it under a query, or is
 * shutting down or starting up. A statement that is simply wrong stays a 500.
 */
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import express from 'express';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { AppError } from './app-error.ts';
import { DATABASE_RETRY_AFTER_SECONDS, createErrorMiddleware, toAppError } from './error-middleware.ts';

/** An app whose one route runs `work` and answers with what the error middleware makes of its failure. */
async function appFailingWith(work: () => Promise<unknown>): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  app.get('/api/thing', async (_req, res) => {
    await work();
    res.json({ success: true });
  });
  app.use(createErrorMiddleware(createLogger('silent')));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function databaseError(code: string, message: string): pg.DatabaseError {
  const error = new pg.DatabaseError(message, message.length, 'error');
  error.code = code;
  error.severity = 'FATAL';
  return error;
}

describe('database connection failures', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('a request whose database refuses connections is answered 503 with Retry-After and a message to try again', async () => {
    const pool = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${await closedPort()}/test` });
    cleanups.push(() => pool.end());
    const app = await appFailingWith(() => pool.query('select 1'));
    cleanups.push(app.close);

    const res = await fetch(`${app.url}/api/thing`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
    expect(await res.json()).toEqual({ success: false, code: 'service_unavailable', error: 'The service is briefly unavailable. Please try again in a few seconds.' });
  });

  it.each([
    ['the connection cut under a query', new Error('Connection terminated unexpectedly')],
    ['the server shutting down for a restart', databaseError('57P01', 'terminating connection due to administrator command')],
    ['the server starting up', databaseError('57P03', 'the database system is starting up')],
    ['a broken connection', databaseError('08006', 'connection failure')],
    ['no connection free in time', new Error('timeout exceeded when trying to connect')],
    ['a reset socket', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' })],
    ['a wrapped refusal', new Error('could not load the site', { cause: Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' }) })],
  ])('%s is a 503 with Retry-After', (_what, error) => {
    const mapped = toAppError(error);
    expect(mapped.status).toBe(503);
    expect(mapped.headers).toEqual({ 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) });
    expect(mapped.cause).toBe(error);
  });

  it.each([
    ['a statement with a syntax error', databaseError('42601', 'syntax error at or near "selec"')],
    ['a broken constraint', databaseError('23505', 'duplicate key value violates unique constraint')],
    ['any other failure', new Error('something else broke')],
  ])('%s stays a 500 without Retry-After', (_what, error) => {
    const mapped = toAppError(error);
    expect(mapped.status).toBe(500);
    expect(mapped.headers).toEqual({});
  });
});

describe('every 503 says when to come back', () => {
  it('a refusal naming no time of its own is answered with Retry-After: 5; one that names its own keeps it', async () => {
    const plain = await appFailingWith(async () => {
      throw new AppError('service_unavailable', 'Please try again in a moment.');
    });
    const publishing = await appFailingWith(async () => {
      throw new AppError('service_unavailable', 'Publishing is temporarily unavailable. Please try again in a minute.', { headers: { 'Retry-After': '60' } });
    });
    try {
      const a = await fetch(`${plain.url}/api/thing`);
      expect(a.status).toBe(503);
      expect(a.headers.get('retry-after')).toBe('5');
      const b = await fetch(`${publishing.url}/api/thing`);
      expect(b.status).toBe(503);
      expect(b.headers.get('retry-after')).toBe('60');
    } finally {
      await plain.close();
      await publishing.close();
    }
  });
});
