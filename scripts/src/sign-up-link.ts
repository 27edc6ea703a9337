/**
 * Signing a creator up the way its owner does, for stacks, fault rows and benchmarks: a sign-up
 * answers alike whether or not the address has an account, and the account is made by the link the
 * API mails. Without SMTP_URL the API writes every message to `DATA_DIR/outbox/` as an .eml file
 * (whole, then renamed), where this reads the link.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** The token of the newest sign-in link mailed to `email` in `outboxDir`, waiting up to `timeoutMs` for the message. */
export async function signInLinkToken(outboxDir: string, email: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const addressed = new RegExp(`^To: .*${email.replace(/[.+]/g, '\\$&')}`, 'mi');
  for (;;) {
    const names = (await readdir(outboxDir).catch(() => [] as string[])).filter((name) => name.endsWith('.eml'));
    for (const name of names.sort().reverse()) {
      const raw = await readFile(path.join(outboxDir, name), 'utf8');
      if (!addressed.test(raw)) continue;
      // Quoted-printable: soft line breaks joined, =XX decoded, so the link reads as it was written.
      const text = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
      const found = /\/sign-in\?link=([a-z2-7]+)/.exec(text);
      if (found) return found[1]!;
    }
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
