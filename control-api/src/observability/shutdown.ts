/** What a process does at SIGTERM with its listeners: drain the HTTP server within a grace period; the ops listener's start. */
import type { Server } from 'node:http';
import type { Logger } from '../logger.ts';

/**
 * Stops accepting connections and lets in-flight requests finish: idle keep-alive connections are
 * closed at once and whenever one becomes idle; whatever is still open after `graceMs` is cut off.
 * Resolves when the server has closed, with the number of connections that were cut off.
 */
export async function drainHttpServer(server: Server, graceMs: number): Promise<{ cutOff: number }> {
  let cutOff = 0;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // A keep-alive connection whose request finishes becomes idle: close it then, not after its timeout.
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  const deadline = setTimeout(() => {
    server.getConnections((_err, count) => {
      cutOff = count;
      server.closeAllConnections();
    });
  }, graceMs);
  try {
    await closed;
  } finally {
    clearInterval(sweep);
    clearTimeout(deadline);
  }
  return { cutOff };
}

/** Starts the private ops listener (OPS_PORT on OPS_HOST) and logs where it answers. */
export function listenOps(server: Server, ops: { port: number | undefined; host: string }, log: Logger): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(ops.port ?? 0, ops.host, () => {
      server.off('error', reject);
      const address = server.address();
      log.info({ opsPort: typeof address === 'object' && address ? address.port : ops.port, opsHost: ops.host }, 'ops endpoints listening (/healthz, /readyz, /metrics)');
      resolve(server);
    });
  });
}
