/** What the site-management area is wired with: the pieces of the runtime it reads, and those of the areas it calls. deps.ts gives it the whole runtime. */
import type { TPublishGate } from '../publishing/publish-limits.ts';
import type { TRequestLimits } from '../access/request-limits.ts';
import type { TAccessDeps } from '../access/access.deps.ts';
import type { TPublishingDeps } from '../publishing/publishing.deps.ts';
import type { TBillingDeps } from '../billing/billing.deps.ts';
import type { TEdgeDeps } from '../edge/edge.deps.ts';
import type { TSitesDeps } from '../sites/sites.deps.ts';
import type { TDashboardApiDeps } from '../dashboard-api/dashboard-api.deps.ts';
import type { TBuildsDeps } from '../builds/builds.deps.ts';
import type { TNotificationsDeps } from '../notifications/notifications.deps.ts';
import type { TCoreDeps } from '../core-deps.ts';

export type TSiteManagementDeps = TAccessDeps &
  TPublishingDeps &
  TBillingDeps &
  TEdgeDeps &
  TSitesDeps &
  TDashboardApiDeps &
  TBuildsDeps &
  TNotificationsDeps &
  Pick<TCoreDeps, 'config' | 'db' | 'storage' | 'log' | 'clock'> & {
    limits: { publish: TPublishGate; requests: TRequestLimits };
  };
