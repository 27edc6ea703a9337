/** The one rule for which archive entries the API extracts on their own (and the site offers). */
import { describe, expect, it } from 'vitest';
import { ARCHIVE_ENTRY_LIMITS, ARCHIVE_RATIO_FREE_BYTES, entryRefusal, isEntryExtractable } from './index.ts';

const MiB = 1024 ** 2;

describe('isEntryExtractable', () => {
  it('extracts ordinary files, and anything up to a MiB whatever its ratio', () => {
    expect(isEntryExtractable({ size: 5 * MiB, compressedSize: 4 * MiB })).toBe(true);
    expect(isEntryExtractable({ size: ARCHIVE_RATIO_FREE_BYTES, compressedSize: 1 })).toBe(true);
    expect(isEntryExtractable({ size: 0, compressedSize: 0 })).toBe(true);
  });

  it('refuses a zip bomb entry: past a MiB and more than 200 bytes per compressed byte', () => {
    expect(ARCHIVE_ENTRY_LIMITS.entryMaxRatio).toBe(200);
    expect(entryRefusal({ size: 50 * MiB, compressedSize: 50 * 1024 })).toBe('too_compressed');
    expect(isEntryExtractable({ size: 50 * MiB, compressedSize: 50 * 1024 })).toBe(false);
    expect(isEntryExtractable({ size: 200 * MiB, compressedSize: MiB })).toBe(true);
    expect(isEntryExtractable({ size: 200 * MiB + 1, compressedSize: MiB })).toBe(false);
  });

  it('refuses an entry past what one request may extract (512 MiB by default)', () => {
    expect(ARCHIVE_ENTRY_LIMITS.entryMaxBytes).toBe(512 * MiB);
    expect(entryRefusal({ size: 512 * MiB + 1, compressedSize: 512 * MiB })).toBe('too_large');
    expect(isEntryExtractable({ size: 512 * MiB, compressedSize: 512 * MiB })).toBe(true);
  });

  it('follows the limits it is given', () => {
    const limits = { entryMaxBytes: 10 * MiB, entryMaxRatio: 10 };
    expect(isEntryExtractable({ size: 11 * MiB, compressedSize: 11 * MiB }, limits)).toBe(false);
    expect(isEntryExtractable({ size: 5 * MiB, compressedSize: 400 * 1024 }, limits)).toBe(false);
    expect(isEntryExtractable({ size: 5 * MiB, compressedSize: 600 * 1024 }, limits)).toBe(true);
  });
});
