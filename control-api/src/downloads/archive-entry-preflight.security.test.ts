/**
 * The archive viewer asks with HEAD before it downloads an entry, so a refusal is shown as a
 * sentence on the page rather than as a failed download: a HEAD is refused exactly when the GET
 * would be (429 once the address's byte budget is spent) but never spends the budget itself.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../http/app-error.ts';
import { createByteBudget, ENTRY_BUDGET_SPENT } from './archive-budget.ts';

function refusal(fn: () => void): AppError | null {
  try {
    fn();
    return null;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

describe('entry budget checks for HEAD', () => {
  it('a check refuses like a charge once the budget is spent, with the same Retry-After', () => {
    const clock = { now: () => 1_000_000 };
    const budget = createByteBudget(60_000, clock);
    budget.charge('203.0.113.9', 50_000);
    const checked = refusal(() => budget.charge('203.0.113.9', 20_000, true));
    expect(checked?.status).toBe(429);
    expect(checked?.message).toBe(ENTRY_BUDGET_SPENT);
    expect(checked?.headers).toEqual({ 'Retry-After': '10' });
  });

  it('a check spends nothing: any number of them leave the whole budget to the download', () => {
    const clock = { now: () => 1_000_000 };
    const budget = createByteBudget(60_000, clock);
    for (let i = 0; i < 10; i++) budget.charge('203.0.113.9', 40_000, true);
    expect(refusal(() => budget.charge('203.0.113.9', 60_000))).toBeNull();
  });
});
