/** Configuration, parsed once from the environment at start-up. Nothing else reads process.env. */
import path from 'node:path';
import { z } from 'zod';
import { PLANS } from '@dropsite/shared';

const boolText = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const ZEnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.url().optional(),
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
  REDIS_URL: z.string().optional(),
  BUILD_QUEUE_NAME: z.string().regex(/^[\w-]{1,64}$/).default('dropsite-builds'),
  RUN_BUILDER: boolText.default(true),
  BUILD_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  DERIVE_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(3),
  BUILD_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DASHBOARD_DIR: z.string().optional(),
  TRUST_PROXY: boolText.default(false),
  MAX_UPLOAD_BYTES: z.coerce.number().int().positive().optional(),
});

export type TStorageConfig =
  | { driver: 'disk'; root: string }
  | { driver: 's3'; endpoint?: string; region: string; bucket: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean };

export interface TConfig {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string;
  storage: TStorageConfig;
  redisUrl: string | undefined;
  buildQueueName: string;
  runBuilder: boolean;
  buildConcurrency: number;
  buildAttempts: number;
  /** Files one build derives at once (images decode on libvips threads, so a few overlap I/O well). */
  deriveConcurrency: number;
  logLevel: z.infer<typeof ZEnvSchema>['LOG_LEVEL'];
  dashboardDir: string;
  trustProxy: boolean;
  /** Largest delivery one anonymous or free upload may hold, in bytes. */
  maxUploadBytes: number;
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
    dataDir,
    databaseUrl: e.DATABASE_URL ?? `sqlite:${path.join(dataDir, 'dropsite.db')}`,
    storage,
    redisUrl: e.REDIS_URL || undefined,
    buildQueueName: e.BUILD_QUEUE_NAME,
    runBuilder: e.RUN_BUILDER,
    buildConcurrency: e.BUILD_CONCURRENCY,
    buildAttempts: e.BUILD_ATTEMPTS,
    deriveConcurrency: e.DERIVE_CONCURRENCY,
    logLevel: e.LOG_LEVEL,
    dashboardDir: path.resolve(cwd, e.DASHBOARD_DIR ?? path.join(import.meta.dirname, '../../../dashboard/dist')),
    trustProxy: e.TRUST_PROXY,
    maxUploadBytes: e.MAX_UPLOAD_BYTES ?? PLANS.free.maxDeliveryBytes,
  };
}
