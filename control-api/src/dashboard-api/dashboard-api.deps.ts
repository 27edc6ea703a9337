/** What the dashboard-api area is wired with: the pieces of the runtime it reads, and those of the areas it calls. deps.ts gives it the whole runtime. */
import type { TAnalyticsBatcher } from '../analytics/analytics.repository.ts';
import type { TObjectMemo } from '../files/object-memo.ts';
import type { TRequestLimits } from '../access/request-limits.ts';
import type { TAccessDeps } from '../access/access.deps.ts';
import type { TSitesDeps } from '../sites/sites.deps.ts';
import type { TFilesDeps } from '../files/files.deps.ts';
import type { TCreatorsDeps } from '../creators/creators.deps.ts';
import type { TEngagementDeps } from '../engagement/engagement.deps.ts';
import type { TAnalyticsDeps } from '../analytics/analytics.deps.ts';
import type { TCoreDeps } from '../core-deps.ts';

export type TDashboardApiDeps = TAccessDeps &
  TSitesDeps &
  TFilesDeps &
  TCreatorsDeps &
  TEngagementDeps &
  TAnalyticsDeps &
  Pick<TCoreDeps, 'config' | 'db' | 'storage' | 'clock'> & {
    /** View and download events, written in batches. */
    analytics: TAnalyticsBatcher;
    limits: { requests: TRequestLimits };
    caches: { storedObjects: TObjectMemo };
  };
