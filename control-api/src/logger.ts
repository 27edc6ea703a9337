/** Structured logs (pino). Secrets never reach a log line: known fields are redacted. */
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'dropsite' },
    redact: { paths: ['password', '*.password', 'req.headers.cookie', 'req.headers.authorization', 'headers.cookie'], censor: '[redacted]' },
  });
}
