/** What the billing area is wired with: the pieces of the runtime it reads, and those of the areas it calls. deps.ts gives it the whole runtime. */
import type { Clock } from '../clock.ts';
import type { TConfig } from '../config/config.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import type { TRequestLimits } from '../access/request-limits.ts';
import type { Logger } from '../logger.ts';
import type { Storage } from '../storage/storage.ts';
import type { Stripe } from './stripe-client.ts';
import type { TAccessDeps } from '../access/access.deps.ts';

export type TBillingDeps = TAccessDeps & {
  /** The zod-parsed settings of this process. */
  config: TConfig;
  db: Kysely<Database>;
  storage: Storage;
  log: Logger;
  clock: Clock;
  /** Stripe's API; undefined with billing off. */
  stripe: Stripe | undefined;
  limits: { requests: TRequestLimits };
};
