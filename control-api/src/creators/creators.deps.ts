/** What the creators area is wired with: the pieces of the runtime it reads, and those of the areas it calls. deps.ts gives it the whole runtime. */
import type { TAnalyticsBatcher } from '../analytics/analytics.repository.ts';
import type { TRequestLimits } from '../access/request-limits.ts';
import type { TAccessDeps } from '../access/access.deps.ts';
import type { TNotificationsDeps } from '../notifications/notifications.deps.ts';
import type { TCoreDeps } from '../core-deps.ts';

export type TCreatorsDeps = TAccessDeps &
  TNotificationsDeps &
  Pick<TCoreDeps, 'config' | 'db' | 'log' | 'clock'> & {
    /** View and download events, written in batches. */
    analytics: TAnalyticsBatcher;
    limits: { requests: TRequestLimits };
  };
