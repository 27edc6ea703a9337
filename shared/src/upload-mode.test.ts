import { describe, expect, it } from 'vitest';
import { MODE_THRESHOLDS } from './constants.ts';
import { UPLOAD_MODES, UPLOAD_MODE_BADGES, UPLOAD_MODE_EXPLANATIONS, chooseUploadMode } from './upload-mode.ts';

const MB = 1024 * 1024;
const files = (...sizes: number[]) => sizes.map((size) => ({ size }));

describe('chooseUploadMode', () => {
  it('uses the spec thresholds as written', () => {
    expect(MODE_THRESHOLDS).toEqual({ fileChunked: 52_428_800, fileDirectChunked: 104_857_600, totalDirect: 104_857_600, totalDirectChunked: 209_715_200 });
  });

  it('sends small drops as one regular request', () => {
    expect(chooseUploadMode([])).toBe('regular');
    expect(chooseUploadMode(files(3 * MB, 12 * MB, 20 * MB))).toBe('regular');
    expect(chooseUploadMode(files(50 * MB))).toBe('regular');
    expect(chooseUploadMode(files(50 * MB, 50 * MB))).toBe('regular');
  });

  it('takes direct-chunked for any file over 100 MB or a total over 200 MB (rule 1 first)', () => {
    expect(chooseUploadMode(files(100 * MB + 1))).toBe('direct-chunked');
    expect(chooseUploadMode(files(120 * MB))).toBe('direct-chunked');
    expect(chooseUploadMode(files(1 * MB, 2048 * MB))).toBe('direct-chunked');
    expect(chooseUploadMode(files(...Array(21).fill(10 * MB)))).toBe('direct-chunked');
    expect(chooseUploadMode(files(60 * MB, 150 * MB))).toBe('direct-chunked');
  });

  it('takes direct for a file between 50 and 100 MB or a total over 100 MB', () => {
    expect(chooseUploadMode(files(50 * MB + 1))).toBe('direct');
    expect(chooseUploadMode(files(99 * MB))).toBe('direct');
    expect(chooseUploadMode(files(40 * MB, 40 * MB, 40 * MB))).toBe('direct');
    expect(chooseUploadMode(files(...Array(20).fill(10 * MB)))).toBe('direct');
    expect(chooseUploadMode(files(...Array(10).fill(10 * MB)))).toBe('regular');
  });

  it('leaves only a file of exactly 100 MB to rule 3 (chunked)', () => {
    expect(chooseUploadMode(files(100 * MB))).toBe('chunked');
    expect(chooseUploadMode(files(100 * MB, 1))).toBe('direct');
  });

  it('names each mode with the spec badge', () => {
    expect(UPLOAD_MODE_BADGES).toEqual({
      'direct-chunked': 'Ultra-Fast Chunked Mode',
      direct: 'Direct Storage Mode',
      chunked: 'Fast Mode Active',
      regular: 'Standard Upload',
    });
  });

  it('says in one plain line what each mode means for the creator, without the badge words', () => {
    for (const mode of UPLOAD_MODES) {
      const line = UPLOAD_MODE_EXPLANATIONS[mode];
      expect(line, mode).toMatch(/^[A-Z].{20,120}\.$/);
      expect(line.toLowerCase(), mode).not.toContain('mode');
    }
    expect(UPLOAD_MODE_EXPLANATIONS.regular).toBe('Your files are small enough to send in one go.');
  });
});
