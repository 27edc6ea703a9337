/** Probes for the real services integration tests need, and the rule for when they are missing. */
import { Redis } from 'ioredis';
import pg from 'pg';

const PROBE_TIMEOUT_MS = 1000;

/**
 * Tells a test suite whether it can use a service. Locally a missing service skips the suite
 * with a printed reason; on CI (CI=true) it is an error, so a broken pipeline cannot pass by skipping.
 */
export async function requireService(name: string, probe: () => Promise<boolean>): Promise<boolean> {
  if (await probe()) return true;
  const reason = `${name} is not reachable`;
  if (process.env.CI === 'true') throw new Error(`${reason}; CI=true requires it instead of skipping the tests that use it`);
  console.warn(`Skipping tests that need ${name}: ${reason}`);
  return false;
}

export async function isRedisUp(url: string): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: PROBE_TIMEOUT_MS,
    commandTimeout: PROBE_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // A probe reports through its return value; without a listener ioredis would log the error as unhandled.
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

export async function isPostgresUp(url: string): Promise<boolean> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: PROBE_TIMEOUT_MS,
    query_timeout: PROBE_TIMEOUT_MS,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
