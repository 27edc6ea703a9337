/** The archive viewer offers on their own only the files the API extracts, and says why not. */
import { describe, expect, it } from 'vitest';
import type { TArchiveEntry } from '@dropsite/shared';
import { entryRefusalMessage, isOfferedAlone, notOfferedNote, planSelection } from './archive-tree.ts';

const MiB = 1024 ** 2;
const file = (path: string, size: number, extractable?: boolean): TArchiveEntry => ({
  name: path.split('/').pop()!,
  path,
  type: 'file',
  size,
  compressedSize: size,
  ...(extractable === undefined ? {} : { extractable }),
});
const tree: TArchiveEntry[] = [
  { name: 'notes', path: 'notes', type: 'folder', size: 0, children: [file('notes/readme.txt', 1000), file('notes/zeros.bin', 50 * MiB, false)] },
  file('secret.txt', 10, false),
  file('big.bin', 300 * MiB),
  file('bigger.bin', 300 * MiB),
];

describe('archive entries offered on their own', () => {
  it('offers files unless the builder marked them, never folders', () => {
    expect(isOfferedAlone(file('a.txt', 1))).toBe(true);
    expect(isOfferedAlone(file('a.txt', 1, true))).toBe(true);
    expect(isOfferedAlone(file('zeros.bin', 50 * MiB, false))).toBe(false);
    expect(isOfferedAlone(tree[0]!)).toBe(false);
  });

  it('explains why: too large for big entries, the whole archive for the rest', () => {
    expect(notOfferedNote(file('zeros.bin', 50 * MiB, false))).toBe('Too large to download on its own — download the whole archive');
    expect(notOfferedNote(file('secret.txt', 10, false))).toBe('Can only be downloaded with the whole archive');
  });

  it("'Download Selected' leaves marked files out and says how many", () => {
    const plan = planSelection(tree, new Set(['notes/readme.txt', 'notes/zeros.bin', 'secret.txt']), 512 * MiB);
    expect(plan.paths).toEqual(['notes/readme.txt']);
    expect(plan.leftOut).toBe(2);
    expect(plan.message).toBe('2 files can only be downloaded with the whole archive');
    const one = planSelection(tree, new Set(['notes/readme.txt', 'notes/zeros.bin']), 512 * MiB);
    expect(one.message).toBe('1 file can only be downloaded with the whole archive');
    expect(planSelection(tree, new Set(['notes/zeros.bin']), 512 * MiB).paths).toEqual([]);
  });

  it('does not offer a selection larger than one request may extract', () => {
    const plan = planSelection(tree, new Set(['big.bin', 'bigger.bin']), 512 * MiB);
    expect(plan.tooLarge).toBe(true);
    expect(plan.message).toBe('The selected files are too large to download together — download the whole archive');
    expect(planSelection(tree, new Set(['big.bin']), 512 * MiB).tooLarge).toBe(false);
  });

  it('turns refusals into sentences, with the wait the API asks for', () => {
    expect(entryRefusalMessage(429, '42', 'a.txt')).toBe('Too much was extracted from archives in the last minute. Please try again in 42 seconds.');
    expect(entryRefusalMessage(429, null, 'a.txt')).toBe('Too much was extracted from archives in the last minute. Please wait a moment and try again.');
    expect(entryRefusalMessage(503, '5', 'a.txt')).toBe('Too many downloads are being prepared right now. Please try again in a few seconds.');
    expect(entryRefusalMessage(413, null, 'a.txt')).toBe('Too large to download on its own — download the whole archive.');
    expect(entryRefusalMessage(0, null, 'a.txt')).not.toMatch(/[{}]/);
  });
});
