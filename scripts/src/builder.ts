/**
 * npm run builder: a build worker as its own process, consuming the BullMQ queue.
 * Run as many as you like. With OPS_PORT set it answers /healthz, /readyz and /metrics there.
 * On SIGTERM it takes no new build and finishes its running ones within SHUTDOWN_GRACE_SECONDS;
 * a build still running then is handed back to the queue for another builder.
 */
import { createLogger, createOpsServer, createRuntime, keepDataPrivate, listenOps, loadConfig } from '@dropsite/control-api';

process.env.NODE_ENV ??= 'production';

const config = loadConfig();
const log = createLogger(config.logLevel);
// What the builder writes (stored objects on disk, temporary files) is readable by this user only.
const notPrivate = keepDataPrivate(config);
if (notPrivate.length > 0) log.warn({ paths: notPrivate }, 'could not make these private to this user: change their owner or mode');
if (!config.redisUrl) {
  log.error('REDIS_URL is not set: a separate builder needs the shared queue. On the embedded defaults the server builds in-process.');
  process.exit(2);
}
const runtime = await createRuntime(config, { runBuilder: true, log, processMetrics: true });
const opsServer = config.ops.port === undefined ? null : await listenOps(createOpsServer(runtime.deps), config.ops, log);
log.info({ concurrency: config.buildConcurrency, storage: config.storage.driver }, 'builder started');

let isStopping = false;
const stop = async (signal: string) => {
  if (isStopping) return;
  isStopping = true;
  log.info({ signal, graceMs: config.shutdownGraceMs }, 'builder stopping; finishing running builds');
  runtime.deps.health.startDraining();
  await runtime.close({ graceMs: config.shutdownGraceMs });
  opsServer?.close();
  log.info('builder stopped');
  process.exit(0);
};
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
