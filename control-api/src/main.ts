/** Starts Dropsite: one process serving the dashboard, the API and the sites, building in-process by default. */
import { loadConfig } from './config/config.ts';
import { createLogger } from './logger.ts';
import { createApp } from './app.ts';
import { createRuntime } from './runtime.ts';
import { assertSessionSecretConfigured } from './access/server-secret.ts';
import { createHttpServer } from './http/slow-clients.ts';
import { startDemoSitesSeed } from './demo-sites.ts';

process.env.NODE_ENV ??= 'production';

const config = loadConfig();
// The cookie key must not live in the database in production.
assertSessionSecretConfigured(config);
const log = createLogger(config.logLevel);
const runtime = await createRuntime(config, { runBuilder: config.runBuilder, log, checkpointInBackground: true });
const app = createApp(runtime.deps);
// Notification batches, the expired-site sweeper, and the removal of abandoned resumable uploads
// (their temp bytes or S3 multipart parts); close() stops them.
runtime.startBackgroundJobs();

// Headers deadline, idle keep-alive, connection count; bodies are bounded per route in the app.
const server = createHttpServer(app, config.http);
server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  log.info({ port, storage: config.storage.driver, queue: runtime.deps.queue.driver, builder: config.runBuilder }, 'listening');
  process.stdout.write(`\nDropsite is running at ${config.publicUrl.replace(`:${config.port}`, `:${port}`)}\n\n`);
});
// The demo sites (one per template), built in the background when missing or out of date.
const demoSites = config.demoSites ? startDemoSitesSeed(log) : null;

let isStopping = false;
async function shutdown(signal: string): Promise<void> {
  if (isStopping) return;
  isStopping = true;
  log.info({ signal }, 'shutting down');
  demoSites?.stop();
  // Stop accepting connections, let in-flight requests and builds finish.
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), 10_000);
  timer.unref();
  await closed;
  await runtime.close();
  log.info('stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
