import { defineConfig } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';
import { API_ENV, API_NODE_FLAGS } from '@dropsite/control-api/api-launch';
import { stripeStandinEnv } from '@dropsite/testkit/control-api/stripe-standin';

const port = Number(process.env.E2E_PORT ?? 3210);
/** The local Stripe stand-in (testkit/src/control-api/stripe-standin.ts) the API's billing talks to; no network. */
const stripePort = Number(process.env.E2E_STRIPE_PORT ?? port + 10_000);
// Workers load this file too, in processes of their own: the folder is handed to them by the environment,
// so a test can read the server's mail outbox (DATA_DIR/outbox) through E2E_DATA_DIR.
const dataDir = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), `dropsite-e2e-${process.pid}`);
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.e2e.ts',
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: path.join(os.tmpdir(), `dropsite-e2e-results-${port}`),
  use: {
    baseURL: `http://localhost:${port}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
    trace: 'retain-on-failure',
  },
  webServer: [
    {
      command: ['node', 'testkit/src/control-api/stripe-standin-main.ts', '--port', String(stripePort), '--webhook-url', `http://localhost:${port}/api/billing/webhook`].join(' '),
      cwd: path.resolve(import.meta.dirname, '..'),
      url: `http://127.0.0.1:${stripePort}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: ['node', ...API_NODE_FLAGS, 'control-api/src/main.ts'].join(' '),
      cwd: path.resolve(import.meta.dirname, '..'),
      url: `http://localhost:${port}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        ...API_ENV,
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
        PUBLIC_URL: `http://localhost:${port}`,
        SESSION_SECRET: 'e2e-only-session-secret-0123456789abcdef',
        // The suite publishes about forty sites and renders many previews from one address within minutes;
        // the shipped limits (10 publishes an hour) are tested in control-api's publish-limits.security.test.ts.
        PUBLISH_LIMIT_PER_HOUR: '1000',
        PREVIEW_LIMIT_PER_HOUR: '1000',
        OPEN_UPLOAD_SESSIONS_PER_ADDRESS: '100',
        PUBLISH_BYTES_PER_DAY: String(1024 ** 4),
        // Several creators start the Pro trial from this one address (e2e/billing.e2e.ts); the shipped one per
        // address is tested in control-api's billing.security.test.ts.
        TRIALS_PER_ADDRESS: '1000',
        // Every request of the suite comes from one address, and the link check asks for a page's links at once.
        HTTP_MAX_CONNECTIONS_PER_ADDRESS: '1000',
        // Engagement email goes out 2 s after the first event (the shipped 60 s window is tested in
        // control-api's notifications.test.ts), so e2e/notifications-counts.e2e.ts reads it from the outbox promptly.
        NOTIFY_BATCH_SECONDS: '2',
        // Billing on, against the stand-in: checkout, the portal and signed webhooks (e2e/billing.e2e.ts).
        ...stripeStandinEnv(`http://127.0.0.1:${stripePort}`),
      },
    },
  ],
});
