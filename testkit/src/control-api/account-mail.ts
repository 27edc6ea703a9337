import type { Mailer, TMailMessage } from '@dropsite/control-api/internals';
/** A mailer that keeps what it is given, and the link of the last message to an address, for account tests. */

export interface TCapturingMailer extends Mailer {
  sent: TMailMessage[];
  /** The token of the newest link to `to` under `path` (e.g. '/sign-in?link='); throws when there is none. */
  lastToken(to: string, path: string): string;
}

export function createCapturingMailer(): TCapturingMailer {
  const sent: TMailMessage[] = [];
  return {
    driver: 'outbox',
    sent,
    async send(message) {
      sent.push(message);
    },
    async close() {},
    lastToken(to, path) {
      const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      for (const message of [...sent].reverse()) {
        if (message.to !== to) continue;
        const match = new RegExp(`${escaped}([a-z2-7]+)`).exec(message.text);
        if (match) return match[1]!;
      }
      throw new Error(`No ${path} link was mailed to ${to}`);
    },
  };
}

/** The token of the newest notification-address confirmation link mailed to `to`, or undefined (it is sent in the background). */
export function confirmationTokenIn(mail: TCapturingMailer, to: string): string | undefined {
  for (const message of [...mail.sent].reverse()) {
    const match = message.to === to ? /\/api\/email\/confirm\?token=([\w-]+)/.exec(message.text) : null;
    if (match) return match[1];
  }
  return undefined;
}
