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

  it('refuses a batch answered with the wrong number of outputs', async () => {
    const short = createTurnBatcher(async (inputs: readonly number[]) => inputs.slice(1));
    await expect(Promise.all([short(1), short(2)])).rejects.toThrow('a batch of 2 calls answered 1');
  });
});
