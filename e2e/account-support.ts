/** Creator accounts in e2e tests: the server's mail outbox (it writes every message there without SMTP_URL), and signing up through the mailed link. */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, type APIRequestContext, type Locator } from '@playwright/test';
import { findOutboxLink, outboxDirOf } from '@dropsite/testkit/control-api/outbox-links';

/** The first link to `pathPrefix` in the newest message to `to` that has one, waiting for the message to be written. */
export async function linkFromOutbox(to: string, pathPrefix: string): Promise<string> {
  let link: string | null = null;
  await expect
    .poll(
      async () => {
        link = await findOutboxLink(outboxDirOf(process.env.E2E_DATA_DIR ?? ''), to, pathPrefix);
        return link !== null;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return link!;
}

/**
 * Signs up as the dashboard's form does, then uses the mailed link with `context`, whose session
 * cookie then signs it in. The link brings along the sites of the anonymous creator that signed up.
 */
export async function signUpThroughLink(context: APIRequestContext, baseURL: string, account: { email: string; password: string; name: string }): Promise<void> {
  const asked = await context.post('/api/auth/sign-up', { data: account, headers: { Origin: baseURL } });
  expect(asked.status(), await asked.text()).toBe(202);
  const token = new URL(await linkFromOutbox(account.email, '/sign-in?link=')).searchParams.get('link');
  const consumed = await context.post('/api/auth/email-link/consume', { data: { token }, headers: { Origin: baseURL } });
  expect(consumed.status(), await consumed.text()).toBe(200);
}

/** The subjects of the outbox's messages to `to`, decoded. */
async function outboxSubjectsTo(to: string): Promise<string[]> {
  const dir = outboxDirOf(process.env.E2E_DATA_DIR ?? '');
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.eml'));
  const subjects: string[] = [];
  for (const name of names) {
    const raw = await readFile(path.join(dir, name), 'utf8');
    if (!new RegExp(`^To: .*${to.replace(/[.+]/g, '\\$&')}`, 'mi').test(raw)) continue;
    // A long subject is folded over lines, each part an RFC 2047 Q-encoded word ('_' a space, =XX a byte).
    const folded = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1];
    const decoded = folded
      ?.replace(/\?=\s+=\?/g, '?==?')
      .trim()
      .replace(/=\?UTF-8\?Q\?(.*?)\?=/gi, (_, text: string) =>
        Buffer.from(
          text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (__, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
      );
    if (decoded) subjects.push(decoded);
  }
  return subjects;
}

/** How many interactions on the site titled `title` the notification emails to `to` have told of so far ('2 new interactions on "…"'). */
export async function interactionsMailedTo(to: string, title: string): Promise<number> {
  const pattern = new RegExp(`^(\\d+) new interactions? on "${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"$`);
  return (await outboxSubjectsTo(to)).reduce((sum, subject) => sum + Number(pattern.exec(subject)?.[1] ?? 0), 0);
}

/** Checks the figures a dashboard card shows under each label, e.g. `{ Approved: '1', Pending: '2' }`. */
export async function expectCardCounts(card: Locator, counts: Record<string, string>): Promise<void> {
  for (const [label, value] of Object.entries(counts)) {
    const figure = card
      .locator('.dash-counts__item')
      .filter({ has: card.page().getByText(label, { exact: true }) })
      .locator('.dash-counts__value');
    await expect(figure, label).toHaveText(value);
  }
}
