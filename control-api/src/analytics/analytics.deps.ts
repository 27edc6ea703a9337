/** What the analytics area is wired with: the pieces of the runtime it reads, and those of the areas it calls. deps.ts gives it the whole runtime. */
import type { TAnalyticsBatcher } from './analytics.repository.ts';
import type { TViewLedger } from './view-ledger.ts';
import type { TRequestLimits } from '../access/request-limits.ts';
import type { TLimiterStore } from '../access/limiter-store.ts';
import type { TAccessDeps } from '../access/access.deps.ts';
import type { TEngagementDeps } from '../engagement/engagement.deps.ts';
import type { TVisitorsDeps } from '../visitors/visitors.deps.ts';
import type { TCoreDeps } from '../core-deps.ts';

export type TAnalyticsDeps = TAccessDeps &
  TEngagementDeps &
  TVisitorsDeps &
  Pick<TCoreDeps, 'config' | 'db' | 'log' | 'clock'> & {
    /** View and download events, written in batches. */
    analytics: TAnalyticsBatcher;
    limits: { requests: TRequestLimits; store: TLimiterStore };
    caches: { views: TViewLedger };
  };
