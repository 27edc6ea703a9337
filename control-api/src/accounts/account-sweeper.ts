/**
 * Expired sessions (idle for 30 days, or 90 days past their sign-in) and one-time tokens are removed every hour by the API process: they prove
 * nothing any more, and an abandoned account's rows should not pile up. (An expired session is
 * also removed when it is presented.)
 */
import type { TAccountsDeps } from './accounts.deps.ts';
import { deleteAccountTokensExpiredBefore } from './accounts.repository.ts';
import { deleteExpiredSessions } from './sessions.repository.ts';
import { sessionsEndedOpenedBy } from './sessions.ts';
import { runPeriodically, type TPeriodicTask } from '../periodic-task.ts';

type TDeps = Pick<TAccountsDeps, 'db' | 'clock' | 'log'>;

const SWEEP_EVERY_MS = 3_600_000;

export async function sweepExpiredAccountRows(deps: TDeps): Promise<{ sessions: number; tokens: number }> {
  const now = deps.clock.now();
  const sessions = await deleteExpiredSessions(deps.db, now, sessionsEndedOpenedBy(now));
  const tokens = await deleteAccountTokensExpiredBefore(deps.db, now);
  return { sessions, tokens };
}

export function startAccountSweeper(deps: TDeps): TPeriodicTask {
  return runPeriodically(() => sweepExpiredAccountRows(deps), {
    everyMs: SWEEP_EVERY_MS,
    onError: (err) => deps.log.error({ err }, 'sweeping expired sessions and account tokens failed'),
  });
}
