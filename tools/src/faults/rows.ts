/** The rows of `npm run faults`, in the order they run (each leaves the stack whole for the next). */
import { apiKillUpload } from './api-kill-upload.ts';
import { builderKillBuild } from './builder-kill-build.ts';
import { expiryClock } from './expiry-clock.ts';
import { postgresRestartEngagement } from './postgres-restart-engagement.ts';
import { redisDownPublish } from './redis-down-publish.ts';
import type { TFaultRow } from './row.ts';
import { storageFull } from './storage-full.ts';

export const FAULT_ROWS: readonly TFaultRow[] = [apiKillUpload, builderKillBuild, redisDownPublish, postgresRestartEngagement, storageFull, expiryClock];
