/**
 * New engagement without a reload: while the page is visible, ask every 15 s for what happened on
 * the project since the server's last answer. A hidden tab asks nothing, and asks at once on its
 * return. Each answer with news bumps the revision the project's views refetch on.
 */
import { useEffect, useState } from 'react';
import { ACTIVITY_POLL_MS, fetchActivitySince } from '../../dashboard-api/dashboard-api.ts';
import type { TActivity } from '@dropsite/shared';

export interface TActivityPoller {
  stop(): void;
}

interface TPollerEnvironment {
  fetchSince: (since: string | null) => Promise<{ activity: TActivity[]; now: string }>;
  onActivity: (activity: TActivity[]) => void;
  isVisible: () => boolean;
  onVisibilityChange: (listener: () => void) => () => void;
  setTimer: (run: () => void, ms: number) => () => void;
  startedAt: string;
  intervalMs?: number;
}

/** The polling loop itself, free of React and the DOM so it can be tested with a fake clock. */
export function startActivityPoller(env: TPollerEnvironment): TActivityPoller {
  const interval = env.intervalMs ?? ACTIVITY_POLL_MS;
  let since: string | null = env.startedAt;
  let cancelTimer: (() => void) | null = null;
  let isRunning = false;
  let isStopped = false;

  const schedule = () => {
    cancelTimer?.();
    cancelTimer = isStopped || !env.isVisible() ? null : env.setTimer(poll, interval);
  };

  async function poll() {
    if (isRunning || isStopped) return;
    isRunning = true;
    try {
      const answer = await env.fetchSince(since);
      if (isStopped) return;
      since = answer.now;
      if (answer.activity.length > 0) env.onActivity(answer.activity);
    } catch {
      // A lost poll is retried at the next tick; the page keeps what it shows.
    } finally {
      isRunning = false;
      schedule();
    }
  }

  const stopListening = env.onVisibilityChange(() => {
    if (env.isVisible()) void poll();
    else schedule();
  });
  schedule();

  return {
    stop() {
      isStopped = true;
      cancelTimer?.();
      stopListening();
    },
  };
}

/** The revision of a project's engagement (0, then +1 for each poll that brought news) and the latest news. */
export function useLiveActivity(projectId: string): { revision: number; latest: TActivity[] } {
  const [state, setState] = useState<{ revision: number; latest: TActivity[] }>({ revision: 0, latest: [] });

  useEffect(() => {
    const poller = startActivityPoller({
      fetchSince: (since) => fetchActivitySince(projectId, since),
      onActivity: (activity) => setState((previous) => ({ revision: previous.revision + 1, latest: activity })),
      isVisible: () => document.visibilityState === 'visible',
      onVisibilityChange: (listener) => {
        document.addEventListener('visibilitychange', listener);
        return () => document.removeEventListener('visibilitychange', listener);
      },
      setTimer: (run, ms) => {
        const timer = window.setTimeout(run, ms);
        return () => window.clearTimeout(timer);
      },
      startedAt: new Date().toISOString(),
    });
    return () => poller.stop();
  }, [projectId]);

  return state;
}
