import { afterEach, describe, expect, it, vi } from 'vitest';
import { runPeriodically } from './periodic-task.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('runPeriodically', () => {
  it('runs the task every interval, skips a turn while a run is still going, and keeps going after a failure', async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    let runs = 0;
    let release: () => void = () => {};
    const task = runPeriodically(
      async () => {
        runs++;
        if (runs === 1) throw new Error('the first run failed');
        if (runs === 2) await new Promise<void>((resolve) => (release = resolve));
      },
      { everyMs: 1000, onError: (err) => errors.push(err) },
    );
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(1);
    expect(errors).toEqual([new Error('the first run failed')]);
    await vi.advanceTimersByTimeAsync(1000); // the second run starts and hangs
    await vi.advanceTimersByTimeAsync(3000); // three turns skipped while it runs
    expect(runs).toBe(2);
    release();
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(3);
    await task.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(runs).toBe(3);
  });

  it('runs once soon after start when asked, and stop() waits for the run in progress', async () => {
    vi.useFakeTimers();
    let runs = 0;
    let finished = false;
    let release: () => void = () => {};
    const task = runPeriodically(
      async () => {
        runs++;
        await new Promise<void>((resolve) => (release = resolve));
        finished = true;
      },
      { everyMs: 60_000, firstAfterMs: 100, onError: () => {} },
    );
    await vi.advanceTimersByTimeAsync(99);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    let stopped = false;
    const stopping = task.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(finished).toBe(true);
    expect(runs).toBe(1);
  });
});
