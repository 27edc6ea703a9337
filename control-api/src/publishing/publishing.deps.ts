/** What the publishing area is wired with: the pieces of the runtime it reads, and those of the areas it calls. deps.ts gives it the whole runtime. */
import type { Clock } from '../clock.ts';
import type { TConfig } from '../config/config.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import type { TPublishGate } from './publish-limits.ts';
import type { Logger } from '../logger.ts';
import type { Storage } from '../storage/storage.ts';
import type { TBillingDeps } from '../billing/billing.deps.ts';
import type { TAccessDeps } from '../access/access.deps.ts';
import type { TSitesDeps } from '../sites/sites.deps.ts';
import type { TCreatorsDeps } from '../creators/creators.deps.ts';
import type { TNotificationsDeps } from '../notifications/notifications.deps.ts';
import type { TBuildsDeps } from '../builds/builds.deps.ts';

export type TPublishingDeps = TBillingDeps &
  TAccessDeps &
  TSitesDeps &
  TCreatorsDeps &
  TNotificationsDeps &
  TBuildsDeps & {
    /** The zod-parsed settings of this process. */
    config: TConfig;
    db: Kysely<Database>;
    storage: Storage;
    log: Logger;
    clock: Clock;
    limits: { publish: TPublishGate };
  };
