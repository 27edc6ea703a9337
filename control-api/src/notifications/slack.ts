/**
 * Slack incoming webhooks. The URL is the creator's, so it is only called when its origin is one
 * the operator allows (SLACK_WEBHOOK_ORIGINS, default https://hooks.slack.com): the server never
 * becomes a way to reach other hosts. Redirects are refused for the same reason.
 */
import type { TSlackPayload } from './notification-messages.ts';

const SLACK_TIMEOUT_MS = 10_000;

/** Whether a webhook URL may be called: a parseable http(s) URL on an allowed origin, without credentials. */
export function isAllowedSlackWebhook(url: string, allowedOrigins: readonly string[]): boolean {
  if (!url || url.length > 2048) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username || parsed.password) return false;
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  return allowedOrigins.includes(parsed.origin);
}

export async function postSlackMessage(url: string, payload: TSlackPayload, allowedOrigins: readonly string[]): Promise<void> {
  if (!isAllowedSlackWebhook(url, allowedOrigins)) throw new Error('Slack webhook is not on an allowed origin');
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(payload),
    redirect: 'error',
    signal: AbortSignal.timeout(SLACK_TIMEOUT_MS),
  });
  // Drain the body so the connection is released.
  await res.arrayBuffer().catch(() => undefined);
  if (!res.ok) throw new Error(`Slack answered ${res.status}`);
}
