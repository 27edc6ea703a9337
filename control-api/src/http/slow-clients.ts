/**
 * Limits on slow clients (slowloris). Node bounds the headers (headersTimeout, checked every
 * `connectionsCheckingInterval`), idle keep-alive connections and the number of connections; the
 * body is bounded here, per route: an ordinary request must have sent its whole body within
 * HTTP_REQUEST_TIMEOUT_SECONDS, while an upload (which may take hours for gigabytes) has no total
 * deadline but is cut after UPLOAD_IDLE_TIMEOUT_SECONDS without a byte. Node's own requestTimeout
 * stays off: it is one deadline for every route and would cut long uploads.
 */
import http from 'node:http';
import type { RequestHandler } from 'express';
import type { TConfig } from '../config/config.ts';
import { AppError } from './app-error.ts';

export type THttpLimits = TConfig['http'];

/** Routes whose bodies are uploads: an idle timer instead of a total deadline. */
const UPLOAD_PATHS = [/^\/api\/upload\/?$/, /^\/api\/direct-upload\/?$/, /^\/api\/upload-chunk\/[^/]+\/[^/]+\/?$/];

export function isUploadRequest(method: string | undefined, path: string): boolean {
  return method === 'POST' && UPLOAD_PATHS.some((p) => p.test(path));
}

/** The HTTP server for the app, with the connection-level limits applied. */
export function createHttpServer(app: http.RequestListener, limits: THttpLimits): http.Server {
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
  return server;
}

/** Middleware (first in the app): the body deadline of ordinary requests and the idle timer of uploads. */
export function createBodyTimeouts(limits: THttpLimits): RequestHandler {
  return (req, res, next) => {
    if (req.complete) return next();
    const socket = req.socket;
    let stop: () => void;
    if (isUploadRequest(req.method, req.path)) {
      // Polls the bytes read rather than listening for data, which would start the body flowing.
      let lastBytes = socket.bytesRead;
      let lastProgress = Date.now();
      const timer = setInterval(
        () => {
          if (req.complete) return stop();
          if (socket.bytesRead !== lastBytes) {
            lastBytes = socket.bytesRead;
            lastProgress = Date.now();
          } else if (Date.now() - lastProgress >= limits.uploadIdleTimeoutMs) {
            stop();
            socket.destroy();
          }
        },
        Math.max(100, Math.min(1_000, Math.floor(limits.uploadIdleTimeoutMs / 4))),
      );
      stop = () => clearInterval(timer);
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
        res.status(error.status).json({ success: false, error: error.message, code: error.code });
      }, limits.requestTimeoutMs);
      stop = () => clearTimeout(timer);
    }
    req.once('end', () => stop());
    req.once('close', () => stop());
    next();
  };
}
