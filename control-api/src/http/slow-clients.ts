/**
 * Limits on slow clients (slowloris). Node bounds the headers (headersTimeout, checked every
 * `connectionsCheckingInterval`), idle keep-alive connections and the number of connections; this
 * module adds a cap per client address, and bounds the body per route: an ordinary request must have
 * sent its whole body within HTTP_REQUEST_TIMEOUT_SECONDS, while an upload (which may take hours for
 * gigabytes) has no total deadline but is cut after UPLOAD_IDLE_TIMEOUT_SECONDS without a byte, or once
 * it arrives slower than UPLOAD_MIN_BYTES_PER_SECOND on average over a minute. Node's own
 * requestTimeout stays off: it is one deadline for every route and would cut long uploads.
 */
import http from 'node:http';
import type { RequestHandler } from 'express';
import type { TConfig } from '../config/config.ts';
import type { Clock } from '../clock.ts';
import { addressKey } from './address-key.ts';
import { AppError } from './app-error.ts';
import { sendErrorReply } from './error-middleware.ts';

export type THttpLimits = TConfig['http'];

/** Routes whose bodies are uploads: an idle timer and a minimum rate instead of a total deadline. */
const UPLOAD_ROUTES: ReadonlyArray<{ method: string; path: RegExp }> = [
  { method: 'POST', path: /^\/api\/upload\/?$/ },
  { method: 'POST', path: /^\/api\/direct-upload\/?$/ },
  { method: 'POST', path: /^\/api\/upload-chunk\/[^/]+\/[^/]+\/?$/ },
  // The owner's added and replaced files (site management): as large as a publish.
  { method: 'POST', path: /^\/api\/projects\/[^/]+\/files\/?$/ },
  { method: 'PUT', path: /^\/api\/projects\/[^/]+\/files\/[^/]+\/?$/ },
];

export function isUploadRequest(method: string | undefined, path: string): boolean {
  return UPLOAD_ROUTES.some((r) => r.method === method && r.path.test(path));
}

export type TUploadPaceVerdict = 'flowing' | 'idle' | 'too slow';

export interface TUploadPaceLimits {
  idleMs: number;
  /** 0: no minimum. */
  minBytesPerSecond: number;
  windowMs: number;
}

/**
 * Judges an upload body from the bytes received so far, sampled now and then: idle once no byte came
 * for `idleMs`; too slow once, after its first window, the bytes of the last `windowMs` average less
 * than `minBytesPerSecond`. A body that starts slowly, or pauses briefly, is not cut while its average
 * holds.
 */
export function createUploadPace(limits: TUploadPaceLimits, startedAt: number): { observe(bytes: number, now: number): TUploadPaceVerdict } {
  const samples: Array<{ at: number; bytes: number }> = [{ at: startedAt, bytes: 0 }];
  let lastBytes = 0;
  let lastProgressAt = startedAt;
  return {
    observe(bytes, now) {
      if (bytes !== lastBytes) {
        lastBytes = bytes;
        lastProgressAt = now;
      } else if (now - lastProgressAt >= limits.idleMs) {
        return 'idle';
      }
      samples.push({ at: now, bytes });
      if (limits.minBytesPerSecond <= 0 || now - startedAt < limits.windowMs) return 'flowing';
      // The latest sample at least a window old is where the average starts; older ones are dropped.
      let start = 0;
      while (start + 1 < samples.length && samples[start + 1]!.at <= now - limits.windowMs) start++;
      samples.splice(0, start);
      const from = samples[0]!;
      const seconds = (now - from.at) / 1000;
      return seconds > 0 && (bytes - from.bytes) / seconds < limits.minBytesPerSecond ? 'too slow' : 'flowing';
    },
  };
}

/**
 * The HTTP server for the app, with the connection-level limits applied. `trustProxy`: with a proxy
 * trusted, every connection comes from it, so the per-address cap is left to the proxy (the edge's
 * limit_conn); without one it applies to each connection's own address.
 */
export function createHttpServer(app: http.RequestListener, limits: THttpLimits, trustProxy: TConfig['trustProxy'] = false): http.Server {
  const server = http.createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      // Bodies are bounded per route by createBodyTimeouts.
      requestTimeout: 0,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // How often Node looks for connections past headersTimeout (its default is 30 s).
      connectionsCheckingInterval: Math.max(250, Math.min(5_000, Math.floor(limits.headersTimeoutMs / 4))),
    },
    app,
  );
  server.maxConnections = limits.maxConnections;
  if (trustProxy === false) capConnectionsPerAddress(server, limits.maxConnectionsPerAddress);
  return server;
}

/** Closes at once a connection past `max` open ones from the same client address (IPv6 by its /64). */
function capConnectionsPerAddress(server: http.Server, max: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const key = addressKey(socket.remoteAddress ?? 'unknown');
    const count = (open.get(key) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
  });
}

/**
 * Middleware (first in the app): the body deadline of ordinary requests, and the idle timer and
 * minimum rate of uploads. Uploads are all judged by one timer, on `clock`'s time.
 */
export function createBodyTimeouts(limits: THttpLimits, clock: Clock): RequestHandler {
  const paceLimits: TUploadPaceLimits = { idleMs: limits.uploadIdleTimeoutMs, minBytesPerSecond: limits.uploadMinBytesPerSecond, windowMs: limits.uploadRateWindowMs };
  const checkEveryMs = Math.max(100, Math.min(1_000, Math.floor(limits.uploadIdleTimeoutMs / 4)));
  /** The uploads whose bodies are still arriving, each with its check. */
  const uploads = new Set<(now: number) => void>();
  let ticker: NodeJS.Timeout | undefined;
  const checkUploads = () => {
    const now = clock.now();
    for (const check of uploads) check(now);
    if (uploads.size === 0) {
      clearInterval(ticker);
      ticker = undefined;
    }
  };

  return (req, res, next) => {
    if (req.complete) return next();
    const socket = req.socket;
    let stop: () => void;
    if (isUploadRequest(req.method, req.path)) {
      // Polls the bytes read rather than listening for data, which would start the body flowing.
      const readBefore = socket.bytesRead;
      const pace = createUploadPace(paceLimits, clock.now());
      const check = (now: number) => {
        if (req.complete) return stop();
        if (pace.observe(socket.bytesRead - readBefore, now) === 'flowing') return;
        stop();
        socket.destroy();
      };
      uploads.add(check);
      ticker ??= setInterval(checkUploads, checkEveryMs);
      stop = () => uploads.delete(check);
    } else {
      const timer = setTimeout(() => {
        if (req.complete) return;
        if (res.headersSent) {
          socket.destroy();
          return;
        }
        // Answered here: the route is still waiting for the body, so the error middleware is not reached.
        const error = new AppError('request_timeout', 'The request took too long to arrive');
        res.set('Connection', 'close');
        res.once('finish', () => socket.destroy());
        sendErrorReply(res, error);
      }, limits.requestTimeoutMs);
      stop = () => clearTimeout(timer);
    }
    req.once('end', () => stop());
    req.once('close', () => stop());
    next();
  };
}

/** How much of a refused upload's body is read and dropped so the client, still sending, reads the refusal. */
export const REFUSED_BODY_READ = { maxBytes: 4 * 1024 ** 2, maxMs: 2_000 };

/**
 * Call when an upload is refused before its body is read (413, 429, 507…). Closing the connection at
 * once would reset it while the client is still sending, and the client would see a network error
 * instead of the answer; so once the answer is out, the body is read and dropped, up to
 * `maxBytes` or `maxMs` (then the connection is closed), and the connection stays usable after it.
 */
export function readRefusedBody(req: http.IncomingMessage, res: http.ServerResponse, bounds: { maxBytes: number; maxMs: number } = REFUSED_BODY_READ): void {
  if (req.complete) return;
  const socket = req.socket;
  let read = 0;
  let isAnswered = false;
  let timer: NodeJS.Timeout | undefined;
  const cut = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  // Read from now on (Node would otherwise drop the body unread, and uncounted, once the answer is out);
  // past the bound the reading waits for the answer to be out, then the connection is closed.
  req.on('data', (piece: Buffer) => {
    read += piece.length;
    if (read <= bounds.maxBytes) return;
    if (isAnswered) cut();
    else req.pause();
  });
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
  req.resume();
  res.once('finish', () => {
    isAnswered = true;
    if (req.complete) return;
    if (read > bounds.maxBytes) return cut();
    timer = setTimeout(cut, bounds.maxMs);
  });
}
