/** The one application error: a stable code, a message for the user, an HTTP status. */

export const ERROR_STATUS = {
  bad_request: 400,
  validation_failed: 400,
  unauthorized: 401,
  password_required: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  /** An ordinary request's body did not arrive within HTTP_REQUEST_TIMEOUT_SECONDS. */
  request_timeout: 408,
  payload_too_large: 413,
  /** A request body in a Content-Encoding (or charset) the server does not read. */
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  rate_limited: 429,
  internal: 500,
  service_unavailable: 503,
  insufficient_storage: 507,
  /** A chunk's bytes do not match the X-Chunk-Sha256 sent with it (upload sessions). */
  checksum_mismatch: 400,
  /** complete called while chunks are missing; the body lists them (upload sessions). */
  upload_incomplete: 409,
  /** An assembled file's SHA-256 differs from the one the client declared (upload sessions). */
  file_checksum_mismatch: 409,
  // Billing and plan limits (shared/src/billing.ts BILLING_ERRORS has their messages).
  billing_not_configured: 503,
  checkout_failed: 502,
  portal_failed: 502,
  no_billing_account: 409,
  already_subscribed: 409,
  trial_used: 409,
  trial_needs_confirmed_email: 403,
  trial_address_limit: 429,
  billing_unreachable: 503,
  storage_limit_reached: 413,
  delivery_too_large: 413,
  site_limit_reached: 403,
  pro_feature: 403,
  over_plan_limits: 403,
} as const;

export type TErrorCode = keyof typeof ERROR_STATUS;

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
    this.status = ERROR_STATUS[code];
    // A 503 always says when to come back (RFC 9110 15.6.4): in a few seconds, unless it says otherwise.
    this.headers =
      this.status === 503 && options.headers?.['Retry-After'] === undefined ? { 'Retry-After': String(DEFAULT_RETRY_AFTER_SECONDS), ...options.headers } : (options.headers ?? {});
    this.details = options.details ?? {};
  }
}
