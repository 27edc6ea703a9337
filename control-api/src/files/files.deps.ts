/** What the files area is wired with: the pieces of the runtime it reads, and those of the areas it calls. deps.ts gives it the whole runtime. */
import type { ReadCache } from '../db/read-cache.ts';
import type { TObjectMemo } from './object-memo.ts';
import type { TAccessDeps } from '../access/access.deps.ts';
import type { TAnalyticsDeps } from '../analytics/analytics.deps.ts';
import type { TSitesDeps } from '../sites/sites.deps.ts';
import type { TCoreDeps } from '../core-deps.ts';

export type TFilesDeps = TAccessDeps &
  TAnalyticsDeps &
  TSitesDeps &
  Pick<TCoreDeps, 'db' | 'storage'> & {
    caches: { reads: ReadCache | undefined; storedObjects: TObjectMemo };
  };
