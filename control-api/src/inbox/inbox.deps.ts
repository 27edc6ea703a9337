/** What the inbox area is wired with: the pieces of the runtime it reads, and those of the areas it calls. deps.ts gives it the whole runtime. */
import type { TServerKeys } from '../access/server-secret.ts';
import type { RateLimiter } from '../access/rate-limiter.ts';
import type { TRequestLimits } from '../access/request-limits.ts';
import type { Mailer } from '../notifications/mailer.ts';
import type { TAccessDeps } from '../access/access.deps.ts';
import type { TNotificationsDeps } from '../notifications/notifications.deps.ts';
import type { TCoreDeps } from '../core-deps.ts';

export type TInboxDeps = TAccessDeps &
  TNotificationsDeps &
  Pick<TCoreDeps, 'config' | 'db' | 'log' | 'clock'> & {
    /** The cookie and unsubscribe keys; undefined when the process runs without SESSION_SECRET. */
    keys: TServerKeys | undefined;
    mailer: Mailer;
    limits: { forms: RateLimiter; requests: TRequestLimits };
  };
