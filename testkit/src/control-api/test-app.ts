/** A whole app on a random port with real engines in a temp folder: SQLite, disk storage, in-process queue, the real builder. */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startS3rver } from './s3rver.ts';
import { createApp, loadConfig, type TConfig, type Clock, type TAppDeps, createLogger, type Logger, createRuntime } from '@dropsite/control-api';
import { type TLimiterStore, createInlineQueue, createStorage, type TStorageConfig } from '@dropsite/control-api/internals';

export interface TTestApp {
  url: string;
  deps: TAppDeps;
  dataDir: string;
  /** The app's HTTP server, for a test that watches a request on the server's side (a client gone mid-response). */
  server: Server;
  /** Starts consuming builds (when created with startWorker: false). */
  startWorker(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The test app of the enclosing describe block: started before its tests (with `options`, or what
 * `options()` answers then, when they depend on other set-up) and closed after them.
 */
export function testAppForSuite(options: TTestAppOptions | (() => TTestAppOptions) = {}): TTestApp {
  let started: TTestApp | undefined;
  const app = (): TTestApp => {
    if (!started) throw new Error('The test app is there once the tests run, not while they are declared.');
    return started;
  };
  beforeAll(async () => {
    started = await startTestApp(typeof options === 'function' ? options() : options);
  });
  afterAll(async () => {
    await started?.close();
  });
  return {
    get url() {
      return app().url;
    },
    get deps() {
      return app().deps;
    },
    get dataDir() {
      return app().dataDir;
    },
    get server() {
      return app().server;
    },
    startWorker: () => app().startWorker(),
    close: () => app().close(),
  };
}

/** A clock the test moves by hand. */
export function createFakeClock(start = Date.UTC(2026, 10, 22, 12, 0, 0)): Clock & { set(ms: number): void; advance(ms: number): void } {
  let now = start;
  return {
    now: () => now,
    set: (ms) => {
      now = ms;
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

/**
 * Rate limits no test's own traffic reaches (every limit the app keys by visitor, site or IP), for
 * suites that send many requests from one address and assert something other than the limits.
 */
export const UNREACHED_RATE_LIMITS: TConfig['rateLimits'] = {
  ...loadConfig({}).rateLimits,
  readsPerMinute: 100_000,
  writesPerMinute: 100_000,
  siteWritesPerMinute: 100_000,
  unlockPerMinute: 100_000,
  unlockSitePerMinute: 100_000,
};

export interface TTestAppOptions {
  clock?: Clock;
  /** The app's logger (silent by default). */
  log?: Logger;
  startWorker?: boolean;
  /** Settings over the test defaults; `publicUrl` defaults to the app's own address. */
  config?: Partial<TConfig>;
  /**
   * Reuse this folder (database and disk storage) instead of a fresh one, e.g. to start the API again
   * on the data a closed one left; close() then leaves the folder for its owner to remove.
   */
  dataDir?: string;
  /** Storage to use instead of disk under the data folder (e.g. s3rver); created by the app, closed on close(). */
  storage?: TStorageConfig;
  /** 's3': an s3rver of the app's own (objects under its data folder, stopped on close()) instead of disk storage. */
  storageDriver?: 'disk' | 's3';
  /** Where the limits count instead of this app's memory (e.g. Redis under a test's own prefix); closed on close(). */
  limiterStore?: TLimiterStore;
}

/** The test defaults: everything under `dataDir`, quiet, and publish limits out of the way. */
export function testConfig(dataDir: string, overrides: Partial<TConfig> = {}): TConfig {
  const base = loadConfig(
    {
      DATA_DIR: dataDir,
      DATABASE_URL: `sqlite:${path.join(dataDir, 'test.db')}`,
      STORAGE_DIR: path.join(dataDir, 'storage'),
      PORT: '0',
      LOG_LEVEL: 'silent',
      BUILD_ATTEMPTS: '2',
      BUILD_CONCURRENCY: '2',
      // One render thread per test app: the threaded path is what runs, without a thread per core in every suite.
      BUILD_RENDER_THREADS: '1',
      // Tests publish many sites from one address; the publish limits themselves are tested with their
      // shipped defaults in publish-limits.security.test.ts (the test machine's free space is not under test).
      PUBLISH_LIMIT_PER_HOUR: '100000',
      PUBLISH_BYTES_PER_DAY: String(2 ** 50),
      OPEN_UPLOAD_SESSIONS_PER_ADDRESS: '100000',
      PREVIEW_LIMIT_PER_HOUR: '100000',
      STORAGE_MIN_FREE_BYTES: '0',
      STORAGE_MIN_FREE_PERCENT: '0',
    },
    dataDir,
  );
  return { ...base, ...overrides };
}

export async function startTestApp(options: TTestAppOptions = {}): Promise<TTestApp> {
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'dropsite-app-')));
  // Listening first: the app's address is part of its config (links, the Origin check, cookie names).
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const config = testConfig(dataDir, { publicUrl: url, ...options.config });
  let s3: Awaited<ReturnType<typeof startS3rver>> | undefined;
  if (options.storageDriver === 's3' && !options.storage) {
    const objects = path.join(dataDir, 's3rver');
    await mkdir(objects, { recursive: true });
    s3 = await startS3rver(objects);
  }
  const storageConfig: TStorageConfig | undefined = s3
    ? { driver: 's3', endpoint: s3.endpoint, region: 'us-east-1', bucket: 'dropsite-test', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true }
    : options.storage;
  const runtime = await createRuntime(config, {
    runBuilder: options.startWorker !== false,
    log: options.log ?? createLogger('silent'),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(storageConfig ? { storage: await createStorage(storageConfig) } : {}),
    ...(options.limiterStore ? { limiterStore: options.limiterStore } : {}),
    // Retries a few milliseconds apart, so a test of a failing build does not wait seconds.
    queue: createInlineQueue({ defaultAttempts: 2, defaultBackoffMs: 10 }),
    siteOrigin: 'http://localhost',
  });
  server.on('request', createApp(runtime.deps));
  return {
    url,
    deps: runtime.deps,
    dataDir,
    server,
    startWorker: () => runtime.startBuilder(),
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Cut requests still streaming (a test may stop the app mid-upload, like a crash would).
      server.closeAllConnections();
      await closed;
      await runtime.close();
      await s3?.server.close();
      // A request cut above may still be finishing its temporary file as the folder goes: rm tries again.
      if (ownsDataDir) await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
    },
  };
}
