/** What the visitors area is wired with: the pieces of the runtime it reads. deps.ts gives it the whole runtime. */
import type { TCoreDeps } from '../core-deps.ts';
import type { TDbCaches } from '../db/read-cache.ts';

export interface TVisitorsDeps extends Pick<TCoreDeps, 'db' | 'clock'> {
  caches: { knownVisitors: Set<string> } & Pick<TDbCaches, 'reads'>;
}
