/**
 * Signing a creator up the way its owner does, for stacks, fault rows and benchmarks: a sign-up
 * answers alike whether or not the address has an account, and the account is made by the link the
 * API mails. Without SMTP_URL the API writes every message to `DATA_DIR/outbox/` as an .eml file
 * (whole, then renamed), where this reads the link.
 */
import { findOutboxLink } from '@dropsite/testkit/control-api/outbox-links';

/** The token of the newest sign-in link mailed to `email` in `outboxDir`, waiting up to `timeoutMs` for the message. */
export async function signInLinkToken(outboxDir: string, email: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const link = await findOutboxLink(outboxDir, email, '/sign-in?link=');
    const token = link === null ? null : new URL(link).searchParams.get('link');
    if (token) return token;
    if (Date.now() > deadline) throw new Error(`No sign-in link was mailed to ${email} in ${outboxDir}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Signs up at `base` and uses the mailed link: answers the session cookie (`name=value`). `headers`
 * go with both calls (e.g. the client address a load test plays).
 */
export async function signUpThroughOutbox(
  base: string,
  outboxDir: string,
  account: { email: string; password: string; name: string },
  headers: Record<string, string> = {},
): Promise<string> {
  const post = (pathname: string, body: unknown) =>
    fetch(`${base}${pathname}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: new URL(base).origin, ...headers }, body: JSON.stringify(body) });
  const asked = await post('/api/auth/sign-up', account);
  if (asked.status !== 202) throw new Error(`sign-up answered ${asked.status}: ${await asked.text()}`);
  const consumed = await post('/api/auth/email-link/consume', { token: await signInLinkToken(outboxDir, account.email) });
  if (consumed.status !== 200) throw new Error(`the sign-up link answered ${consumed.status}: ${await consumed.text()}`);
  const cookie = consumed.headers.getSetCookie().find((c) => /^(__Host-)?dropsite_session=/.test(c));
  if (!cookie) throw new Error('the sign-up link set no session cookie');
  return cookie.split(';')[0]!;
}
