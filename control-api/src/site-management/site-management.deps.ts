/** What the site-management area is wired with: the pieces of the runtime it reads, and those of the areas it calls. deps.ts gives it the whole runtime. */
import type { Clock } from '../clock.ts';
import type { TConfig } from '../config/config.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import type { TPublishGate } from '../publishing/publish-limits.ts';
import type { TRequestLimits } from '../access/request-limits.ts';
import type { Logger } from '../logger.ts';
import type { Storage } from '../storage/storage.ts';
import type { TAccessDeps } from '../access/access.deps.ts';
import type { TPublishingDeps } from '../publishing/publishing.deps.ts';
import type { TBillingDeps } from '../billing/billing.deps.ts';
import type { TEdgeDeps } from '../edge/edge.deps.ts';
import type { TSitesDeps } from '../sites/sites.deps.ts';
import type { TDashboardApiDeps } from '../dashboard-api/dashboard-api.deps.ts';
import type { TBuildsDeps } from '../builds/builds.deps.ts';
import type { TNotificationsDeps } from '../notifications/notifications.deps.ts';

export type TSiteManagementDeps = TAccessDeps &
  TPublishingDeps &
  TBillingDeps &
  TEdgeDeps &
  TSitesDeps &
  TDashboardApiDeps &
  TBuildsDeps &
  TNotificationsDeps & {
    /** The zod-parsed settings of this process. */
    config: TConfig;
    db: Kysely<Database>;
    storage: Storage;
    log: Logger;
    clock: Clock;
    limits: { publish: TPublishGate; requests: TRequestLimits };
  };
