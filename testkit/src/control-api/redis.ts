/** Redis for tests: the machine's server under a key prefix of the test's own, and a proxy a test can cut to play Redis going down. */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { startTcpProxy } from './tcp-proxy.ts';
import { isRedisUp, requireService } from './services.ts';

export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

let redisAvailable: Promise<boolean> | undefined;

/** Whether Redis tests can run; use with describe.skipIf (skips locally, throws on CI; see requireService). */
export async function isRedisAvailable(): Promise<boolean> {
  redisAvailable ??= requireService(`Redis at ${TEST_REDIS_URL}`, () => isRedisUp(TEST_REDIS_URL));
  return redisAvailable;
}

/** A key prefix no other test uses. */
export function randomRedisPrefix(): string {
  return `dropsite-test-${randomUUID()}`;
}

/** Every key under the prefix, for assertions. */
export async function redisKeysUnder(prefix: string): Promise<string[]> {
  const redis = new Redis(TEST_REDIS_URL);
  try {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      keys.push(...batch);
    } while (cursor !== '0');
    return keys.sort();
  } finally {
    redis.disconnect();
  }
}

/** Deletes every key under the prefix. */
export async function deleteRedisKeys(prefix: string): Promise<void> {
  const keys = await redisKeysUnder(prefix);
  if (keys.length === 0) return;
  const redis = new Redis(TEST_REDIS_URL);
  try {
    await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

export interface TRedisProxy {
  /** A Redis URL that reaches the test Redis through the proxy. */
  url: string;
  /** Cuts every connection and refuses new ones: Redis is down for whoever uses `url`. */
  cut(): Promise<void>;
}

/** A TCP proxy to the test Redis on a loopback port. */
export async function startRedisProxy(): Promise<TRedisProxy> {
  const target = new URL(TEST_REDIS_URL);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
  return { url: `redis://127.0.0.1:${proxy.port}${target.pathname}`, cut: proxy.down };
}
