/** What the sites area is wired with: the pieces of the runtime it reads, and those of the areas it calls. deps.ts gives it the whole runtime. */
import type { ReadCache } from '../db/read-cache.ts';
import type { TServerKeys } from '../access/server-secret.ts';
import type { TRequestLimits } from '../access/request-limits.ts';
import type { TAccessDeps } from '../access/access.deps.ts';
import type { TCoreDeps } from '../core-deps.ts';

export type TSitesDeps = TAccessDeps &
  Pick<TCoreDeps, 'config' | 'db' | 'storage' | 'log' | 'clock'> & {
    /** The cookie and unsubscribe keys; undefined when the process runs without SESSION_SECRET. */
    keys: TServerKeys | undefined;
    limits: { requests: TRequestLimits };
    caches: { reads: ReadCache | undefined };
  };
