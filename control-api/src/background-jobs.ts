/**
 * The API process's periodic work: notification batches, the expired-site sweeper, the sweeper
 * of abandoned uploads and that of expired sessions and account tokens, the retry of form messages
 * whose email to the operator failed, the sweep of template asset versions no stored page uses, and
 * the reconciliation of Stripe events whose webhook was missed, and the audit log's retention. Started by the runtime of the API process (main.ts), stopped by its close().
 */
import type { TAppDeps } from './deps.ts';
import { startExpiredSiteSweeper } from './access/expired-sites.ts';
import { startAccountSweeper } from './accounts/account-sweeper.ts';
import { startNotificationDispatcher } from './notifications/notifications.service.ts';
import { startUploadSessionSweeper } from './publishing/upload-sessions.cleanup.ts';
import { startUnsentMessageSender } from './inbox/inbox.service.ts';
import { startTemplateAssetSweeper } from './builds/template-asset-sweep.ts';
import { startStripeReconciler } from './billing/reconcile.ts';
import { startAuditLogSweeper } from './members/audit-log.service.ts';

export interface TBackgroundJobs {
  /** Stops the timers and waits for work under way. */
  stop(): Promise<void>;
}

export function startBackgroundJobs(deps: TAppDeps): TBackgroundJobs {
  const jobs = [
    startNotificationDispatcher(deps),
    startExpiredSiteSweeper(deps),
    startUploadSessionSweeper(deps),
    startAccountSweeper(deps),
    startUnsentMessageSender(deps),
    startTemplateAssetSweeper(deps),
    startStripeReconciler(deps),
    startAuditLogSweeper(deps),
  ];
  return {
    async stop() {
      await Promise.all(jobs.map((job) => job.stop()));
    },
  };
}
