/**
 * npm run builder: a build worker as its own process, consuming the BullMQ queue.
 * Run as many as you like; each stops gracefully on SIGTERM (finishing its builds).
 */
import { createRuntime, loadConfig, createLogger } from '@dropsite/control-api';

process.env.NODE_ENV ??= 'production';

const config = loadConfig();
const log = createLogger(config.logLevel);
if (!config.redisUrl) {
  log.error('REDIS_URL is not set: a separate builder needs the shared queue. On the embedded defaults the server builds in-process.');
  process.exit(2);
}
const runtime = await createRuntime(config, { runBuilder: true, log });
log.info({ concurrency: config.buildConcurrency, storage: config.storage.driver }, 'builder started');

let isStopping = false;
const stop = async (signal: string) => {
  if (isStopping) return;
  isStopping = true;
  log.info({ signal }, 'builder stopping; finishing running builds');
  await runtime.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
