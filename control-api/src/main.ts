/** Starts Dropsite: one process serving the dashboard, the API and the sites, building in-process by default. */
import { loadConfig } from './config/config.ts';
import { createLogger } from './logger.ts';
import { createApp } from './app.ts';
import { createRuntime } from './runtime.ts';
import { assertSessionSecretConfigured } from './access/server-secret.ts';
import { createHttpServer } from './http/slow-clients.ts';
import { startDemoSitesSeed } from './demo-sites.ts';
import { createOpsServer } from './observability/ops-endpoints.ts';
import { drainHttpServer, listenOps } from './observability/shutdown.ts';
import { keepDataPrivate } from './config/private-data.ts';

process.env.NODE_ENV ??= 'production';

const config = loadConfig();
// The cookie key must not live in the database in production.
assertSessionSecretConfigured(config);
const log = createLogger(config.logLevel);
// Everything this process writes under DATA_DIR (and anywhere else) is readable by this user only.
const notPrivate = keepDataPrivate(config);
if (notPrivate.length > 0) log.warn({ paths: notPrivate }, 'could not make these private to this user: change their owner or mode');
const runtime = await createRuntime(config, { runBuilder: config.runBuilder, log, checkpointInBackground: true, processMetrics: true });
const app = createApp(runtime.deps);
// Notification batches, the expired-site sweeper, and the removal of abandoned resumable uploads
// (their temp bytes or S3 multipart parts); close() stops them.
runtime.startBackgroundJobs();

// Headers deadline, idle keep-alive, connection count (in all, and per address without a trusted
// proxy); bodies are bounded per route in the app.
const server = createHttpServer(app, config.http, config.trustProxy);
server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  log.info({ port, storage: config.storage.driver, queue: runtime.deps.queue.driver, builder: config.runBuilder }, 'listening');
  process.stdout.write(`\nDropsite is running at ${config.publicUrl.replace(`:${config.port}`, `:${port}`)}\n\n`);
});
// /healthz, /readyz and /metrics on a private port, when OPS_PORT is set.
const opsServer = config.ops.port === undefined ? null : await listenOps(createOpsServer(runtime.deps), config.ops, log);
// The demo sites (one per template), built in the background when missing or out of date.
const demoSites = config.demoSites ? startDemoSitesSeed(log) : null;

let isStopping = false;
async function shutdown(signal: string): Promise<void> {
  if (isStopping) return;
  isStopping = true;
  const started = Date.now();
  log.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down: draining requests');
  // /readyz answers 503 from now on, so a load balancer stops sending requests here.
  runtime.deps.health.startDraining();
  demoSites?.stop();
  // No new connections; in-flight requests (uploads too) finish within the grace period, then are cut
  // off (a resumable upload goes on through another process, or this one after its restart).
  const { cutOff } = await drainHttpServer(server, config.shutdownGraceMs);
  // Running builds finish within what is left of it; later ones are handed back to the queue. The
  // batched view and download events are written before the database closes.
  await runtime.close({ graceMs: Math.max(1_000, config.shutdownGraceMs - (Date.now() - started)) });
  opsServer?.close();
  log.info({ ms: Date.now() - started, cutOff }, 'stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
