/** What the edge area is wired with: the pieces of the runtime it reads, and those of the areas it calls. deps.ts gives it the whole runtime. */
import type { TConfig } from '../config/config.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import type { Logger } from '../logger.ts';
import type { Storage } from '../storage/storage.ts';
import type { TSitesDeps } from '../sites/sites.deps.ts';

export type TEdgeDeps = TSitesDeps & {
  /** The zod-parsed settings of this process. */
  config: TConfig;
  db: Kysely<Database>;
  storage: Storage;
  log: Logger;
};
