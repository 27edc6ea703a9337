/** What the edge area is wired with: the pieces of the runtime it reads, and those of the areas it calls. deps.ts gives it the whole runtime. */
import type { TSitesDeps } from '../sites/sites.deps.ts';
import type { TCoreDeps } from '../core-deps.ts';

export type TEdgeDeps = TSitesDeps & Pick<TCoreDeps, 'config' | 'db' | 'storage' | 'log'>;
