/**
 * Wires the process from the config: database, storage, queue, and (unless this
 * process only serves the API) the builder consuming the queue.
 */
import { createSiteBuilder } from '@dropsite/builder';
import type { TConfig } from './config/config.ts';
import { createDatabase, migrateToLatest, type TDatabaseHandle } from './db/database.ts';
import { systemClock, type Clock, type TAppDeps } from './deps.ts';
import { createLogger, type Logger } from './logger.ts';
import type { BuildQueue } from './queue/build-queue.ts';
import { createInlineQueue } from './queue/inline-queue.ts';
import { createStorage } from './storage/create-storage.ts';
import { createBuildProcessor } from './builds/builds.service.ts';
import { findUnfinishedBuilds } from './builds/builds.repository.ts';
import { runPendingSiteRebuilds } from './builds/pending-site-rebuilds.ts';

export interface TRuntime {
  deps: TAppDeps;
  database: TDatabaseHandle;
  /** Stops taking jobs, lets running builds finish, closes connections. */
  close(): Promise<void>;
}

export interface TRuntimeOptions {
  /** Consume build jobs in this process. */
  runBuilder: boolean;
  log?: Logger;
  clock?: Clock;
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

export async function createRuntime(config: TConfig, options: TRuntimeOptions): Promise<TRuntime> {
  const log = options.log ?? createLogger(config.logLevel);
  const database = await createDatabase(config.databaseUrl);
  await migrateToLatest(database.db);
  const storage = await createStorage(config.storage);
  const queue = await createQueue(config, log);
  const deps: TAppDeps = { config, db: database.db, storage, queue, log, clock: options.clock ?? systemClock };

  let closeBuilder = async () => {};
  if (options.runBuilder) {
    const builder = createSiteBuilder({
      storage,
      siteOrigin: config.publicUrl,
      log,
      concurrency: config.deriveConcurrency,
      // The archive tree marks what the download route will refuse, with the same limits.
      archiveEntryLimits: { entryMaxBytes: config.archives.entryMaxBytes, entryMaxRatio: config.archives.entryMaxRatio },
    });
    await builder.publishAssets();
    await queue.startWorker(createBuildProcessor(deps, builder), { concurrency: config.buildConcurrency });
    closeBuilder = () => builder.close();
    // Builds cut short by a restart are picked up again; enqueueing is idempotent per version.
    if (queue.driver === 'inline') {
      for (const build of await findUnfinishedBuilds(database.db)) {
        await queue.enqueue({ projectId: build.project_id, buildId: build.id, version: build.version }, { attempts: config.buildAttempts });
      }
    }
  }
  // Rebuilds a migration asked for (e.g. pages rendered with an older render model), queued once, by a
  // process whose queue keeps them (an in-process queue without a builder, as in `npm run expire`, leaves
  // them to the next start that builds). A failure leaves the request too; it never stops the process.
  if (options.runBuilder || queue.driver !== 'inline') {
    await runPendingSiteRebuilds(deps).catch((err: unknown) => log.error({ err }, 'queueing pending site rebuilds failed'));
  }

  return {
    deps,
    database,
    async close() {
      await queue.close();
      await closeBuilder();
      await storage.close();
      await database.close();
    },
  };
}
