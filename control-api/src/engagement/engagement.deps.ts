/** What the engagement area is wired with: the pieces of the runtime it reads, and those of the areas it calls. deps.ts gives it the whole runtime. */
import type { TFavoriteWriter } from './engagement.repository.ts';
import type { TRequestLimits } from '../access/request-limits.ts';
import type { TAccessDeps } from '../access/access.deps.ts';
import type { TVisitorsDeps } from '../visitors/visitors.deps.ts';
import type { TSitesDeps } from '../sites/sites.deps.ts';
import type { TNotificationsDeps } from '../notifications/notifications.deps.ts';
import type { TCoreDeps } from '../core-deps.ts';

export type TEngagementDeps = TAccessDeps &
  TVisitorsDeps &
  TSitesDeps &
  TNotificationsDeps &
  Pick<TCoreDeps, 'db' | 'clock'> & {
    /** Favourites added and removed outside a transaction. */
    favorites: TFavoriteWriter;
    limits: { requests: TRequestLimits };
    caches: { commentJson: WeakMap<object, { own: string; others: string }> };
  };
