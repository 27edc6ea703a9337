/** What the downloads area is wired with: the pieces of the runtime it reads, and those of the areas it calls. deps.ts gives it the whole runtime. */
import type { TObjectMemo } from '../files/object-memo.ts';
import type { TArchiveLimiter } from './archive-budget.ts';
import type { TRequestLimits } from '../access/request-limits.ts';
import type { TAccessDeps } from '../access/access.deps.ts';
import type { TFilesDeps } from '../files/files.deps.ts';
import type { TSitesDeps } from '../sites/sites.deps.ts';
import type { TCoreDeps } from '../core-deps.ts';

export type TDownloadsDeps = TAccessDeps &
  TFilesDeps &
  TSitesDeps &
  Pick<TCoreDeps, 'db' | 'storage' | 'log'> & {
    limits: { archives: TArchiveLimiter; requests: TRequestLimits };
    caches: { storedObjects: TObjectMemo };
  };
