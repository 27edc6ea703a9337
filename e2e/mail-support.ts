/** The mail the e2e server wrote: it has no SMTP_URL, so every message is an .eml file in DATA_DIR/outbox. */
import { expect } from '@playwright/test';
import { findOutboxLink, outboxDirOf } from '../control-api/src/test-support/outbox-links.ts';

/** The first link to `pathPrefix` in a message to `to`, waiting for the message to be written. */
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
