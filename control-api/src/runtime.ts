/**
 * Wires the process from the config: database, storage, queue, (unless this process only serves
 * the API) the builder consuming the queue, and every piece of state the request paths share (the
 * limits, the cookie and unsubscribe keys, the caches, the analytics batch, the mailer). Each is
 * made here once and handed to the app in `TAppDeps`; nothing is kept in module-level maps, so two
 * runtimes in one process (tests, benches) share nothing, and `close()` flushes and stops it all.
 */
import { createSiteBuilder } from '@dropsite/builder';
import type { TConfig } from './config/config.ts';
import { createDatabase, migrateToLatest, type TDatabaseHandle } from './db/database.ts';
import { createQueryCache } from './db/compiled-query.ts';
import { systemClock, type Clock } from './clock.ts';
import type { TAppDeps } from './deps.ts';
import { createLogger, type Logger } from './logger.ts';
import type { BuildQueue } from './queue/build-queue.ts';
import { createInlineQueue } from './queue/inline-queue.ts';
import type { Storage } from './storage/storage.ts';
import { createStorage } from './storage/create-storage.ts';
import { countStorageChanges } from './storage/change-counter.ts';
import { createBuildProcessor } from './builds/builds.service.ts';
import { findUnfinishedBuilds } from './builds/builds.repository.ts';
import { runPendingSiteRebuilds } from './builds/pending-site-rebuilds.ts';
import { createRequestLimits } from './access/request-limits.ts';
import { createMemoryLimiterStore, type TLimiterStore } from './access/limiter-store.ts';
import { loadServerKeys } from './access/server-secret.ts';
import { createArchiveLimiter } from './downloads/archive-budget.ts';
import { createPublishGate } from './publishing/publish-limits.ts';
import { createMailer } from './notifications/mailer.ts';
import { createStripeClient } from './billing/stripe-client.ts';
import { createDestinationLimiter } from './notifications/notifications.service.ts';
import { createAccountLimits } from './accounts/account-limits.ts';
import { createFormLimiter } from './inbox/form-limits.ts';
import { createAnalyticsBatcher, listViewsSince } from './analytics/analytics.repository.ts';
import { createFavoriteWriter } from './engagement/engagement.repository.ts';
import { createViewLedger, VIEW_LEDGER_LOAD_LIMIT, type TViewLedger } from './analytics/view-ledger.ts';
import { withdrawEveryPublicPage } from './edge/public-page.ts';
import { startBackgroundJobs, type TBackgroundJobs } from './background-jobs.ts';
import { createMetrics } from './observability/metrics.ts';
import { createObjectMemo } from './files/object-memo.ts';
import { createHealth } from './observability/health.ts';
import { countOpenUploadSessions } from './publishing/upload-sessions.repository.ts';

export interface TRuntime {
  deps: TAppDeps;
  database: TDatabaseHandle;
  /** Starts consuming build jobs, when the runtime was made without (`runBuilder: false`); once. */
  startBuilder(): Promise<void>;
  /**
   * The API process's periodic work: notification batches, the expired-site sweeper and the
   * sweeper of abandoned uploads; stopped by close().
   */
  startBackgroundJobs(): void;
  /**
   * Stops the jobs, stops taking builds and lets running ones finish (within `graceMs` when given:
   * later ones are handed back to the queue), flushes the analytics batch, closes
   * connections and the mailer.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

export interface TRuntimeOptions {
  /** Consume build jobs in this process. */
  runBuilder: boolean;
  log?: Logger;
  clock?: Clock;
  /** A database to use instead of the config's (opened by the caller, migrated here, closed by close()). */
  database?: TDatabaseHandle;
  /** Storage to use instead of the config's (closed by close()). */
  storage?: Storage;
  /** A queue to use instead of the config's (e.g. with a shorter retry back-off; closed by close()). */
  queue?: BuildQueue;
  /** Origin the builder writes into sites' absolute links; the config's public URL by default. */
  siteOrigin?: string;
  /** Where the limits count, instead of the config's (e.g. Redis under a test's own key prefix; closed by close()). */
  limiterStore?: TLimiterStore;
  /**
   * On SQLite, checkpoint the database's log from a thread of its own, so a checkpoint never stalls a
   * request (`db/sqlite-checkpointer.ts`): for processes that serve requests for long, not commands.
   */
  checkpointInBackground?: boolean;
  /**
   * Collect the process's own metrics (CPU, memory, GC, event-loop delay) beside the runtime's: for
   * the one runtime of a server or builder process, not the many of a test process.
   */
  processMetrics?: boolean;
}

export async function createQueue(config: TConfig, log: Logger): Promise<BuildQueue> {
  const backoff = { defaultAttempts: config.buildAttempts, defaultBackoffMs: 1000, log };
  if (config.redisUrl) {
    // BullMQ and its Redis client are loaded only when a Redis URL asks for them.
    const { createBullmqQueue } = await import('./queue/bullmq-queue.ts');
    return createBullmqQueue({ redisUrl: config.redisUrl, queueName: config.buildQueueName, ...backoff });
  }
  return createInlineQueue(backoff);
}

/** The limits' store: Redis shared by every API process when `REDIS_URL` is set, else this process's memory. */
export async function createLimiterStore(config: TConfig, clock: Clock, log: Logger): Promise<TLimiterStore> {
  if (!config.redisUrl) return createMemoryLimiterStore(clock);
  // Its Redis client is loaded only when a Redis URL asks for it, like BullMQ's.
  const { createRedisLimiterStore } = await import('./access/redis-limiter-store.ts');
  return createRedisLimiterStore({ redisUrl: config.redisUrl, clock, log });
}

export async function createRuntime(config: TConfig, options: TRuntimeOptions): Promise<TRuntime> {
  const log = options.log ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const database =
    options.database ??
    (await createDatabase(config.databaseUrl, {
      onChangeFeedError: (err) => log.warn({ err }, 'PostgreSQL change notifications stopped: cached reads go to the database until they resume'),
      onConnectionError: (err) => log.warn({ err }, 'a PostgreSQL connection was lost; the next query opens a new one'),
      checkpointInBackground: options.checkpointInBackground,
      onCheckpointError: (message) => log.warn({ message }, 'a background checkpoint of the database failed; the next one tries again'),
    }));
  await migrateToLatest(database.db);
  const db = database.db;
  // Writes counted per folder, for the in-process caches of stored objects (a site's page views).
  // 32 MB of objects up to 256 KB: a few thousand thumbnails, a few hundred display copies.
  const storedObjects = createObjectMemo({ maxBytes: 32 * 1024 * 1024, maxObjectBytes: 256 * 1024 });
  // Every write and delete through this process's storage drops what the memo kept of that key.
  const storage = countStorageChanges(options.storage ?? (await createStorage(config.storage)), (key, isPrefix) => storedObjects.forget(key, isPrefix));
  const queue = options.queue ?? (await createQueue(config, log));
  // After the migrations: the key kept in the database (outside production) lives in a table of theirs.
  const keys = await loadServerKeys({ db, config, clock });
  const limiterStore = options.limiterStore ?? (await createLimiterStore(config, clock, log));
  const queries = createQueryCache();
  const metrics = createMetrics({ processMetrics: options.processMetrics ?? false });
  metrics.setSources({ queueCounts: () => queue.counts(), openUploadSessions: () => countOpenUploadSessions(db) });
  const deps: TAppDeps = {
    config,
    db,
    storage,
    queue,
    log,
    clock,
    limits: {
      store: limiterStore,
      requests: createRequestLimits(config.rateLimits, limiterStore),
      archives: createArchiveLimiter(config.archives, clock),
      publish: createPublishGate({ config, clock, db, storage }),
      notificationDestinations: createDestinationLimiter(config.notifications, limiterStore),
      accounts: createAccountLimits(config.accountLimits, limiterStore),
      forms: createFormLimiter(config.formSubmissionsPerAddressPerHour, limiterStore),
    },
    keys,
    mailer: createMailer(config, log),
    caches: {
      reads: database.readCache,
      queries,
      visitorCookies: new Map(),
      knownVisitors: new Set(),
      views: await loadViewLedger(database, config, clock),
      commentJson: new WeakMap(),
      storedObjects,
    },
    analytics: createAnalyticsBatcher(db, { queries }),
    favorites: createFavoriteWriter(db, { reads: database.readCache, queries }),
    stripe: createStripeClient(config.billing),
    metrics,
    health: createHealth({ db, queue, storage, log }),
  };

  let closeBuilder = async () => {};
  let builderStarted = false;
  async function startBuilder(): Promise<void> {
    if (builderStarted) return;
    builderStarted = true;
    const builder = createSiteBuilder({
      storage,
      siteOrigin: options.siteOrigin ?? config.publicUrl,
      log,
      concurrency: config.deriveConcurrency,
      renderThreads: config.buildRenderThreads,
      // The archive tree marks what the download route will refuse, with the same limits.
      archiveEntryLimits: { entryMaxBytes: config.archives.entryMaxBytes, entryMaxRatio: config.archives.entryMaxRatio },
    });
    closeBuilder = () => builder.close();
    await builder.publishAssets();
    if (!config.edgePublicPages) await withdrawEveryPublicPage(storage);
    await queue.startWorker(createBuildProcessor(deps, builder), { concurrency: config.buildConcurrency });
    // Builds cut short by a restart are picked up again; enqueueing is idempotent per version.
    if (queue.driver === 'inline') {
      for (const build of await findUnfinishedBuilds(db)) {
        await queue.enqueue({ projectId: build.project_id, buildId: build.id, version: build.version }, { attempts: config.buildAttempts });
      }
    }
  }
  if (options.runBuilder) await startBuilder();
  // Rebuilds a migration asked for (e.g. pages rendered with an older render model), queued once, by a
  // process whose queue keeps them (an in-process queue without a builder, as in `npm run expire`, leaves
  // them to the next start that builds). A failure leaves the request too; it never stops the process.
  if (options.runBuilder || queue.driver !== 'inline') {
    await runPendingSiteRebuilds(deps).catch((err: unknown) => log.error({ err }, 'queueing pending site rebuilds failed'));
  }

  let jobs: TBackgroundJobs | undefined;
  let closing: Promise<void> | undefined;
  return {
    deps,
    database,
    startBuilder,
    startBackgroundJobs() {
      jobs ??= startBackgroundJobs(deps);
    },
    close(closeOptions = {}) {
      closing ??= (async () => {
        const deadline = closeOptions.graceMs === undefined ? undefined : Date.now() + closeOptions.graceMs;
        await jobs?.stop();
        await queue.close(deadline === undefined ? {} : { graceMs: closeOptions.graceMs });
        // The builder's own wait for its builds, within what is left of the grace period.
        await (deadline === undefined ? closeBuilder() : Promise.race([closeBuilder(), new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())).unref())]));
        // Views and downloads counted a moment ago are written before the database goes.
        await deps.analytics.flush();
        await deps.mailer.close();
        await limiterStore.close();
        await storage.close();
        await database.close();
      })();
      return closing;
    },
  };
}

/**
 * The view ledger, loaded with the views counted within the dedupe window. On SQLite this process
 * is the only one counting views, so once loaded the ledger answers for every view without a query.
 */
async function loadViewLedger(database: TDatabaseHandle, config: TConfig, clock: Clock): Promise<TViewLedger> {
  const windowMs = config.viewDedupeMinutes * 60_000;
  const ledger = createViewLedger({ soleCounter: database.dialect === 'sqlite', windowMs });
  if (windowMs > 0) {
    const from = clock.now() - windowMs;
    const views = await listViewsSince(database.db, from, VIEW_LEDGER_LOAD_LIMIT + 1);
    ledger.load(views.slice(0, VIEW_LEDGER_LOAD_LIMIT), from, views.length <= VIEW_LEDGER_LOAD_LIMIT);
  }
  return ledger;
}
