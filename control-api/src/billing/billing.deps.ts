/** What the billing area is wired with: the pieces of the runtime it reads, and those of the areas it calls. deps.ts gives it the whole runtime. */
import type { TRequestLimits } from '../access/request-limits.ts';
import type { Stripe } from './stripe-client.ts';
import type { TAccessDeps } from '../access/access.deps.ts';
import type { TCoreDeps } from '../core-deps.ts';

export type TBillingDeps = TAccessDeps &
  Pick<TCoreDeps, 'config' | 'db' | 'storage' | 'log' | 'clock'> & {
    /** Stripe's API; undefined with billing off. */
    stripe: Stripe | undefined;
    limits: { requests: TRequestLimits };
  };
