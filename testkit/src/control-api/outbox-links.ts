/**
 * Links in the mail outbox of an API process run without SMTP_URL (it writes every message as an
 * .eml file under DATA_DIR/outbox): for end-to-end suites and stacks that follow an emailed link
 * (sign-in, email confirmation) as a creator would.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** The outbox folder of an API process with this DATA_DIR. */
export function outboxDirOf(dataDir: string): string {
  return path.join(dataDir, 'outbox');
}

/** The first link to `pathPrefix` in the newest message to `to`, or null while none is written. */
export async function findOutboxLink(outboxDir: string, to: string, pathPrefix: string): Promise<string | null> {
  const names = (await readdir(outboxDir).catch(() => [] as string[])).filter((name) => name.endsWith('.eml'));
  for (const name of names.sort().reverse()) {
    const raw = await readFile(path.join(outboxDir, name), 'utf8');
    if (!new RegExp(`^To: .*${to.replace(/[.+]/g, '\\$&')}`, 'mi').test(raw)) continue;
    // Quoted-printable: soft line breaks joined, =XX decoded, so the URL reads as it was written.
    const text = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    const found = new RegExp(`https?://[^\\s"<>]*${pathPrefix.replace(/[?]/g, '\\?')}[^\\s"<>]+`).exec(text);
    if (found) return found[0].replace(/&amp;/g, '&');
  }
  return null;
}
