/** The one application error: a stable code, a message for the user, the HTTP status the catalogue (shared errors.ts) gives the code. */
import { errorStatus, type TErrorCode } from '@dropsite/shared';

/** When a client is asked to retry a 503 that names no time of its own. */
const DEFAULT_RETRY_AFTER_SECONDS = 5;

export class AppError extends Error {
  readonly code: TErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;
  /** Extra fields of the error body a client can act on (e.g. which chunks are missing). */
  readonly details: Record<string, unknown>;

  constructor(code: TErrorCode, message: string, options: { cause?: unknown; headers?: Record<string, string>; details?: Record<string, unknown> } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = errorStatus(code);
    // A 503 always says when to come back (RFC 9110 15.6.4): in a few seconds, unless it says otherwise.
    this.headers =
      this.status === 503 && options.headers?.['Retry-After'] === undefined ? { 'Retry-After': String(DEFAULT_RETRY_AFTER_SECONDS), ...options.headers } : (options.headers ?? {});
    this.details = options.details ?? {};
  }
}
