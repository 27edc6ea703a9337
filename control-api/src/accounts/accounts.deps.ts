/** What the accounts area is wired with: the pieces of the runtime it reads, and those of the areas it calls. deps.ts gives it the whole runtime. */
import type { TAccountLimits } from './account-limits.ts';
import type { TRequestLimits } from '../access/request-limits.ts';
import type { Mailer } from '../notifications/mailer.ts';
import type { TAccessDeps } from '../access/access.deps.ts';
import type { TCreatorsDeps } from '../creators/creators.deps.ts';
import type { TNotificationsDeps } from '../notifications/notifications.deps.ts';
import type { TBillingDeps } from '../billing/billing.deps.ts';
import type { TEdgeDeps } from '../edge/edge.deps.ts';
import type { TCoreDeps } from '../core-deps.ts';

export type TAccountsDeps = TAccessDeps &
  TCreatorsDeps &
  TNotificationsDeps &
  TBillingDeps &
  TEdgeDeps &
  Pick<TCoreDeps, 'config' | 'db' | 'log' | 'clock'> & {
    mailer: Mailer;
    limits: { accounts: TAccountLimits; requests: TRequestLimits };
  };
