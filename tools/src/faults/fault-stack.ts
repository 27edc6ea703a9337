/**
 * The stack the faults are injected into: `npm run stack`'s processes (nginx, two APIs, two
 * builders) with a schema, a queue and a state folder of their own, reaching PostgreSQL and Redis
 * through TCP proxies this run controls, and keeping objects in a store that can fill up (store.ts).
 * Everything it made is removed by `discard()`; the machine's PostgreSQL and Redis are never stopped.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { dropStackData, startStack, type TStack } from '../stack.ts';
import { startFaultStore, type TFaultStore } from './store.ts';
import { startTcpProxy, type TTcpProxy } from '@dropsite/testkit/control-api/tcp-proxy';

/** Limits of one client address raised: every publish and write of the rows comes from 127.0.0.1. */
const FAULT_STACK_ENV: Record<string, string> = {
  PUBLISH_LIMIT_PER_HOUR: '100000',
  PUBLISH_BYTES_PER_DAY: String(1024 ** 4),
  OPEN_UPLOAD_SESSIONS_PER_ADDRESS: '1000',
  RATE_LIMIT_READS_PER_MINUTE: '1000000',
  RATE_LIMIT_WRITES_PER_MINUTE: '1000000',
  RATE_LIMIT_SITE_WRITES_PER_MINUTE: '1000000',
  FORM_SUBMISSIONS_PER_ADDRESS_PER_HOUR: '100000',
  // Every row's creator starts the Pro trial from this one address.
  TRIALS_PER_ADDRESS: '1000',
  // The store's own space is what the storage-full row exhausts, not a budget of the API's.
  STORAGE_MIN_FREE_BYTES: '0',
  STORAGE_MIN_FREE_PERCENT: '0',
};

export interface TFaultStack {
  stack: TStack;
  store: TFaultStore;
  /** The proxy every stack process reaches PostgreSQL through. */
  postgres: TTcpProxy;
  /** The proxy every stack process reaches Redis through. */
  redis: TTcpProxy;
  /** The bucket the stack keeps its objects in. */
  bucket: string;
  /** A query on the stack's schema, straight to PostgreSQL (not through the proxy). */
  query<T extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<T[]>;
  /** Stops the stack and removes its schema, queue, objects and state folder. */
  discard(): Promise<void>;
}

export interface TFaultStackOptions {
  postgresUrl: string;
  redisUrl: string;
  /** Schema and queue name (made unique here). */
  name: string;
  log?: (line: string) => void;
}

/** The URL with its host and port replaced by the proxy's. */
function throughProxy(url: string, port: number): string {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(port);
  return parsed.toString().replace(/\/$/, '');
}

export async function startFaultStack(options: TFaultStackOptions): Promise<TFaultStack> {
  const name = `${options.name.replace(/-/g, '_')}_${process.pid}_${Date.now()}`;
  const schema = name.replace(/[^a-z0-9_]/g, '_');
  const pgTarget = new URL(options.postgresUrl);
  const redisTarget = new URL(options.redisUrl);
  const postgres = await startTcpProxy({ host: pgTarget.hostname, port: Number(pgTarget.port || 5432) });
  const redis = await startTcpProxy({ host: redisTarget.hostname, port: Number(redisTarget.port || 6379) });
  const store = await startFaultStore();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-faults-'));
  const stackOptions = {
    postgresUrl: throughProxy(options.postgresUrl, postgres.port),
    redisUrl: throughProxy(options.redisUrl, redis.port),
    name,
  };
  const client = new pg.Client({ connectionString: options.postgresUrl, options: `-c search_path=${schema}` });
  client.on('error', () => {});
  const closeAll = async () => {
    await client.end().catch(() => {});
    await store.close();
    await postgres.close();
    await redis.close();
    await rm(dir, { recursive: true, force: true });
  };
  let stack: TStack;
  try {
    stack = await startStack({
      ...stackOptions,
      port: 0,
      dir,
      fresh: false,
      demo: false,
      storeEndpoint: store.endpoint,
      env: FAULT_STACK_ENV,
      log: options.log ?? (() => {}),
    });
    await client.connect();
  } catch (error) {
    await dropStackData(stackOptions).catch(() => {});
    await closeAll();
    throw error;
  }
  return {
    stack,
    store,
    postgres,
    redis,
    bucket: stack.env.S3_BUCKET ?? 'dropsite',
    async query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
      return (await client.query<T>(text, values)).rows;
    },
    async discard() {
      // The stack's own clean-up goes through the proxies: they must let it.
      await postgres.up();
      await redis.up();
      await stack.discard();
      await closeAll();
    },
  };
}
