/** What the app is wired with. Built once from the config (runtime.ts) or by tests with test instances. */
import type { Kysely } from 'kysely';
import type { TConfig } from './config/config.ts';
import type { Database } from './db/tables.ts';
import type { Logger } from './logger.ts';
import type { BuildQueue } from './queue/build-queue.ts';
import type { Storage } from './storage/storage.ts';

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export interface TAppDeps {
  config: TConfig;
  db: Kysely<Database>;
  storage: Storage;
  queue: BuildQueue;
  log: Logger;
  clock: Clock;
}
