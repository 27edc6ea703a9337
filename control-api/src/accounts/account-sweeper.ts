/**
 * Expired sessions and one-time tokens are removed every hour by the API process: they prove
 * nothing any more, and an abandoned account's rows should not pile up. (An expired session is
 * also removed when it is presented.)
 */
import type { TAppDeps } from '../deps.ts';
import { deleteAccountTokensExpiredBefore } from './accounts.repository.ts';
import { deleteExpiredSessions } from './sessions.repository.ts';

type TDeps = Pick<TAppDeps, 'db' | 'clock' | 'log'>;

const SWEEP_EVERY_MS = 3_600_000;

export async function sweepExpiredAccountRows(deps: TDeps): Promise<{ sessions: number; tokens: number }> {
  const now = deps.clock.now();
  const sessions = await deleteExpiredSessions(deps.db, now);
  const tokens = await deleteAccountTokensExpiredBefore(deps.db, now);
  return { sessions, tokens };
}

export function startAccountSweeper(deps: TDeps): { stop(): Promise<void> } {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    running ??= sweepExpiredAccountRows(deps)
      .catch((err: unknown) => deps.log.error({ err }, 'sweeping expired sessions and account tokens failed'))
      .finally(() => {
        running = undefined;
      });
  }, SWEEP_EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
