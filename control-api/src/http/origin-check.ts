/** CSRF defence: a state-changing API call from a browser must come from our own origin. */
import type { RequestHandler } from 'express';
import { AppError } from './app-error.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function createOriginCheck(publicUrl: string): RequestHandler {
  const allowed = new URL(publicUrl).origin;
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.get('origin');
    // Non-browser clients send no Origin; browsers always do on cross-site POSTs.
    if (!origin) return next();
    const host = req.get('host');
    const sameHost = host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
    if (origin === allowed || sameHost) return next();
    next(new AppError('forbidden', 'Cross-site request refused'));
  };
}
