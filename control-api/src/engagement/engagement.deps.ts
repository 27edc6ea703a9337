/** What the engagement area is wired with: the pieces of the runtime it reads, and those of the areas it calls. deps.ts gives it the whole runtime. */
import type { Clock } from '../clock.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import type { TFavoriteWriter } from './engagement.repository.ts';
import type { TRequestLimits } from '../access/request-limits.ts';
import type { TAccessDeps } from '../access/access.deps.ts';
import type { TVisitorsDeps } from '../visitors/visitors.deps.ts';
import type { TSitesDeps } from '../sites/sites.deps.ts';
import type { TNotificationsDeps } from '../notifications/notifications.deps.ts';

export type TEngagementDeps = TAccessDeps &
  TVisitorsDeps &
  TSitesDeps &
  TNotificationsDeps & {
    db: Kysely<Database>;
    clock: Clock;
    /** Favourites added and removed outside a transaction. */
    favorites: TFavoriteWriter;
    limits: { requests: TRequestLimits };
    caches: { commentJson: WeakMap<object, { own: string; others: string }> };
  };
