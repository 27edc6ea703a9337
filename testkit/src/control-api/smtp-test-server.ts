/** Test helpers: a real SMTP server on loopback that keeps what it receives, and header reading of raw messages. */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll } from 'vitest';
import { type Clock, loadConfig, type TConfig } from '@dropsite/control-api';
import { type TTestApp, testAppForSuite } from './test-app.ts';

export interface TReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface TSmtpTestServer {
  url: string;
  messages: TReceivedMail[];
  /** While on, every message is refused with a temporary 451 (a mailbox that is briefly unavailable). */
  setFailing(isFailing: boolean): void;
  close(): Promise<void>;
}

export async function startSmtpTestServer(): Promise<TSmtpTestServer> {
  const messages: TReceivedMail[] = [];
  let isFailing = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (isFailing) return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 451 }));
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    setFailing: (v) => {
      isFailing = v;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The test app of the enclosing describe block with an SMTP test server of its own for notification
 * mail (sent from notify@dropsite.test, batched per minute, `notifications` over that), the builder
 * not started, and the read and write limits out of the way. `smtp.messages` is what the server received.
 */
export function mailingTestAppForSuite(options: { clock: Clock; notifications?: Partial<TConfig['notifications']> }): {
  app: TTestApp;
  smtp: Pick<TSmtpTestServer, 'messages'>;
} {
  const defaults = loadConfig({});
  let started: TSmtpTestServer | undefined;
  const server = (): TSmtpTestServer => {
    if (!started) throw new Error('The SMTP test server is there once the tests run, not while they are declared.');
    return started;
  };
  beforeAll(async () => {
    started = await startSmtpTestServer();
  });
  afterAll(async () => {
    await started?.close();
  });
  // Closed before the SMTP server: afterAll hooks run last registered first.
  const app = testAppForSuite(() => ({
    clock: options.clock,
    startWorker: false,
    config: {
      notifications: { ...defaults.notifications, smtpUrl: server().url, smtpFrom: 'Dropsite <notify@dropsite.test>', batchSeconds: 60, ...options.notifications },
      rateLimits: { ...defaults.rateLimits, writesPerMinute: 10_000, siteWritesPerMinute: 10_000, readsPerMinute: 10_000 },
    },
  }));
  return {
    app,
    smtp: {
      get messages() {
        return server().messages;
      },
    },
  };
}

/** The header block of a raw message, lines unfolded. */
export function rawHeadersOf(raw: string): string {
  return raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
}

/** A header of a raw message, unfolded and with RFC 2047 encoded words decoded. */
export function headerOf(raw: string, name: string): string | undefined {
  const line = rawHeadersOf(raw)
    .split(/\r?\n/)
    .find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  if (line === undefined) return undefined;
  return line
    .slice(name.length + 1)
    .trim()
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _charset: string, encoding: string, text: string) => {
      if (encoding.toUpperCase() === 'B') return Buffer.from(text, 'base64').toString('utf8');
      const bytes: number[] = [];
      for (let i = 0; i < text.length; i++) {
        const c = text[i]!;
        if (c === '_') bytes.push(0x20);
        else if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
          bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
          i += 2;
        } else bytes.push(c.charCodeAt(0));
      }
      return Buffer.from(bytes).toString('utf8');
    });
}

/** The body of a raw message with quoted-printable soft breaks joined and `=3D` decoded (enough to find links). */
export function bodyOf(raw: string): string {
  const at = raw.search(/\r?\n\r?\n/);
  return raw
    .slice(at)
    .replace(/=\r?\n/g, '')
    .replace(/=3D/gi, '=');
}
