/** What the sites area is wired with: the pieces of the runtime it reads, and those of the areas it calls. deps.ts gives it the whole runtime. */
import type { ReadCache } from '../db/read-cache.ts';
import type { Clock } from '../clock.ts';
import type { TConfig } from '../config/config.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import type { TServerKeys } from '../access/server-secret.ts';
import type { TRequestLimits } from '../access/request-limits.ts';
import type { Logger } from '../logger.ts';
import type { Storage } from '../storage/storage.ts';
import type { TAccessDeps } from '../access/access.deps.ts';

export type TSitesDeps = TAccessDeps & {
  /** The zod-parsed settings of this process. */
  config: TConfig;
  db: Kysely<Database>;
  storage: Storage;
  log: Logger;
  clock: Clock;
  /** The cookie and unsubscribe keys; undefined when the process runs without SESSION_SECRET. */
  keys: TServerKeys | undefined;
  limits: { requests: TRequestLimits };
  caches: { reads: ReadCache | undefined };
};
