/** A whole app on a random port with real engines in a temp folder: SQLite, disk storage, in-process queue, the real builder. */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import { createSiteBuilder } from '@dropsite/builder';
import { createApp } from '../app.ts';
import { loadConfig, type TConfig } from '../config/config.ts';
import { createDatabase, migrateToLatest } from '../db/database.ts';
import type { Clock, TAppDeps } from '../deps.ts';
import { createLogger } from '../logger.ts';
import { createInlineQueue } from '../queue/inline-queue.ts';
import { createBuildProcessor } from '../builds/builds.service.ts';
import { createDiskStorage } from '../storage/disk-storage.ts';
import { createStorage, type TStorageConfig } from '../storage/create-storage.ts';

export interface TTestApp {
  url: string;
  deps: TAppDeps;
  dataDir: string;
  /** Starts consuming builds (when created with startWorker: false). */
  startWorker(): Promise<void>;
  close(): Promise<void>;
}

/** A clock the test moves by hand. */
export function createFakeClock(start = Date.UTC(2026, 10, 22, 12, 0, 0)): Clock & { set(ms: number): void; advance(ms: number): void } {
  let now = start;
  return { now: () => now, set: (ms) => void (now = ms), advance: (ms) => void (now += ms) };
}

export interface TTestAppOptions {
  clock?: Clock;
  startWorker?: boolean;
  config?: Partial<TConfig>;
  /**
   * Reuse this folder (database and disk storage) instead of a fresh one, e.g. to start the API again
   * on the data a closed one left; close() then leaves the folder for its owner to remove.
   */
  dataDir?: string;
  /** Storage to use instead of disk under the data folder (e.g. s3rver); created by the app, closed on close(). */
  storage?: TStorageConfig;
}

export async function startTestApp(options: TTestAppOptions = {}): Promise<TTestApp> {
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'dropsite-app-')));
  const base = loadConfig(
    {
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'silent',
      BUILD_ATTEMPTS: '2',
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
  const log = createLogger('silent');
  const database = await createDatabase(`sqlite:${path.join(dataDir, 'test.db')}`);
  await migrateToLatest(database.db);
  const storage = options.storage ? await createStorage(options.storage) : createDiskStorage(path.join(dataDir, 'storage'));
  const queue = createInlineQueue({ defaultAttempts: 2, defaultBackoffMs: 10 });
  let server: Server | undefined;
  const config: TConfig = { ...base, ...options.config };
  const deps: TAppDeps = { config, db: database.db, storage, queue, log, clock: options.clock ?? { now: () => Date.now() } };
  const builder = createSiteBuilder({
    storage,
    siteOrigin: 'http://localhost',
    log,
    archiveEntryLimits: { entryMaxBytes: config.archives.entryMaxBytes, entryMaxRatio: config.archives.entryMaxRatio },
  });
  const startWorker = () => queue.startWorker(createBuildProcessor(deps, builder), { concurrency: 2 });
  if (options.startWorker !== false) await startWorker();

  const app = createApp(deps);
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  deps.config.publicUrl = url;
  return {
    url,
    deps,
    dataDir,
    startWorker,
    async close() {
      const closed = new Promise<void>((resolve) => server?.close(() => resolve()));
      // Cut requests still streaming (a test may stop the app mid-upload, like a crash would).
      server?.closeAllConnections();
      await closed;
      await queue.close();
      await builder.close();
      await storage.close();
      await database.close();
      if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
