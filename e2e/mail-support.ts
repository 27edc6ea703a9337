/** The mail the e2e server wrote: it has no SMTP_URL, so every message is an .eml file in DATA_DIR/outbox. */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from '@playwright/test';

/** The mail outbox of the server the config started (it writes every message there without SMTP_URL). */
const outboxDir = () => path.join(process.env.E2E_DATA_DIR ?? '', 'outbox');

/** The first link to `pathPrefix` in a message to `to`, waiting for the message to be written. */
export async function linkFromOutbox(to: string, pathPrefix: string): Promise<string> {
  let link: string | null = null;
  await expect
    .poll(
      async () => {
        const names = (await readdir(outboxDir()).catch(() => [] as string[])).filter((name) => name.endsWith('.eml'));
        for (const name of names.sort().reverse()) {
          const raw = await readFile(path.join(outboxDir(), name), 'utf8');
          if (!new RegExp(`^To: .*${to.replace(/[.+]/g, '\\$&')}`, 'mi').test(raw)) continue;
          // Quoted-printable: soft line breaks joined, =XX decoded, so the URL reads as it was written.
          const text = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
          const found = new RegExp(`https?://[^\\s"<>]*${pathPrefix.replace(/[?]/g, '\\?')}[^\\s"<>]+`).exec(text);
          if (found) link = found[0].replace(/&amp;/g, '&');
          if (link) return true;
        }
        return false;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return link!;
}
