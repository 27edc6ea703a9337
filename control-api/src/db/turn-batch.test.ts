import { describe, expect, it } from 'vitest';
import { createTurnBatcher } from './turn-batch.ts';

describe('createTurnBatcher', () => {
  it('runs the calls of one turn together, each answered with its own output', async () => {
    const runs: number[][] = [];
    const double = createTurnBatcher(async (inputs: readonly number[]) => {
      runs.push([...inputs]);
      return inputs.map((n) => n * 2);
    });
    expect(await Promise.all([double(1), double(2), double(3)])).toEqual([2, 4, 6]);
    expect(await double(4)).toBe(8);
    expect(runs).toEqual([[1, 2, 3], [4]]);
  });

  it('fails every call of a batch that fails, and none of the next', async () => {
    let fail = true;
    const answer = createTurnBatcher(async (inputs: readonly string[]) => {
      if (fail) throw new Error('database gone');
      return inputs.map((s) => s.toUpperCase());
    });
    const failed = await Promise.allSettled([answer('a'), answer('b')]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await answer('c')).toBe('C');
  });

  it('with maxRunning, runs no more batches at once, and the calls made meanwhile together once one ends', async () => {
    const runs: number[][] = [];
    const gates: Array<() => void> = [];
    const held = createTurnBatcher(
      async (inputs: readonly number[]) => {
        runs.push([...inputs]);
        await new Promise<void>((resolve) => gates.push(resolve));
        return inputs.map((n) => -n);
      },
      { maxRunning: 1 },
    );
    const first = held(1);
    await expect.poll(() => runs.length).toBe(1);
    // Asked in three turns while the first batch runs: they wait, then go in one batch.
    const waiting: Promise<number>[] = [];
    for (const n of [2, 3, 4]) {
      waiting.push(held(n));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(runs).toEqual([[1]]);
    gates.shift()!();
    expect(await first).toBe(-1);
    await expect.poll(() => runs.length).toBe(2);
    expect(runs[1]).toEqual([2, 3, 4]);
    gates.shift()!();
    expect(await Promise.all(waiting)).toEqual([-2, -3, -4]);
  });

  it('with maxRunning, a failed batch lets the next one run', async () => {
    let fail = true;
    const answer = createTurnBatcher(
      async (inputs: readonly string[]) => {
        if (fail) throw new Error('database gone');
        return inputs.map((s) => s.toUpperCase());
      },
      { maxRunning: 1 },
    );
    const failed = answer('a');
    const next = answer('b');
    await expect(failed).rejects.toThrow('database gone');
    await expect(next).rejects.toThrow('database gone');
    fail = false;
    expect(await Promise.all([answer('c'), answer('d')])).toEqual(['C', 'D']);
  });

  it('refuses a batch answered with the wrong number of outputs', async () => {
    const short = createTurnBatcher(async (inputs: readonly number[]) => inputs.slice(1));
    await expect(Promise.all([short(1), short(2)])).rejects.toThrow('a batch of 2 calls answered 1');
  });
});
