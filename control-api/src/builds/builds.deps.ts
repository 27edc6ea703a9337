/** What the builds area is wired with: the pieces of the runtime it reads, and those of the areas it calls. deps.ts gives it the whole runtime. */
import type { TMetrics } from '../observability/metrics.ts';
import type { TEdgeDeps } from '../edge/edge.deps.ts';
import type { TBillingDeps } from '../billing/billing.deps.ts';
import type { TCoreDeps } from '../core-deps.ts';

export type TBuildsDeps = TEdgeDeps &
  TBillingDeps &
  Pick<TCoreDeps, 'config' | 'db' | 'storage' | 'queue' | 'log' | 'clock'> & {
    /** Prometheus metrics of this runtime. */
    metrics: TMetrics;
  };
