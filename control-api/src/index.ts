/** Public API of the control-api package, for the ops scripts, the builder process and benchmarks. */
export { loadConfig, type TConfig } from './config/config.ts';
export { createLogger, type Logger } from './logger.ts';
export { createApp } from './app.ts';
export { createRuntime, createQueue, type TRuntime } from './runtime.ts';
export type { TAppDeps, Clock } from './deps.ts';
export { enqueueProjectBuild } from './builds/builds.service.ts';
export type { Storage } from './storage/storage.ts';
export type { BuildQueue } from './queue/build-queue.ts';
export { rebuildProjects, findProjectIdsForRebuild, type TRebuildProgress, type TRebuildResult } from './builds/rebuild.ts';
export { sweepUploadSessions, startUploadSessionSweeper, type TSweepResult } from './upload-sessions/upload-sessions.cleanup.ts';
export { sweepExpiredSites, type TExpiredSitesSweep } from './access/expired-sites.ts';
export { takeDownSite, restoreSite } from './site-management/takedown.ts';
export { changeSitePassword } from './sites/site-password.service.ts';
export { startBackgroundJobs, type TBackgroundJobs } from './background-jobs.ts';
export { dispatchDueNotifications } from './notifications/notifications.service.ts';
export { findDemoProject, saveDemoProject, listDemoSiteStates, recordDemoFingerprint, type TDemoFileInput, type TDemoSiteState } from './projects/demo-projects.ts';
export { recountUsage, type TUsageDrift } from './billing/usage.service.ts';
export { freeSubscriptionRow } from './billing/billing.repository.ts';
