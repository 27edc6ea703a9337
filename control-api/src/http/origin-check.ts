/**
 * CSRF defence: a state-changing API call from a browser must come from our own origin, which is
 * PUBLIC_URL's (plus the origins ALLOWED_ORIGINS names). The request's own Host header proves
 * nothing: any hostname that reaches the server (DNS rebinding, a second name, a proxy passing
 * Host through) would otherwise count as ours.
 */
import type { RequestHandler } from 'express';
import type { TConfig } from '../config/config.ts';
import { AppError } from './app-error.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Reads the config on each call (tests and the start-up set PUBLIC_URL once the port is known); cached per value. */
export function createOriginCheck(config: Pick<TConfig, 'publicUrl' | 'allowedOrigins'>): RequestHandler {
  let cachedFor: { publicUrl: string; allowedOrigins: readonly string[] } | undefined;
  let allowed = new Set<string>();
  const allowedNow = (): Set<string> => {
    if (cachedFor?.publicUrl !== config.publicUrl || cachedFor.allowedOrigins !== config.allowedOrigins) {
      allowed = new Set([new URL(config.publicUrl).origin, ...config.allowedOrigins]);
      cachedFor = { publicUrl: config.publicUrl, allowedOrigins: config.allowedOrigins };
    }
    return allowed;
  };
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.get('origin');
    // Non-browser clients send no Origin; browsers always do on cross-site POSTs.
    if (!origin) return next();
    if (allowedNow().has(origin)) return next();
    next(new AppError('forbidden', 'Cross-site request refused'));
  };
}
