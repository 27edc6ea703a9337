/**
 * Readiness of a process whose parts are not all there: a database behind on its migrations (a
 * release rolled out before `npm run migrate -- up`), a store that hangs, a queue that refuses. Each
 * check says which it is, none takes longer than its time limit, and one that recovers is ok again.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDatabase, migrateToLatest, migrateUpTo, type TDatabaseHandle } from '../db/database.ts';
import { createLogger } from '../logger.ts';
import { createHealth } from './health.ts';

describe('readiness checks', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    vi.useRealTimers();
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const openDatabase = async (): Promise<TDatabaseHandle> => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-health-'));
    const handle = await createDatabase(`sqlite:${path.join(dir, 'health.db')}`);
    cleanups.push(async () => {
      await handle.close();
      await rm(dir, { recursive: true, force: true });
    });
    return handle;
  };
  const quiet = createLogger('silent');
  const okQueue = { counts: async () => ({ waiting: 0, active: 0, failed: 0, completed: 0 }) };
  const okStorage = { head: async () => null };

  it('names the migrations still pending, and is ready once they have run', async () => {
    const { db } = await openDatabase();
    await migrateUpTo(db, '2026_11_23_1000_upload_session_resume');
    const health = createHealth({ db, queue: okQueue, storage: okStorage, log: quiet }, { cacheMs: 0 });
    const behind = await health.readiness();
    expect(behind.ready).toBe(false);
    expect(behind.checks.migrations).toMatch(/^[1-9]\d* pending$/);
    expect(behind.checks.database).toBe('ok');
    await migrateToLatest(db);
    expect(await health.readiness()).toEqual({ ready: true, draining: false, checks: { database: 'ok', migrations: 'ok', queue: 'ok', storage: 'ok' } });
  });

  it('gives a store that hangs its time limit and no more, and a queue that refuses is unreachable', async () => {
    const { db } = await openDatabase();
    await migrateToLatest(db);
    const hanging = { head: () => new Promise<null>(() => {}) };
    const refusing = { counts: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')) };
    const health = createHealth({ db, queue: refusing, storage: hanging, log: quiet }, { cacheMs: 0, timeoutMs: 150 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let answered = false;
    const reading = health.readiness().finally(() => {
      answered = true;
    });
    await vi.advanceTimersByTimeAsync(149);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const result = await reading;
    vi.useRealTimers();
    expect(result).toEqual({ ready: false, draining: false, checks: { database: 'ok', migrations: 'ok', queue: 'unreachable', storage: 'timed out' } });
  });

  it('asks the database once a second at most, however often it is asked', async () => {
    const { db } = await openDatabase();
    await migrateToLatest(db);
    let asked = 0;
    const counting = {
      head: async () => {
        asked++;
        return null;
      },
    };
    const health = createHealth({ db, queue: okQueue, storage: counting, log: quiet });
    await Promise.all(Array.from({ length: 50 }, () => health.readiness()));
    await health.readiness();
    expect(asked).toBe(1);
  });
});
