/**
 * What the test kit, the benchmarks and the developer tools use of control-api beyond its public API
 * (index.ts). The product's own code imports the modules themselves, never this file.
 */
export { CREATOR_SESSION_COOKIE, cookieName } from './access/cookies.ts';
export type { TLimiterStore } from './access/limiter-store.ts';
export { insertCreator } from './accounts/accounts.repository.ts';
export { createSession } from './accounts/sessions.ts';
export { ensureSubscriptionRow } from './billing/billing.repository.ts';
export { loadBuildInput } from './builds/build-input.ts';
export type { TBillingConfig } from './config/config.ts';
export { migrateToLatest, type TDialect } from './db/database.ts';
export { newId } from './db/ids.ts';
export type { TBuildRow, TFileRow, TNewFile, TSiteRow, TNewSite, UploadFilesTable, UploadSessionsTable } from './db/tables.ts';
export { AppError } from './http/app-error.ts';
export { escapeHtml } from './http/escape-html.ts';
export type { Mailer, TMailMessage } from './notifications/mailer.ts';
export {
  createSiteWithFiles,
  insertFiles,
  insertSite,
  listFilesBySite,
} from './site-records/site-records.repository.ts';
export { createInlineQueue } from './queue/inline-queue.ts';
export { hashPassword } from './sites/password-hash.ts';
export { createStorage, type TStorageConfig } from './storage/create-storage.ts';
export { createAssembly } from './publishing/assembly.ts';
export { createChunkReceipt, type TChunkInput } from './publishing/chunk-receipt.ts';
export { createRunningFileHashes } from './publishing/running-file-hash.ts';
export { createSessionLifecycle, type TInitInput } from './publishing/session-lifecycle.ts';
export { createStoredChunkCheck } from './publishing/stored-chunk-check.ts';
