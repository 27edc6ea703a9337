/**
 * Billing's calls (spec 7.5-7.7 on Stripe; docs/api.md 'Billing'). The creator's calls act on the
 * signed-in session's current workspace only (a `userEmail` query is accepted and ignored): any member
 * reads its plan and usage, its owner alone opens Checkout, the portal or a trial; the webhook reads its raw
 * body, so it is mounted before the app's JSON parser (createBillingWebhookRoutes).
 */
import express from 'express';
import { ZCheckoutRequestSchema, type TBillingRedirectResponse, type TSubscriptionResponse, type TTrialResponse, type TUsageResponse } from '@dropsite/shared';
import type { TBillingDeps } from './billing.deps.ts';
import { principalOf } from '../access/principal.ts';
import { requireCurrentWorkspace } from '../workspaces/current-workspace.ts';
import { clientAddress, limitByAddress } from '../access/request-limits.ts';
import { createCheckout, createPortal, describeSubscription, describeUsage, startCreatorTrial } from './billing.service.ts';
import { applyWebhookEvent, verifyWebhook } from './webhook.service.ts';
import { createApiRouters, type TApiRouters } from '../http/api-routers.ts';

const PRIVATE = 'private, no-store';
/** Stripe's events are a few kilobytes; a subscription with many items stays well under this. */
const WEBHOOK_BODY_LIMIT = '512kb';

export function createBillingRoutes(deps: TBillingDeps): TApiRouters {
  const routes = createApiRouters();
  const limitReads = limitByAddress(deps.limits.requests.reads);
  const limitWrites = limitByAddress(deps.limits.requests.writes);

  routes.at('/api/billing').get('/subscription', limitReads, async (_req, res) => {
    const { workspaceId } = await requireCurrentWorkspace(deps.db, principalOf(res), 'sites.read');
    const subscription = await describeSubscription(deps, workspaceId);
    res.set('Cache-Control', PRIVATE).json({ success: true, subscription, billing_configured: deps.stripe !== undefined } satisfies TSubscriptionResponse);
  });

  routes.at('/api/billing').get('/usage', limitReads, async (_req, res) => {
    const { workspaceId } = await requireCurrentWorkspace(deps.db, principalOf(res), 'sites.read');
    const usage = await describeUsage(deps, workspaceId);
    res.set('Cache-Control', PRIVATE).json({ success: true, ...usage } satisfies TUsageResponse);
  });

  routes.at('/api/billing').post('/checkout', limitWrites, async (req, res) => {
    const { creator, workspaceId } = await requireCurrentWorkspace(deps.db, principalOf(res), 'billing.manage');
    const input = ZCheckoutRequestSchema.parse(req.body ?? {});
    const url = await createCheckout(deps, creator, workspaceId, input);
    res.set('Cache-Control', PRIVATE).json({ success: true, url } satisfies TBillingRedirectResponse);
  });

  routes.at('/api/billing').post('/portal', limitWrites, async (_req, res) => {
    const { creator, workspaceId } = await requireCurrentWorkspace(deps.db, principalOf(res), 'billing.manage');
    const url = await createPortal(deps, creator, workspaceId);
    res.set('Cache-Control', PRIVATE).json({ success: true, url } satisfies TBillingRedirectResponse);
  });

  routes.at('/api/billing').post('/trial', limitWrites, async (req, res) => {
    const { creator, workspaceId } = await requireCurrentWorkspace(deps.db, principalOf(res), 'billing.manage');
    const subscription = await startCreatorTrial(deps, creator.id, workspaceId, clientAddress(req));
    res
      .status(201)
      .set('Cache-Control', PRIVATE)
      .json({ success: true, subscription } satisfies TTrialResponse);
  });

  return routes.routers;
}

/** POST /api/billing/webhook: Stripe's signed events, over the raw body. */
export function createBillingWebhookRoutes(deps: TBillingDeps): TApiRouters {
  const routes = createApiRouters();
  routes.at('/api/billing').post('/webhook', express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT }), async (req, res) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const event = verifyWebhook(deps, body, req.get('stripe-signature'));
    const outcome = await applyWebhookEvent(deps, event);
    res.set('Cache-Control', 'no-store').json({ received: true, outcome });
  });
  return routes.routers;
}
