/**
 * Sending email: SMTP through nodemailer when SMTP_URL is set; otherwise each message is written
 * to DATA_DIR/outbox/ as an .eml file (and logged), so the embedded default needs no mail server
 * and nothing is silently dropped. Chosen once per runtime (`deps.mailer`).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { TConfig } from '../config/config.ts';
import type { Logger } from '../logger.ts';

export interface TMailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers, e.g. List-Unsubscribe (values are set as given: never put typed text here). */
  headers?: Record<string, string>;
}

export interface Mailer {
  readonly driver: 'smtp' | 'outbox';
  send(message: TMailMessage): Promise<void>;
  close(): Promise<void>;
}

const SEND_TIMEOUT_MS = 20_000;

type TTransportOptions = Parameters<typeof import('nodemailer').createTransport>[0];

/** The mail library is loaded with the first message: most processes never send one. */
function lazyTransport(options: TTransportOptions): () => Promise<Transporter> {
  let transport: Promise<Transporter> | null = null;
  return () =>
    (transport ??= import('nodemailer')
      .then(({ createTransport }) => createTransport(options))
      .catch((error: unknown) => {
        transport = null;
        throw error;
      }));
}

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  // Query options of the URL (e.g. ?ignoreTLS=true) override these; a stuck server cannot hold a batch for long.
  const transport = lazyTransport({
    url: smtpUrl,
    connectionTimeout: SEND_TIMEOUT_MS,
    greetingTimeout: SEND_TIMEOUT_MS,
    socketTimeout: SEND_TIMEOUT_MS,
  });
  let used = false;
  return {
    driver: 'smtp',
    async send(message) {
      used = true;
      await (await transport()).sendMail({ from, ...message });
    },
    async close() {
      if (used) (await transport()).close();
    },
  };
}

export function createOutboxMailer(outboxDir: string, from: string, log: Logger): Mailer {
  const composer = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  // Messages sent in the background (account links, confirmations) are still being written when the
  // process closes: close() waits for them, so none is cut off half written or lost.
  const writing = new Set<Promise<void>>();
  const write = async (message: TMailMessage): Promise<void> => {
    const info = await (await composer()).sendMail({ from, ...message });
    const raw = info.message;
    if (!Buffer.isBuffer(raw)) throw new Error('The mail composer did not produce a message');
    await mkdir(outboxDir, { recursive: true });
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(6).toString('hex')}.eml`;
    const file = path.join(outboxDir, name);
    // Written whole, then renamed: a reader of the outbox never sees half a message.
    await writeFile(`${file}.tmp`, raw, { mode: 0o600 });
    await rename(`${file}.tmp`, file);
    log.info({ file, subject: message.subject }, 'email written to the outbox (SMTP_URL is not set)');
  };
  return {
    driver: 'outbox',
    send(message) {
      const done = write(message);
      const tracked = done.catch(() => {}).finally(() => writing.delete(tracked));
      writing.add(tracked);
      return done;
    },
    async close() {
      await Promise.all(writing);
    },
  };
}

/** The runtime's mailer, chosen from its config once (createRuntime); `close()` of the runtime closes it. */
export function createMailer(config: TConfig, log: Logger): Mailer {
  const { smtpUrl, smtpFrom } = config.notifications;
  return smtpUrl ? createSmtpMailer(smtpUrl, smtpFrom) : createOutboxMailer(path.join(config.dataDir, 'outbox'), smtpFrom, log);
}
