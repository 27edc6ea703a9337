/** What the access area is wired with: the pieces of the runtime it reads. deps.ts gives it the whole runtime. */
import type { TVerifiedVisitorCookies } from './visitor-cookie.ts';
import type { TServerKeys } from './server-secret.ts';
import type { TRequestLimits } from './request-limits.ts';
import type { TLimiterStore } from './limiter-store.ts';
import type { TCoreDeps } from '../core-deps.ts';

export interface TAccessDeps extends Pick<TCoreDeps, 'config' | 'db' | 'storage' | 'log' | 'clock'> {
  /** The cookie and unsubscribe keys; undefined when the process runs without SESSION_SECRET. */
  keys: TServerKeys | undefined;
  limits: { requests: TRequestLimits; store: TLimiterStore };
  caches: { visitorCookies: TVerifiedVisitorCookies };
}
