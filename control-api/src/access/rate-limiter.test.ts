import { describe, expect, it } from 'vitest';
import { createFakeClock } from '@dropsite/testkit/control-api/test-app';
import { createRateLimiter, enforceRateLimits } from './rate-limiter.ts';
import { AppError } from '../http/app-error.ts';

describe('createRateLimiter', () => {
  it('allows a burst, then refuses with the seconds until the next token', async () => {
    const clock = createFakeClock();
    const limiter = createRateLimiter({ perMinute: 6, clock });
    const decisions = [];
    for (let i = 0; i < 8; i++) decisions.push(await limiter.take('1.2.3.4'));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, true, false, false]);
    expect(decisions[6]!.retryAfterSeconds).toBe(10);
    clock.advance(9_999);
    expect((await limiter.take('1.2.3.4')).allowed).toBe(false);
    clock.advance(1);
    expect((await limiter.take('1.2.3.4')).allowed).toBe(true);
    // Keys are independent.
    expect((await limiter.take('5.6.7.8')).allowed).toBe(true);
  });

  it('peeks without taking', async () => {
    const clock = createFakeClock();
    const limiter = createRateLimiter({ perMinute: 1, clock });
    expect((await limiter.peek('k')).allowed).toBe(true);
    expect((await limiter.peek('k')).allowed).toBe(true);
    expect((await limiter.take('k')).allowed).toBe(true);
    expect(await limiter.peek('k')).toEqual({ allowed: false, retryAfterSeconds: 60 });
  });

  it('forgets idle keys, so memory stays bounded under many addresses', async () => {
    const clock = createFakeClock();
    const limiter = createRateLimiter({ perMinute: 60, clock });
    for (let i = 0; i < 10_000; i++) await limiter.take(`10.0.${i >> 8}.${i & 255}`);
    clock.advance(60_000);
    for (let i = 0; i < 1000; i++) await limiter.take(`later-${i}`);
    // The idle 10,000 are gone; only the recent ones are held.
    expect(limiter.size()).toBeLessThanOrEqual(1000);
    const started = performance.now();
    for (let i = 0; i < 100_000; i++) await limiter.take(`busy-${i}`);
    expect(limiter.size()).toBeLessThanOrEqual(20_000 + 1000);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('throws a 429 AppError with Retry-After', async () => {
    const clock = createFakeClock();
    const limiter = createRateLimiter({ perMinute: 1, clock });
    await enforceRateLimits([[limiter, 'a']]);
    try {
      await enforceRateLimits([[limiter, 'a']]);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(429);
      expect((err as AppError).headers).toEqual({ 'Retry-After': '60' });
    }
  });
});
