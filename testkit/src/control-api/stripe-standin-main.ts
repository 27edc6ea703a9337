/**
 * Runs the Stripe stand-in (stripe-standin.ts) as its own process, for the e2e server or by hand:
 *   node testkit/src/control-api/stripe-standin-main.ts --port 12111 --webhook-url http://localhost:3210/api/billing/webhook
 * Give the API stripeStandinEnv(`http://127.0.0.1:${port}`). It answers GET /health once listening.
 */
import { parseArgs } from 'node:util';
import { startStripeStandin } from './stripe-standin.ts';

const { values } = parseArgs({ options: { port: { type: 'string', default: '12111' }, 'webhook-url': { type: 'string' } } });
const webhookUrl = values['webhook-url'];
if (!webhookUrl) throw new Error('--webhook-url is required');
const standin = await startStripeStandin({ port: Number(values.port), webhookUrl });
process.stdout.write(`Stripe stand-in at ${standin.url}, webhooks to ${webhookUrl}\n`);
const stop = () => {
  void standin.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
