/** What the access area is wired with: the pieces of the runtime it reads. deps.ts gives it the whole runtime. */
import type { TVerifiedVisitorCookies } from './visitor-cookie.ts';
import type { Clock } from '../clock.ts';
import type { TConfig } from '../config/config.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import type { TServerKeys } from './server-secret.ts';
import type { TRequestLimits } from './request-limits.ts';
import type { TLimiterStore } from './limiter-store.ts';
import type { Logger } from '../logger.ts';
import type { Storage } from '../storage/storage.ts';

export interface TAccessDeps {
  /** The zod-parsed settings of this process. */
  config: TConfig;
  db: Kysely<Database>;
  storage: Storage;
  log: Logger;
  clock: Clock;
  /** The cookie and unsubscribe keys; undefined when the process runs without SESSION_SECRET. */
  keys: TServerKeys | undefined;
  limits: { requests: TRequestLimits; store: TLimiterStore };
  caches: { visitorCookies: TVerifiedVisitorCookies };
}
