/** What the tests through `npm run stack` share. */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isPostgresUp, isRedisUp, requireService } from '@dropsite/testkit/control-api/services';
import { dropStackData, startStack, type TStack } from './stack.ts';

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Whether nginx, PostgreSQL and Redis are there for a stack: locally a missing one skips the
 * suite with a reason; under CI=true it is an error (requireService), so CI never passes by skipping.
 */
export async function isStackAvailable(): Promise<boolean> {
  return (
    (await requireService('nginx', async () => existsSync(process.env.NGINX_BIN ?? '/usr/sbin/nginx'))) &&
    (await requireService('PostgreSQL', () => isPostgresUp(PG_URL))) &&
    (await requireService('Redis', () => isRedisUp(REDIS_URL)))
  );
}

/** A fresh stack of its own (schema, queue, state folder) for one test file; `discard()` removes it all. */
export async function startTestStack(name: string, env: Record<string, string> = {}): Promise<TStack> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `dropsite-${name}-`));
  const options = { postgresUrl: PG_URL, redisUrl: REDIS_URL, name: `${name.replace(/-/g, '_')}_${process.pid}_${Date.now()}` };
  try {
    return await startStack({ ...options, port: 0, dir, fresh: true, demo: false, env, log: () => {} });
  } catch (error) {
    // A stack that did not come up leaves nothing behind either (it stopped what it started).
    await dropStackData(options).catch(() => {});
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Polls `probe` until it answers something (not undefined), or fails after `ms`. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, ms = 30_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
