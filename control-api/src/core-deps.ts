/**
 * The runtime's foundation every area may be wired with: settings, database, storage, build queue,
 * logger and clock. Each area's `<area>.deps.ts` picks what it reads; deps.ts composes the whole runtime.
 */
import type { Kysely } from 'kysely';
import type { Clock } from './clock.ts';
import type { TConfig } from './config/config.ts';
import type { Database } from './db/tables.ts';
import type { Logger } from './logger.ts';
import type { BuildQueue } from './queue/build-queue.ts';
import type { Storage } from './storage/storage.ts';

export interface TCoreDeps {
  /** The zod-parsed settings of this process. */
  config: TConfig;
  db: Kysely<Database>;
  storage: Storage;
  queue: BuildQueue;
  log: Logger;
  clock: Clock;
}
