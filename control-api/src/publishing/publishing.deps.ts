/** What the publishing area is wired with: the pieces of the runtime it reads, and those of the areas it calls. deps.ts gives it the whole runtime. */
import type { TPublishGate } from './publish-limits.ts';
import type { TBillingDeps } from '../billing/billing.deps.ts';
import type { TAccessDeps } from '../access/access.deps.ts';
import type { TSitesDeps } from '../sites/sites.deps.ts';
import type { TCreatorsDeps } from '../creators/creators.deps.ts';
import type { TNotificationsDeps } from '../notifications/notifications.deps.ts';
import type { TBuildsDeps } from '../builds/builds.deps.ts';
import type { TCoreDeps } from '../core-deps.ts';

export type TPublishingDeps = TBillingDeps &
  TAccessDeps &
  TSitesDeps &
  TCreatorsDeps &
  TNotificationsDeps &
  TBuildsDeps &
  Pick<TCoreDeps, 'config' | 'db' | 'storage' | 'log' | 'clock'> & {
    limits: { publish: TPublishGate };
  };
