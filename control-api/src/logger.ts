/**
 * Structured logs (pino). Secrets never reach a log line: known fields are redacted. A line written
 * while a request (or a build a request queued) is being handled carries that request's id.
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import { currentRequestId } from './observability/request-context.ts';

export type { Logger };

/** `destination`: where lines go instead of stdout (tests read them). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: 'dropsite' },
    redact: { paths: ['password', '*.password', 'req.headers.cookie', 'req.headers.authorization', 'headers.cookie'], censor: '[redacted]' },
    mixin(mergeObject) {
      const requestId = currentRequestId();
      return requestId === undefined || 'requestId' in mergeObject ? {} : { requestId };
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
