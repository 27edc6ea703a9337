/**
 * Errors that say the database cannot be reached right now, rather than that a statement is wrong:
 * PostgreSQL restarting or refusing connections, a connection cut under a query. A request that meets
 * one is answered 503 with Retry-After (http/error-middleware.ts): trying again in a moment works.
 */

/** SQLSTATEs of a server going away or not taking connections (class 08: connection exception). */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: the server is shutting down (a restart)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '53300', // too_many_connections
]);

/** What node-postgres and its pool throw when a connection is lost, ends, or cannot be made in time. */
const CONNECTION_LOST_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Connection terminated due to connection timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
];

/** Socket errors of a connection that was refused, reset or never answered. */
const SOCKET_FAILURES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

export function isDatabaseUnavailable(err: unknown): boolean {
  // A few levels of `cause`: some callers wrap what the driver threw.
  for (let current = err, depth = 0; current instanceof Error && depth < 4; current = current.cause, depth++) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code) || SOCKET_FAILURES.has(code))) return true;
    if (CONNECTION_LOST_MESSAGES.includes(current.message)) return true;
  }
  return false;
}
