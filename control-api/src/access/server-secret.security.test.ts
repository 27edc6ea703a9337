/**
 * In production the cookie key must come from SESSION_SECRET, never from the database: whoever
 * holds a copy of the database (a backup, a replica) could otherwise sign unlock and visitor
 * cookies. The API refuses to start without it; the key in the database remains for development.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.ts';
import { createDatabase, migrateToLatest, type TDatabaseHandle } from '../db/database.ts';
import { loadCookieKeys } from './server-secret.ts';

const MAIN = path.resolve(import.meta.dirname, '../main.ts');

/** Runs the API process until it prints its URL (then stops it) or exits on its own. */
function runApi(env: Record<string, string | undefined>): Promise<{ started: boolean; code: number | null; output: string }> {
  const base: Record<string, string | undefined> = { ...process.env };
  delete base.SESSION_SECRET;
  const child = spawn(process.execPath, [MAIN], {
    env: { ...base, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', RUN_BUILDER: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let started = false;
  const onData = (data: Buffer) => {
    output += data.toString();
    if (!started && output.includes('Dropsite is running at')) {
      started = true;
      child.kill('SIGTERM');
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return new Promise((resolve) => child.once('exit', (code) => resolve({ started, code, output })));
}

describe('the cookie key in production', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-secret-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('the API refuses to start with NODE_ENV=production and no SESSION_SECRET, naming the variable', async () => {
    const run = await runApi({ NODE_ENV: 'production', DATA_DIR: path.join(dataDir, 'a') });
    expect(run.started).toBe(false);
    expect(run.code).not.toBe(0);
    expect(run.output).toMatch(/SESSION_SECRET.*required.*production/i);
  }, 30_000);

  it('starts with a SESSION_SECRET, and outside production without one', async () => {
    const withSecret = await runApi({ NODE_ENV: 'production', DATA_DIR: path.join(dataDir, 'b'), SESSION_SECRET: 'a-session-secret-of-at-least-32-characters' });
    expect(withSecret.started, withSecret.output).toBe(true);
    const development = await runApi({ NODE_ENV: 'development', DATA_DIR: path.join(dataDir, 'c') });
    expect(development.started, development.output).toBe(true);
  }, 60_000);

  describe('loading the keys', () => {
    let handle: TDatabaseHandle;
    beforeAll(async () => {
      handle = await createDatabase(':memory:');
      await migrateToLatest(handle.db);
    });
    afterAll(() => handle.close());

    it('never creates or reads a key in the database in production', async () => {
      const config = loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32) });
      const deps = { db: handle.db, clock: { now: () => 0 }, config: { ...config, sessionSecret: undefined } };
      await expect(loadCookieKeys(deps)).rejects.toThrow(/SESSION_SECRET/);
      expect(await handle.db.selectFrom('server_secrets').selectAll().execute()).toEqual([]);
    });
  });
});
