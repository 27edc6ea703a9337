/**
 * Liveness and readiness. /healthz says the process is up and answering. /readyz says whether it
 * should be sent work: the database answers, the queue is reachable, the store answers, every
 * migration this code knows has run, and the process is not shutting down. A failing check names
 * itself without its error (the error goes to the log); checks time out rather than hang.
 */
import { sql, type Kysely } from 'kysely';
import { READINESS_PROBE_KEY } from '@dropsite/shared';
import type { Database } from '../db/tables.ts';
import { listMigrationStates } from '../ops/migrations.ts';
import type { BuildQueue } from '../queue/build-queue.ts';
import type { Storage } from '../storage/storage.ts';
import type { Logger } from '../logger.ts';

export type TCheckName = 'database' | 'migrations' | 'queue' | 'storage';
export type TCheckResult = 'ok' | 'timed out' | 'unreachable' | `${number} pending`;

export interface TReadiness {
  ready: boolean;
  /** True once shutdown began: not ready, whatever the checks say. */
  draining: boolean;
  checks: Record<TCheckName, TCheckResult>;
}

export interface THealth {
  /** The readiness of this process, checked at most once per `cacheMs` however often it is asked. */
  readiness(): Promise<TReadiness>;
  /** From now on, not ready: load balancers stop sending requests while in-flight ones finish. */
  startDraining(): void;
}

export interface THealthDeps {
  db: Kysely<Database>;
  queue: Pick<BuildQueue, 'counts'>;
  storage: Pick<Storage, 'head'>;
  log: Logger;
}

const CHECK_TIMEOUT_MS = 2_000;
const CACHE_MS = 1_000;

export function createHealth(deps: THealthDeps, options: { timeoutMs?: number; cacheMs?: number } = {}): THealth {
  const timeoutMs = options.timeoutMs ?? CHECK_TIMEOUT_MS;
  const cacheMs = options.cacheMs ?? CACHE_MS;
  let draining = false;
  // Once every migration has run it stays run; the database is asked again only until then.
  let migrationsCurrent = false;
  let last: { at: number; result: Promise<Omit<TReadiness, 'draining' | 'ready'>> } | undefined;

  const check = async (name: TCheckName, probe: () => Promise<TCheckResult>): Promise<TCheckResult> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<TCheckResult>((resolve) => {
      timer = setTimeout(() => resolve('timed out'), timeoutMs);
    });
    try {
      const result = await Promise.race([probe(), timeout]);
      if (result !== 'ok') deps.log.warn({ check: name, result }, 'readiness check failed');
      return result;
    } catch (err) {
      deps.log.warn({ err, check: name }, 'readiness check failed');
      return 'unreachable';
    } finally {
      clearTimeout(timer);
    }
  };

  const runChecks = async () => {
    const [database, migrations, queue, storage] = await Promise.all([
      check('database', async () => {
        await sql`select 1`.execute(deps.db);
        return 'ok';
      }),
      check('migrations', async () => {
        if (migrationsCurrent) return 'ok';
        const pending = (await listMigrationStates(deps.db)).filter((m) => m.appliedAt === null);
        migrationsCurrent = pending.length === 0;
        return migrationsCurrent ? 'ok' : `${pending.length} pending`;
      }),
      check('queue', async () => {
        await deps.queue.counts();
        return 'ok';
      }),
      check('storage', async () => {
        await deps.storage.head(READINESS_PROBE_KEY);
        return 'ok';
      }),
    ]);
    return { checks: { database, migrations, queue, storage } };
  };

  return {
    async readiness() {
      const now = Date.now();
      if (!last || now - last.at >= cacheMs) last = { at: now, result: runChecks() };
      const { checks } = await last.result;
      const allOk = Object.values(checks).every((c) => c === 'ok');
      return { ready: allOk && !draining, draining, checks };
    },
    startDraining() {
      draining = true;
    },
  };
}
