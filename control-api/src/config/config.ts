/** Configuration, parsed once from the environment at start-up. Nothing else reads process.env. */
import path from 'node:path';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { ARCHIVE_ENTRY_LIMITS, EXPIRED_SITE_GRACE_DAYS, PAID_PLAN_IDS, PLAN_IDS, type TBillingInterval, type TPaidPlanId, type TPlanId } from '@dropsite/shared';
import { ZTrustProxySchema, type TTrustProxy } from './trust-proxy.ts';

const boolText = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

const ZEnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.url().optional(),
  ALLOWED_ORIGINS: z.string().default(''),
  DATA_DIR: z.string().default('data'),
  DATABASE_URL: z.string().optional(),
  STORAGE_DRIVER: z.enum(['disk', 's3']).optional(),
  STORAGE_DIR: z.string().optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: boolText.default(true),
  EDGE_PUBLIC_PAGES: boolText.optional(),
  EDGE_CACHE_SECONDS: z.coerce.number().min(0).max(4).default(0),
  REDIS_URL: z.string().optional(),
  BUILD_QUEUE_NAME: z
    .string()
    .regex(/^[\w-]{1,64}$/)
    .default('dropsite-builds'),
  RUN_BUILDER: boolText.default(true),
  DEMO_SITES: boolText.default(true),
  BUILD_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(8),
  DERIVE_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(3),
  /** Empty: one per core, at most 4 (see buildRenderThreads). */
  BUILD_RENDER_THREADS: z.union([z.literal(''), z.coerce.number().int().min(0).max(16)]).default(''),
  BUILD_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  OPS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  OPS_HOST: z.string().default('127.0.0.1'),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(600).default(25),
  DASHBOARD_DIR: z.string().optional(),
  HTTP_HEADERS_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(30),
  HTTP_REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(120),
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(5),
  HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(2_000),
  UPLOAD_IDLE_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(60),
  /** 0: no minimum (only the idle timer). */
  UPLOAD_MIN_BYTES_PER_SECOND: z.coerce
    .number()
    .int()
    .min(0)
    .default(8 * 1024),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(128),
  UPLOAD_CHUNKS_IN_FLIGHT_PER_SESSION: z.coerce.number().int().min(1).max(1_000).default(6),
  UPLOAD_CHUNKS_IN_FLIGHT_PER_ADDRESS: z.coerce.number().int().min(1).max(10_000).default(24),
  TRUST_PROXY: ZTrustProxySchema,
  MAX_UPLOAD_BYTES: z.coerce.number().int().positive().optional(),
  UPLOAD_SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(24),
  // Engagement, access and notifications.
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  NODE_ENV: z.string().optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  SMTP_FROM: z.string().min(3).max(320).optional(),
  OPERATOR_EMAIL: z.string().max(320).optional(),
  NOTIFY_BATCH_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  NOTIFY_MAX_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(20),
  NOTIFY_MAX_RECIPIENTS_PER_DAY: z.coerce.number().int().min(1).max(100_000).default(5),
  SLACK_WEBHOOK_ORIGINS: z.string().default('https://hooks.slack.com'),
  VIEW_DEDUPE_MINUTES: z.coerce.number().int().min(0).max(10_080).default(30),
  EXPIRED_SITE_GRACE_DAYS: z.coerce.number().min(0).max(3650).default(EXPIRED_SITE_GRACE_DAYS),
  EXPIRED_SITE_SWEEP_MINUTES: z.coerce.number().min(1).max(10_080).default(60),
  TEMPLATE_ASSETS_GRACE_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 365)
    .default(24),
  RATE_LIMIT_READS_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  RATE_LIMIT_WRITES_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  RATE_LIMIT_SITE_WRITES_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
  RATE_LIMIT_UNLOCK_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_UNLOCK_SITE_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  RATE_LIMIT_LOOKUP_MISSES_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  // Creator accounts (accounts/account-limits.ts).
  SIGN_IN_FAILURES_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).default(30),
  SIGN_IN_FAILURES_PER_ACCOUNT_PER_HOUR: z.coerce.number().int().min(1).default(10),
  ACCOUNT_EMAILS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).default(5),
  // The public forms (contact, feedback, Contact Sales, newsletter), all together (inbox/).
  FORM_SUBMISSIONS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).default(10),
  // Anonymous publishing: per client address and per anonymous creator (publish-limits.ts).
  PUBLISH_LIMIT_PER_HOUR: z.coerce.number().int().min(1).default(10),
  PUBLISH_BYTES_PER_DAY: z.coerce
    .number()
    .int()
    .min(1)
    .default(5 * 1024 ** 3),
  OPEN_UPLOAD_SESSIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(5),
  PREVIEW_LIMIT_PER_HOUR: z.coerce.number().int().min(1).default(60),
  STORAGE_MIN_FREE_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(1024 ** 3),
  STORAGE_MIN_FREE_PERCENT: z.coerce.number().min(0).max(100).default(5),
  STORAGE_BYTE_BUDGET: z.coerce.number().int().positive().optional(),
  // Defaults from the shared rule the builder marks archive trees with (archive-rules.ts).
  ARCHIVE_ENTRY_MAX_BYTES: z.coerce.number().int().min(1).default(ARCHIVE_ENTRY_LIMITS.entryMaxBytes),
  ARCHIVE_ENTRY_BYTES_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .default(2 * 1024 ** 3),
  ARCHIVE_ENTRY_MAX_RATIO: z.coerce.number().min(1).max(1100).default(ARCHIVE_ENTRY_LIMITS.entryMaxRatio),
  ZIP_MAX_CONCURRENT: z.coerce.number().int().min(1).max(1000).default(8),
  // Billing (billing/). Without both keys billing is off: plans are shown, checkout answers 503.
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  STRIPE_PRICE_PRO_MONTHLY: z.string().min(1).optional(),
  STRIPE_PRICE_PRO_YEARLY: z.string().min(1).optional(),
  STRIPE_PRICE_BUSINESS_MONTHLY: z.string().min(1).optional(),
  STRIPE_PRICE_BUSINESS_YEARLY: z.string().min(1).optional(),
  /** Where the Stripe SDK sends its calls instead of api.stripe.com (a local stand-in in tests), e.g. http://127.0.0.1:12111. */
  STRIPE_API_URL: z.url().optional(),
  STRIPE_WEBHOOK_TOLERANCE_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
  /** How often the API asks Stripe for events whose webhook was not delivered, and applies those it missed; 0 turns it off. */
  STRIPE_RECONCILE_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(900),
  /** Pro trials started from one client address (an IPv6 /64 counts as one) in 30 days. */
  TRIALS_PER_ADDRESS: z.coerce.number().int().min(0).max(1000).default(1),
  DEFAULT_PLAN: z.enum(PLAN_IDS).default('free'),
});

export type TStorageConfig =
  | { driver: 'disk'; root: string }
  | { driver: 's3'; endpoint?: string; region: string; bucket: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean };

export interface TConfig {
  port: number;
  host: string;
  publicUrl: string;
  /** Origins besides PUBLIC_URL's whose browser pages may call the API's state-changing routes. */
  allowedOrigins: string[];
  dataDir: string;
  databaseUrl: string;
  storage: TStorageConfig;
  /**
   * Builds copy the page of a site that is public right now to public/{slug}/ with the headers the
   * edge sends (public-page.ts; deploy/edge.conf serves it without an API process). Access changes
   * remove the copy whatever this says.
   */
  edgePublicPages: boolean;
  /**
   * How long the edge may keep a public page (deploy/edge.conf's proxy_cache_valid): a change that
   * takes access away waits this long (and a margin) after removing the copy before it answers.
   */
  edgeCacheMs: number;
  redisUrl: string | undefined;
  buildQueueName: string;
  runBuilder: boolean;
  /** Whether the API process builds the demo sites at start-up when one is missing or out of date (demo-sites.ts). */
  demoSites: boolean;
  buildConcurrency: number;
  /** Threads that render and compress site pages in a builder; 0 renders on the event loop's thread. */
  buildRenderThreads: number;
  buildAttempts: number;
  /** Files one build derives at once (images decode on libvips threads, so a few overlap I/O well). */
  deriveConcurrency: number;
  logLevel: z.infer<typeof ZEnvSchema>['LOG_LEVEL'];
  /**
   * The operator's endpoints. /healthz and /readyz answer on the main port; /metrics there only to
   * `Authorization: Bearer <metricsToken>`. With `port` set, a second listener on `host` answers all
   * three without a token (the builder process has only this one).
   */
  ops: { port: number | undefined; host: string; metricsToken: string | undefined };
  /** On SIGTERM, how long in-flight requests (uploads included) and builds may take before they are cut off. */
  shutdownGraceMs: number;
  dashboardDir: string;
  /** Proxies trusted to report the client's address: none, a hop count, or their addresses (trust-proxy.ts). */
  trustProxy: TTrustProxy;
  /** Caps every plan's largest delivery, in bytes, when set (MAX_UPLOAD_BYTES); the plans' own limits apply otherwise. */
  maxUploadBytes: number | undefined;
  /** An upload session no chunk or call has touched for this long is abandoned: its bytes are removed. */
  uploadSessionTtlMs: number;
  /** Key for unlock cookies; when unset, a random one is kept in the database (shared by every API process). */
  sessionSecret: string | undefined;
  /** NODE_ENV is production: the API then requires SESSION_SECRET (no cookie key kept in the database). */
  production: boolean;
  notifications: TNotificationConfig;
  /** A visitor's views of one site (or file) count once per this many minutes. */
  viewDedupeMinutes: number;
  /** Expired sites' files and rows are removed this long after the expiry. */
  expiredSiteGraceDays: number;
  expiredSiteSweepMinutes: number;
  /**
   * How long an old template version's bundles stay after the asset sweep first found no stored page
   * referring to them (a visitor may still have such a page open and load an island later).
   */
  templateAssetsGraceMs: number;
  rateLimits: TRateLimitConfig;
  accountLimits: TAccountLimitConfig;
  /** Contact, feedback, Contact Sales and newsletter submissions one client address may send per hour, all forms together. */
  formSubmissionsPerAddressPerHour: number;
  /** Slow clients: deadlines for headers and ordinary bodies, idle timers, connection count. */
  http: {
    headersTimeoutMs: number;
    /** An ordinary (non-upload) request's whole body must arrive within this. */
    requestTimeoutMs: number;
    keepAliveTimeoutMs: number;
    /** An upload is cut after this long without a byte (uploads have no total deadline). */
    uploadIdleTimeoutMs: number;
    /**
     * An upload whose body arrives slower than this on average over the last `uploadRateWindowMs`
     * is cut (0: no minimum). The first window is not judged: a body may start slowly.
     */
    uploadMinBytesPerSecond: number;
    /** 60 s, or the idle timeout when that is longer. */
    uploadRateWindowMs: number;
    maxConnections: number;
    /**
     * Connections one client address may hold open; past it a new one is closed at once. Applies only
     * without TRUST_PROXY: behind a proxy every connection comes from the proxy, which keeps this cap
     * per client itself (deploy/edge.conf's limit_conn).
     */
    maxConnectionsPerAddress: number;
    /** Chunk uploads of one upload session, and of one client address, received at once; more answer 429 with Retry-After. */
    chunksInFlightPerSession: number;
    chunksInFlightPerAddress: number;
  };
  publishLimits: TPublishLimitConfig;
  archives: TArchiveConfig;
  billing: TBillingConfig;
}

/** Stripe, and the plan everyone without a paid one is on. */
export interface TBillingConfig {
  /** Undefined without STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET: checkout and portal answer 503 billing_not_configured. */
  stripe: TStripeConfig | undefined;
  /** The plan of every creator without a paid plan or trial (DEFAULT_PLAN, default free). */
  defaultPlan: TPlanId;
  /** Trials one client address may start in TRIAL_ADDRESS_WINDOW_DAYS (TRIALS_PER_ADDRESS, default 1). */
  trialsPerAddress: number;
}

export interface TStripeConfig {
  secretKey: string;
  webhookSecret: string;
  /** Signed webhooks older than this are refused (Stripe's default 300 s). */
  webhookToleranceSeconds: number;
  /** Price id per paid plan and interval; a missing one cannot be bought. */
  prices: Partial<Record<TPaidPlanId, Partial<Record<TBillingInterval, string>>>>;
  /** The API's host instead of api.stripe.com (tests: the local stand-in). */
  api: { host: string; port: number; protocol: 'http' | 'https' } | undefined;
  /** How often undelivered events are fetched from Stripe and applied (STRIPE_RECONCILE_INTERVAL_SECONDS); 0: never. */
  reconcileEveryMs: number;
}

/** What extracting archive entries and streaming ZIPs may cost (inflating is CPU the visitor does not pay for). */
export interface TArchiveConfig {
  /** Uncompressed bytes one /entry request may extract, all its entries together. */
  entryMaxBytes: number;
  /** Uncompressed bytes of archive entries one client address may extract per minute. */
  entryBytesPerMinute: number;
  /** An entry claiming more than this many bytes per compressed byte (past the first MiB) is not extracted. */
  entryMaxRatio: number;
  /** Archive-entry and ZIP downloads one API process streams at once; more get 503 with Retry-After. */
  maxConcurrentZips: number;
}

export interface TNotificationConfig {
  /** SMTP server for notification email; without it messages go to DATA_DIR/outbox as .eml. */
  smtpUrl: string | undefined;
  smtpFrom: string;
  operatorEmail: string | undefined;
  /** One message per site and channel per this many seconds, summarising the burst. */
  batchSeconds: number;
  /** Messages one email address or webhook receives per hour at most. */
  maxPerHour: number;
  /** Distinct notification addresses one client address may give per day (wizard or email modal); more answer 429. */
  maxRecipientsPerDay: number;
  /** Origins Slack webhooks may point at (anything else is never called). */
  slackWebhookOrigins: string[];
}

/** What anonymous publishing may take, per client address and per anonymous creator (in memory, per API process). */
export interface TPublishLimitConfig {
  /** Publishes (one-request uploads and upload-session inits) per hour. */
  perHour: number;
  /** Declared bytes of those publishes per day. */
  bytesPerDay: number;
  /** Upload sessions one address may have open (not completed, cancelled or expired). */
  openSessionsPerAddress: number;
  /** Draft previews per hour. */
  previewsPerHour: number;
  /** Disk storage: an upload that would leave less free than the larger of these is refused with 507. */
  minFreeBytes: number;
  minFreePercent: number;
  /** Most bytes of uploaded files kept, counted from the database (any driver; for S3 the only high-water mark). */
  storageByteBudget: number | undefined;
}

/** Requests per minute, per client address unless named per site; bursts up to the same number. */
export interface TRateLimitConfig {
  readsPerMinute: number;
  writesPerMinute: number;
  siteWritesPerMinute: number;
  unlockPerMinute: number;
  unlockSitePerMinute: number;
  lookupMissesPerMinute: number;
}

/** Creator accounts: failed sign-ins per client address and per account, account emails (links) per recipient; each per hour. */
export interface TAccountLimitConfig {
  signInFailuresPerAddressPerHour: number;
  signInFailuresPerAccountPerHour: number;
  emailsPerAddressPerHour: number;
}

/** Parses the environment; throws one readable error listing every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): TConfig {
  const parsed = ZEnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(cwd, e.DATA_DIR);
  const driver = e.STORAGE_DRIVER ?? (e.S3_BUCKET ? 's3' : 'disk');
  let storage: TStorageConfig;
  if (driver === 's3') {
    if (!e.S3_BUCKET) throw new Error('Invalid configuration:\n  S3_BUCKET: required when STORAGE_DRIVER is s3');
    storage = {
      driver: 's3',
      region: e.S3_REGION,
      bucket: e.S3_BUCKET,
      forcePathStyle: e.S3_FORCE_PATH_STYLE,
      ...(e.S3_ENDPOINT ? { endpoint: e.S3_ENDPOINT } : {}),
      ...(e.S3_ACCESS_KEY_ID ? { accessKeyId: e.S3_ACCESS_KEY_ID } : {}),
      ...(e.S3_SECRET_ACCESS_KEY ? { secretAccessKey: e.S3_SECRET_ACCESS_KEY } : {}),
    };
  } else {
    storage = { driver: 'disk', root: path.resolve(cwd, e.STORAGE_DIR ?? path.join(dataDir, 'storage')) };
  }
  const port = e.PORT;
  return {
    port,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    allowedOrigins: parseOrigins(e.ALLOWED_ORIGINS, 'ALLOWED_ORIGINS'),
    dataDir,
    databaseUrl: e.DATABASE_URL ?? `sqlite:${path.join(dataDir, 'dropsite.db')}`,
    storage,
    edgePublicPages: e.EDGE_PUBLIC_PAGES ?? storage.driver === 's3',
    edgeCacheMs: Math.round(e.EDGE_CACHE_SECONDS * 1000),
    redisUrl: e.REDIS_URL || undefined,
    buildQueueName: e.BUILD_QUEUE_NAME,
    runBuilder: e.RUN_BUILDER,
    demoSites: e.DEMO_SITES,
    buildConcurrency: e.BUILD_CONCURRENCY,
    buildRenderThreads: e.BUILD_RENDER_THREADS === '' ? Math.min(4, availableParallelism()) : e.BUILD_RENDER_THREADS,
    buildAttempts: e.BUILD_ATTEMPTS,
    deriveConcurrency: e.DERIVE_CONCURRENCY,
    logLevel: e.LOG_LEVEL,
    ops: { port: e.OPS_PORT, host: e.OPS_HOST, metricsToken: e.METRICS_TOKEN },
    shutdownGraceMs: Math.round(e.SHUTDOWN_GRACE_SECONDS * 1000),
    dashboardDir: path.resolve(cwd, e.DASHBOARD_DIR ?? path.join(import.meta.dirname, '../../../dashboard/dist')),
    trustProxy: e.TRUST_PROXY,
    maxUploadBytes: e.MAX_UPLOAD_BYTES,
    uploadSessionTtlMs: Math.round(e.UPLOAD_SESSION_TTL_HOURS * 3_600_000),
    sessionSecret: e.SESSION_SECRET,
    production: e.NODE_ENV === 'production',
    notifications: {
      smtpUrl: e.SMTP_URL,
      smtpFrom: e.SMTP_FROM ?? `Dropsite <notifications@${hostnameOf(e.PUBLIC_URL) ?? 'localhost'}>`,
      operatorEmail: e.OPERATOR_EMAIL || undefined,
      batchSeconds: e.NOTIFY_BATCH_SECONDS,
      maxPerHour: e.NOTIFY_MAX_PER_HOUR,
      maxRecipientsPerDay: e.NOTIFY_MAX_RECIPIENTS_PER_DAY,
      slackWebhookOrigins: parseOrigins(e.SLACK_WEBHOOK_ORIGINS, 'SLACK_WEBHOOK_ORIGINS'),
    },
    viewDedupeMinutes: e.VIEW_DEDUPE_MINUTES,
    expiredSiteGraceDays: e.EXPIRED_SITE_GRACE_DAYS,
    expiredSiteSweepMinutes: e.EXPIRED_SITE_SWEEP_MINUTES,
    templateAssetsGraceMs: Math.round(e.TEMPLATE_ASSETS_GRACE_HOURS * 3_600_000),
    http: {
      headersTimeoutMs: Math.round(e.HTTP_HEADERS_TIMEOUT_SECONDS * 1000),
      requestTimeoutMs: Math.round(e.HTTP_REQUEST_TIMEOUT_SECONDS * 1000),
      keepAliveTimeoutMs: Math.round(e.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS * 1000),
      uploadIdleTimeoutMs: Math.round(e.UPLOAD_IDLE_TIMEOUT_SECONDS * 1000),
      uploadMinBytesPerSecond: e.UPLOAD_MIN_BYTES_PER_SECOND,
      uploadRateWindowMs: Math.max(60_000, Math.round(e.UPLOAD_IDLE_TIMEOUT_SECONDS * 1000)),
      maxConnections: e.HTTP_MAX_CONNECTIONS,
      maxConnectionsPerAddress: e.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
      chunksInFlightPerSession: e.UPLOAD_CHUNKS_IN_FLIGHT_PER_SESSION,
      chunksInFlightPerAddress: e.UPLOAD_CHUNKS_IN_FLIGHT_PER_ADDRESS,
    },
    rateLimits: {
      readsPerMinute: e.RATE_LIMIT_READS_PER_MINUTE,
      writesPerMinute: e.RATE_LIMIT_WRITES_PER_MINUTE,
      siteWritesPerMinute: e.RATE_LIMIT_SITE_WRITES_PER_MINUTE,
      unlockPerMinute: e.RATE_LIMIT_UNLOCK_PER_MINUTE,
      unlockSitePerMinute: e.RATE_LIMIT_UNLOCK_SITE_PER_MINUTE,
      lookupMissesPerMinute: e.RATE_LIMIT_LOOKUP_MISSES_PER_MINUTE,
    },
    accountLimits: {
      signInFailuresPerAddressPerHour: e.SIGN_IN_FAILURES_PER_ADDRESS_PER_HOUR,
      signInFailuresPerAccountPerHour: e.SIGN_IN_FAILURES_PER_ACCOUNT_PER_HOUR,
      emailsPerAddressPerHour: e.ACCOUNT_EMAILS_PER_ADDRESS_PER_HOUR,
    },
    formSubmissionsPerAddressPerHour: e.FORM_SUBMISSIONS_PER_ADDRESS_PER_HOUR,
    publishLimits: {
      perHour: e.PUBLISH_LIMIT_PER_HOUR,
      bytesPerDay: e.PUBLISH_BYTES_PER_DAY,
      openSessionsPerAddress: e.OPEN_UPLOAD_SESSIONS_PER_ADDRESS,
      previewsPerHour: e.PREVIEW_LIMIT_PER_HOUR,
      minFreeBytes: e.STORAGE_MIN_FREE_BYTES,
      minFreePercent: e.STORAGE_MIN_FREE_PERCENT,
      storageByteBudget: e.STORAGE_BYTE_BUDGET,
    },
    archives: {
      entryMaxBytes: e.ARCHIVE_ENTRY_MAX_BYTES,
      entryBytesPerMinute: e.ARCHIVE_ENTRY_BYTES_PER_MINUTE,
      entryMaxRatio: e.ARCHIVE_ENTRY_MAX_RATIO,
      maxConcurrentZips: e.ZIP_MAX_CONCURRENT,
    },
    billing: { stripe: stripeConfigOf(e), defaultPlan: e.DEFAULT_PLAN, trialsPerAddress: e.TRIALS_PER_ADDRESS },
  };
}

function stripeConfigOf(e: z.infer<typeof ZEnvSchema>): TStripeConfig | undefined {
  if (!e.STRIPE_SECRET_KEY || !e.STRIPE_WEBHOOK_SECRET) return undefined;
  const given: Record<TPaidPlanId, Record<TBillingInterval, string | undefined>> = {
    pro_monthly: { monthly: e.STRIPE_PRICE_PRO_MONTHLY, yearly: e.STRIPE_PRICE_PRO_YEARLY },
    business_monthly: { monthly: e.STRIPE_PRICE_BUSINESS_MONTHLY, yearly: e.STRIPE_PRICE_BUSINESS_YEARLY },
  };
  const prices: TStripeConfig['prices'] = {};
  for (const plan of PAID_PLAN_IDS) {
    for (const [interval, price] of Object.entries(given[plan]) as [TBillingInterval, string | undefined][]) {
      if (price) prices[plan] = { ...prices[plan], [interval]: price };
    }
  }
  let api: TStripeConfig['api'];
  if (e.STRIPE_API_URL) {
    const url = new URL(e.STRIPE_API_URL);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    api = { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
  }
  return {
    secretKey: e.STRIPE_SECRET_KEY,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET,
    webhookToleranceSeconds: e.STRIPE_WEBHOOK_TOLERANCE_SECONDS,
    prices,
    api,
    reconcileEveryMs: e.STRIPE_RECONCILE_INTERVAL_SECONDS * 1000,
  };
}

function hostnameOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).hostname || undefined;
  } catch {
    return undefined;
  }
}

/** Comma-separated origins; each must be an http(s) URL, reduced to its origin. */
function parseOrigins(text: string, name: string): string[] {
  const origins: string[] = [];
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    let url: URL;
    try {
      url = new URL(part);
    } catch {
      throw new Error(`Invalid configuration:\n  ${name}: ${JSON.stringify(part)} is not a URL`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`Invalid configuration:\n  ${name}: ${part} must be http(s)`);
    origins.push(url.origin);
  }
  return origins;
}
