/**
 * The operator's endpoints, /healthz, /readyz and /metrics, on the main port (metrics only to a bearer
 * of METRICS_TOKEN) and on the optional OPS_PORT listener (all three, no token: bind it privately).
 * /readyz names its checks only on the private listener: the public port says ready or not, nothing
 * about what runs behind it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { THealth } from './health.ts';
import type { TMetrics } from './metrics.ts';

export interface TOpsEndpoints {
  health: THealth;
  metrics: TMetrics;
}

/**
 * Answers `req` when it is for one of the ops paths and returns true; false leaves it to the caller.
 * `metricsToken`: undefined on the private listener (no token asked); on the main port, the
 * configured token, or null when none is configured (then /metrics is not served there).
 */
export function answerOpsRequest(req: IncomingMessage, res: ServerResponse, endpoints: TOpsEndpoints, metricsToken: string | null | undefined): boolean {
  const path = (req.url ?? '/').split('?', 1)[0];
  if (path !== '/healthz' && path !== '/readyz' && path !== '/metrics') return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, 'application/json; charset=utf-8', JSON.stringify({ success: false, error: 'Method not allowed' }), { Allow: 'GET, HEAD' });
    return true;
  }
  if (path === '/healthz') {
    send(res, 200, 'application/json; charset=utf-8', JSON.stringify({ status: 'ok' }));
    return true;
  }
  if (path === '/readyz') {
    const isPrivateListener = metricsToken === undefined;
    void endpoints.health.readiness().then(
      (r) => {
        const status = r.ready ? 'ready' : r.draining ? 'draining' : 'not ready';
        const body = isPrivateListener ? { status, checks: r.checks } : { status };
        send(res, r.ready ? 200 : 503, 'application/json; charset=utf-8', JSON.stringify(body), r.ready ? {} : { 'Retry-After': '5' });
      },
      () => send(res, 503, 'application/json; charset=utf-8', JSON.stringify({ status: 'not ready' }), { 'Retry-After': '5' }),
    );
    return true;
  }
  if (metricsToken === null) return false; // not served on this port: the caller answers 404 as for any unknown path
  if (metricsToken !== undefined && !bearerMatches(req.headers.authorization, metricsToken)) {
    send(res, 401, 'application/json; charset=utf-8', JSON.stringify({ success: false, error: 'Unauthorized' }), { 'WWW-Authenticate': 'Bearer realm="metrics"' });
    return true;
  }
  void endpoints.metrics.render().then(
    ({ contentType, body }) => send(res, 200, contentType, body),
    () => send(res, 500, 'text/plain; charset=utf-8', 'metrics unavailable\n'),
  );
  return true;
}

/** The private listener: the ops paths, 404 for anything else. */
export function createOpsServer(endpoints: TOpsEndpoints): Server {
  const server = createServer((req, res) => {
    if (!answerOpsRequest(req, res, endpoints, undefined)) send(res, 404, 'application/json; charset=utf-8', JSON.stringify({ success: false, error: 'Not found' }));
  });
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  return server;
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
  if (!given) return false;
  // Digests of equal length, so the comparison takes the same time whatever was sent.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}

function send(res: ServerResponse, status: number, contentType: string, body: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'Content-Type': contentType, 'Cache-Control': 'no-store', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
