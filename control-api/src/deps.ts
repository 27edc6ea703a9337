/**
 * What the app is wired with. Built once per process by `createRuntime` (runtime.ts), tests
 * included: every piece of state a request path keeps between requests (limits, keys, caches, the
 * analytics batch, the mailer) is here, made from this runtime's own config and database, so two
 * runtimes in one process share nothing and `close()` can flush and stop all of it.
 *
 * Each area declares what it takes in its own `<area>.deps.ts`; this file, above every area, composes
 * them, and the type checker holds the runtime to every area's declaration.
 */
import type { TMetrics } from './observability/metrics.ts';
import type { THealth } from './observability/health.ts';
import type { TObjectMemo } from './files/object-memo.ts';
import type { ReadCache } from './db/read-cache.ts';
import type { TQueryCache } from './db/compiled-query.ts';
import type { TRequestLimits } from './access/request-limits.ts';
import type { RateLimiter } from './access/rate-limiter.ts';
import type { TLimiterStore } from './access/limiter-store.ts';
import type { TServerKeys } from './access/server-secret.ts';
import type { TArchiveLimiter } from './downloads/archive-budget.ts';
import type { TPublishGate } from './publishing/publish-limits.ts';
import type { Mailer } from './notifications/mailer.ts';
import type { TVerifiedVisitorCookies } from './access/visitor-cookie.ts';
import type { TAccountLimits } from './accounts/account-limits.ts';
import type { TAnalyticsBatcher } from './analytics/analytics.repository.ts';
import type { TFavoriteWriter } from './engagement/engagement.repository.ts';
import type { TViewLedger } from './analytics/view-ledger.ts';
import type { Stripe } from './billing/stripe-client.ts';
import type { TCoreDeps } from './core-deps.ts';
import type { TAccessDeps } from './access/access.deps.ts';
import type { TAccountsDeps } from './accounts/accounts.deps.ts';
import type { TAnalyticsDeps } from './analytics/analytics.deps.ts';
import type { TBillingDeps } from './billing/billing.deps.ts';
import type { TBuildsDeps } from './builds/builds.deps.ts';
import type { TCreatorsDeps } from './creators/creators.deps.ts';
import type { TDashboardApiDeps } from './dashboard-api/dashboard-api.deps.ts';
import type { TDownloadsDeps } from './downloads/downloads.deps.ts';
import type { TEdgeDeps } from './edge/edge.deps.ts';
import type { TEngagementDeps } from './engagement/engagement.deps.ts';
import type { TFilesDeps } from './files/files.deps.ts';
import type { TInboxDeps } from './inbox/inbox.deps.ts';
import type { TNotificationsDeps } from './notifications/notifications.deps.ts';
import type { TPreviewDeps } from './preview/preview.deps.ts';
import type { TPublishingDeps } from './publishing/publishing.deps.ts';
import type { TSiteManagementDeps } from './site-management/site-management.deps.ts';
import type { TSitesDeps } from './sites/sites.deps.ts';
import type { TVisitorsDeps } from './visitors/visitors.deps.ts';

/**
 * The limits of this process. Request, guess, account, form and notification limits (and view
 * claims) count in `store`: this process's memory (no Redis needed; each API process counts for
 * itself) or, with `REDIS_URL`, Redis shared by every API process. Archive budgets and the publish
 * gate stay in memory per process.
 */
export interface TProcessLimits {
  /** Where the shared limits count. */
  store: TLimiterStore;
  /** Engagement reads and writes, unlock guesses, anonymous-session lookups. */
  requests: TRequestLimits;
  /** Archive-entry extraction budgets and the ZIP slots. */
  archives: TArchiveLimiter;
  /** Publishes, their bytes, open upload sessions, previews, free space. */
  publish: TPublishGate;
  /** Notification messages per email address or Slack webhook per hour. */
  notificationDestinations: RateLimiter;
  /** Failed sign-ins and account emails. */
  accounts: TAccountLimits;
  /** Public form submissions (contact, feedback, sales, newsletter) per client address per hour. */
  forms: RateLimiter;
}

/** Answers kept in memory while they are still true. */
export interface TProcessCaches {
  /** Hot reads (on PostgreSQL kept true by change notifications, as other processes write too). */
  reads: ReadCache | undefined;
  /** Hot queries, built and compiled once. */
  queries: TQueryCache;
  /** Visitor cookies whose tag was already checked. */
  visitorCookies: TVerifiedVisitorCookies;
  /** Visitors already recorded in the visitors table. */
  knownVisitors: Set<string>;
  /** Views counted lately (a repeat within the window needs no query; on SQLite, neither does a first view). */
  views: TViewLedger;
  /** Each cached comment row's JSON as the comment list sends it, for its author and for others. */
  commentJson: WeakMap<object, { own: string; others: string }>;
  /** Small stored objects (thumbnails, display copies) by key, each for its current ETag (files/object-memo.ts). */
  storedObjects: TObjectMemo;
}

/** What the areas take, together. */
type TAreaDeps = TAccessDeps &
  TAccountsDeps &
  TAnalyticsDeps &
  TBillingDeps &
  TBuildsDeps &
  TCreatorsDeps &
  TDashboardApiDeps &
  TDownloadsDeps &
  TEdgeDeps &
  TEngagementDeps &
  TFilesDeps &
  TInboxDeps &
  TNotificationsDeps &
  TPreviewDeps &
  TPublishingDeps &
  TSiteManagementDeps &
  TSitesDeps &
  TVisitorsDeps;

export interface TAppDeps extends TCoreDeps, TAreaDeps {
  limits: TProcessLimits;
  /**
   * The cookie and unsubscribe keys, loaded before the first request. Undefined only in a
   * production process without SESSION_SECRET (the API refuses to start so; an ops command may
   * run so): every cookie then counts as absent.
   */
  keys: TServerKeys | undefined;
  mailer: Mailer;
  caches: TProcessCaches;
  /** View and download events, written in batches (one insert per turn of the event loop). */
  analytics: TAnalyticsBatcher;
  /** Favourites added and removed outside a transaction (on PostgreSQL, a turn's changes in one statement). */
  favorites: TFavoriteWriter;
  /** Stripe's API; undefined without STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (billing off). */
  stripe: Stripe | undefined;
  /** Prometheus metrics of this runtime (observability/metrics.ts). */
  metrics: TMetrics;
  /** Readiness of this process, and its switch to draining at shutdown (observability/health.ts). */
  health: THealth;
}
