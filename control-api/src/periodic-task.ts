/**
 * The API process's periodic work (sweepers, retries, the notification dispatcher): a task run every
 * `everyMs`, never two runs at once (a turn that comes while a run is still going is skipped), a
 * failed run logged and the next turn tried as usual. The timer never keeps the process alive;
 * stop() clears it and waits for a run in progress.
 */
export interface TPeriodicTask {
  stop(): Promise<void>;
}

export function runPeriodically(task: () => Promise<unknown>, options: { everyMs: number; onError: (err: unknown) => void; firstAfterMs?: number }): TPeriodicTask {
  let running: Promise<unknown> | undefined;
  const run = () => {
    running ??= task()
      .catch(options.onError)
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(run, options.everyMs);
  timer.unref();
  const first = options.firstAfterMs === undefined ? undefined : setTimeout(run, options.firstAfterMs);
  first?.unref();
  return {
    async stop() {
      clearInterval(timer);
      if (first) clearTimeout(first);
      await running;
    },
  };
}
