/** What the analytics area is wired with: the pieces of the runtime it reads, and those of the areas it calls. deps.ts gives it the whole runtime. */
import type { TAnalyticsBatcher } from './analytics.repository.ts';
import type { TViewLedger } from './view-ledger.ts';
import type { Clock } from '../clock.ts';
import type { TConfig } from '../config/config.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import type { TRequestLimits } from '../access/request-limits.ts';
import type { TLimiterStore } from '../access/limiter-store.ts';
import type { Logger } from '../logger.ts';
import type { TAccessDeps } from '../access/access.deps.ts';
import type { TEngagementDeps } from '../engagement/engagement.deps.ts';
import type { TVisitorsDeps } from '../visitors/visitors.deps.ts';

export type TAnalyticsDeps = TAccessDeps &
  TEngagementDeps &
  TVisitorsDeps & {
    /** The zod-parsed settings of this process. */
    config: TConfig;
    db: Kysely<Database>;
    log: Logger;
    clock: Clock;
    /** View and download events, written in batches. */
    analytics: TAnalyticsBatcher;
    limits: { requests: TRequestLimits; store: TLimiterStore };
    caches: { views: TViewLedger };
  };
