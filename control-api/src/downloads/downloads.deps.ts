/** What the downloads area is wired with: the pieces of the runtime it reads, and those of the areas it calls. deps.ts gives it the whole runtime. */
import type { TObjectMemo } from '../files/object-memo.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import type { TArchiveLimiter } from './archive-budget.ts';
import type { TRequestLimits } from '../access/request-limits.ts';
import type { Logger } from '../logger.ts';
import type { Storage } from '../storage/storage.ts';
import type { TAccessDeps } from '../access/access.deps.ts';
import type { TFilesDeps } from '../files/files.deps.ts';
import type { TSitesDeps } from '../sites/sites.deps.ts';

export type TDownloadsDeps = TAccessDeps &
  TFilesDeps &
  TSitesDeps & {
    db: Kysely<Database>;
    storage: Storage;
    log: Logger;
    limits: { archives: TArchiveLimiter; requests: TRequestLimits };
    caches: { storedObjects: TObjectMemo };
  };
