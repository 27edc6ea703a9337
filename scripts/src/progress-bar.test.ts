import { describe, expect, it } from 'vitest';
import { createProgressBar, formatDuration } from './progress-bar.ts';

describe('progress bar', () => {
  it('shows the time left at the rate so far, and none before the first or after the last', () => {
    const lines: string[] = [];
    let ms = 0;
    const bar = createProgressBar('Rebuilding', { isTTY: false, write: (text: string) => lines.push(text) > 0 }, () => ms);
    bar.update(0, 1000);
    ms = 10_000;
    bar.update(100, 1000);
    ms = 50_000;
    bar.update(500, 1000, '(2 failed)');
    ms = 100_000;
    bar.update(1000, 1000);
    expect(lines[0]).not.toContain('ETA');
    // 100 sites in 10 s: 900 more take 90 s.
    expect(lines[1]).toContain('100/1000 10% 10.0s ETA 1m 30s');
    expect(lines[2]).toContain('500/1000 50% 50.0s ETA 50s (2 failed)');
    expect(lines[3]).toContain('1000/1000 100% 100.0s');
    expect(lines[3]).not.toContain('ETA');
  });

  it('writes durations as people read them', () => {
    expect(formatDuration(0.4)).toBe('0s');
    expect(formatDuration(42)).toBe('42s');
    expect(formatDuration(185)).toBe('3m 05s');
    expect(formatDuration(3720)).toBe('1h 02m');
  });
});
