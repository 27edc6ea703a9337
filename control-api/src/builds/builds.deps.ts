/** What the builds area is wired with: the pieces of the runtime it reads, and those of the areas it calls. deps.ts gives it the whole runtime. */
import type { Clock } from '../clock.ts';
import type { TConfig } from '../config/config.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import type { Logger } from '../logger.ts';
import type { BuildQueue } from '../queue/build-queue.ts';
import type { TMetrics } from '../observability/metrics.ts';
import type { Storage } from '../storage/storage.ts';
import type { TEdgeDeps } from '../edge/edge.deps.ts';
import type { TBillingDeps } from '../billing/billing.deps.ts';

export type TBuildsDeps = TEdgeDeps &
  TBillingDeps & {
    /** The zod-parsed settings of this process. */
    config: TConfig;
    db: Kysely<Database>;
    storage: Storage;
    /** Prometheus metrics of this runtime. */
    metrics: TMetrics;
    queue: BuildQueue;
    log: Logger;
    clock: Clock;
  };
