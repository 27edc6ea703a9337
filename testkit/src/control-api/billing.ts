/** Plans for tests: a creator put on a paid plan directly, as the webhooks would (billing.routes.test.ts tests those). */
import type { TPaidPlanId } from '@dropsite/shared';
import type { TAppDeps } from '@dropsite/control-api';
import { ensureSubscriptionRow } from '@dropsite/control-api/internals';

/** An active paid plan for the creator, for suites that test what the plan allows rather than billing. */
export async function putOnPlan(deps: Pick<TAppDeps, 'db' | 'clock'>, creatorId: string, planId: TPaidPlanId): Promise<void> {
  const now = deps.clock.now();
  await ensureSubscriptionRow(deps.db, creatorId, now);
  await deps.db
    .updateTable('subscriptions')
    .set({ plan_id: planId, status: 'active', billing_interval: 'monthly', current_period_end: now + 30 * 86_400_000, updated_at: now })
    .where('workspace_id', '=', creatorId)
    .execute();
}
