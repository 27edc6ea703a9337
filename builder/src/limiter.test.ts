import { describe, expect, it } from 'vitest';
import { createLimiter } from './limiter.ts';

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('createLimiter', () => {
  it('runs at most the limit at once and starts the rest in call order as slots free', async () => {
    const gate = createLimiter(2);
    const started: number[] = [];
    const tasks = Array.from({ length: 5 }, () => deferred());
    const results = tasks.map((task, i) =>
      gate(async () => {
        started.push(i);
        await task.promise;
        return i * 10;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    tasks[1]!.resolve();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    tasks[0]!.resolve();
    tasks[2]!.resolve();
    await tick();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    tasks[3]!.resolve();
    tasks[4]!.resolve();
    expect(await Promise.all(results)).toEqual([0, 10, 20, 30, 40]);
  });

  it('frees the slot of work that fails', async () => {
    const gate = createLimiter(1);
    const failing = gate(() => Promise.reject(new Error('no preview')));
    const next = gate(async () => 'ran');
    await expect(failing).rejects.toThrow('no preview');
    expect(await next).toBe('ran');
  });

  it('refuses a limit that is not a whole number of slots', () => {
    expect(() => createLimiter(0)).toThrow(RangeError);
    expect(() => createLimiter(1.5)).toThrow(RangeError);
  });
});
