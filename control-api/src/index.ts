/** Public API of the control-api package, for the ops scripts, the builder process and benchmarks. */
export { loadConfig, type TConfig } from './config/config.ts';
export { keepDataPrivate } from './config/private-data.ts';
export { createLogger, type Logger } from './logger.ts';
export { createApp } from './app.ts';
export { createRuntime, createQueue, type TRuntime } from './runtime.ts';
export type { TAppDeps } from './deps.ts';
export type { Clock } from './clock.ts';
export { enqueueSiteBuild } from './builds/builds.service.ts';
export type { Storage } from './storage/storage.ts';
export type { BuildQueue } from './queue/build-queue.ts';
export {
  rebuildSites,
  enqueueRebuilds,
  findSiteIdsForRebuild,
  type TRebuildProgress,
  type TRebuildResult,
} from './builds/rebuild.ts';
export { sweepUploadSessions, startUploadSessionSweeper, type TSweepResult } from './publishing/upload-sessions.cleanup.ts';
export { sweepExpiredSites, type TExpiredSitesSweep } from './access/expired-sites.ts';
export { sweepTemplateAssetsNow, type TTemplateAssetSweepResult } from './builds/template-asset-sweep.ts';
export { takeDownSite, restoreSite } from './site-management/takedown.ts';
export { changeSitePassword } from './sites/site-password.service.ts';
export { startBackgroundJobs, type TBackgroundJobs } from './background-jobs.ts';
export { dispatchDueNotifications } from './notifications/notifications.service.ts';
export {
  findDemoSite,
  saveDemoSite,
  listDemoSiteStates,
  recordDemoFingerprint,
  type TDemoFileInput,
  type TDemoSiteState,
} from './site-records/demo-site-records.ts';
export { recountUsage, type TUsageDrift } from './billing/usage.service.ts';
export { freeSubscriptionRow } from './billing/billing.repository.ts';
export { createOpsServer } from './observability/ops-endpoints.ts';
export { listenOps } from './observability/shutdown.ts';
export { createDatabase, type TDatabaseHandle } from './db/database.ts';
export { listMigrationStates, applyPendingMigrations, type TMigrationState } from './ops/migrations.ts';
export { readSiteStats, type TSiteStats } from './ops/site-stats.ts';
export { listSites, findSiteDetail, type TSiteListing, type TSiteDetail, type TSiteOwner } from './ops/site-directory.ts';
export { describeSiteState, SITE_STATES } from './ops/site-state.ts';
