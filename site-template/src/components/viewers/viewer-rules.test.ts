import { describe, expect, it } from 'vitest';
import type { TArchiveEntry } from '@dropsite/shared';
import { entryDownloadUrl, filePaths, filterTree, folderPaths, savedSpaceLabel, sortTree, visibleRows } from './archive/archive-tree.ts';
import { cardLines, clampFontSize, parseCsv } from './text/text-format.ts';
import { parseInline, parseMarkdown } from './text/markdown.ts';
import { formatClock, formatResolution, videoFormatLabel } from './video/video-format.ts';
import { fileNameFromDisposition } from './shared/actions.ts';
import { assertPdfBytes, PDF_MESSAGES } from './pdf/pdf-library.ts';
import { MASONRY_GAP_ROWS, placeMasonry } from './gallery/masonry.ts';

const file = (path: string, size: number, modified?: string, fileType?: string): TArchiveEntry => ({ name: path.split('/').pop()!, path, type: 'file', size, modified, fileType });
const folder = (path: string, children: TArchiveEntry[]): TArchiveEntry => ({
  name: path.split('/').pop()!,
  path,
  type: 'folder',
  size: children.reduce((n, c) => n + c.size, 0),
  children,
});

const TREE = [
  file('b.txt', 10, '2025-01-02T00:00:00Z', 'document'),
  folder('photos', [file('photos/img-10.jpg', 300, '2025-01-01T00:00:00Z', 'image'), file('photos/img-9.jpg', 500, '2025-01-05T00:00:00Z', 'image')]),
  file('A.pdf', 200, '2025-01-03T00:00:00Z', 'pdf'),
];

describe('archive tree', () => {
  it('sorts folders first, then by name (numbers in order), size, type or date', () => {
    const names = (entries: TArchiveEntry[]): string[] => entries.flatMap((e) => [e.path, ...names(e.children ?? [])]);
    expect(names(sortTree(TREE, 'name'))).toEqual(['photos', 'photos/img-9.jpg', 'photos/img-10.jpg', 'A.pdf', 'b.txt']);
    expect(names(sortTree(TREE, 'size'))).toEqual(['photos', 'photos/img-9.jpg', 'photos/img-10.jpg', 'A.pdf', 'b.txt']);
    expect(names(sortTree(TREE, 'date'))).toEqual(['photos', 'photos/img-9.jpg', 'photos/img-10.jpg', 'A.pdf', 'b.txt']);
    expect(names(sortTree(TREE, 'type'))).toEqual(['photos', 'photos/img-9.jpg', 'photos/img-10.jpg', 'b.txt', 'A.pdf']);
    // The input is left as it was.
    expect(TREE[0]!.path).toBe('b.txt');
  });

  it('filters to matches and the folders leading to them', () => {
    expect(filterTree(TREE, 'IMG-9').map((e) => [e.path, e.children?.map((c) => c.path)])).toEqual([['photos', ['photos/img-9.jpg']]]);
    expect(filterTree(TREE, 'photos')[0]!.children).toHaveLength(2);
    expect(filterTree(TREE, 'zzz')).toEqual([]);
    expect(filterTree(TREE, '  ')).toBe(TREE);
  });

  it('lists visible rows with levels and positions, and every file and folder path', () => {
    const rows = visibleRows(TREE, () => false);
    expect(rows.map((r) => [r.entry.path, r.depth, r.position, r.siblings])).toEqual([
      ['b.txt', 1, 1, 3],
      ['photos', 1, 2, 3],
      ['A.pdf', 1, 3, 3],
    ]);
    expect(visibleRows(TREE, () => true).find((r) => r.entry.path === 'photos/img-9.jpg')).toMatchObject({ depth: 2, parentPath: 'photos' });
    expect(filePaths(TREE)).toEqual(['b.txt', 'photos/img-10.jpg', 'photos/img-9.jpg', 'A.pdf']);
    expect(folderPaths(TREE)).toEqual(['photos']);
  });

  it('asks for one entry or several by repeated path parameters, encoded', () => {
    expect(entryDownloadUrl('f1', ['a b/c&d.txt'])).toBe('/api/files/f1/entry?path=a%20b%2Fc%26d.txt');
    expect(entryDownloadUrl('f1', ['x', 'y'])).toBe('/api/files/f1/entry?path=x&path=y');
  });

  it('says how much space compression saved, only when it saved some', () => {
    expect(savedSpaceLabel(1000, 580)).toBe('42%');
    expect(savedSpaceLabel(1000, 1000)).toBe('');
    // Stored entries plus the ZIP's own headers: larger than the files, nothing saved.
    expect(savedSpaceLabel(1000, 1040)).toBe('');
    expect(savedSpaceLabel(1000, 995)).toBe('');
    expect(savedSpaceLabel(1_000_000, 10)).toBe('99%');
    expect(savedSpaceLabel(0, 0)).toBe('');
  });
});

describe('text document', () => {
  it('the card: 12 lines of at most 50 characters (whole characters, tabs as spaces)', () => {
    const lines = cardLines(Array.from({ length: 20 }, (_, i) => `${'é'.repeat(60)}${i}`));
    expect(lines).toHaveLength(12);
    expect(lines.every((l) => Array.from(l).length === 50)).toBe(true);
    expect(cardLines(['\tx'])).toEqual(['  x']);
  });

  it('font size stays within 10 and 24', () => {
    expect(clampFontSize(8)).toBe(10);
    expect(clampFontSize(26)).toBe(24);
    expect(clampFontSize(16)).toBe(16);
  });

  it('parses CSV with quotes, commas and newlines inside fields', () => {
    expect(parseCsv('a,b\n"x, y","say ""hi""\nthere"\r\n3,4')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"\nthere'],
      ['3', '4'],
    ]);
    expect(parseCsv('1\n2\n3', 2)).toHaveLength(2);
  });

  it('reads markdown blocks and inline marks, and only links to http, https and mailto', () => {
    expect(parseMarkdown('# Title\n\nSome *text*\nmore\n\n- a\n- b\n\n1. one\n\n```\ncode\n```\n> quote\n\n---').map((b) => b.type)).toEqual([
      'heading',
      'paragraph',
      'list',
      'list',
      'code',
      'quote',
      'rule',
    ]);
    expect(parseInline('see **bold** and `code` at [site](https://x.test)')).toEqual([
      { type: 'text', text: 'see ' },
      { type: 'strong', text: 'bold' },
      { type: 'text', text: ' and ' },
      { type: 'code', text: 'code' },
      { type: 'text', text: ' at ' },
      { type: 'link', text: 'site', href: 'https://x.test' },
    ]);
    const hostile = parseInline('[one](javascript:alert(1)) [two](data:text/html,x) [three](//evil.test)');
    expect(hostile.filter((part) => part.type === 'link')).toEqual([]);
    expect(hostile.map((part) => part.text).join('')).toBe('[one](javascript:alert(1)) [two](data:text/html,x) [three](//evil.test)');
  });
});

describe('video figures', () => {
  it('formats clock times, resolutions and formats', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(83.6)).toBe('1:23');
    expect(formatClock(3725)).toBe('1:02:05');
    expect(formatClock(Number.NaN)).toBe('0:00');
    expect(formatResolution(1920, 1080)).toBe('1920 × 1080 (1080p)');
    expect(formatResolution(1080, 1920)).toBe('1080 × 1920 (1080p)');
    expect(formatResolution(3840, 2160)).toBe('3840 × 2160 (4K)');
    expect(videoFormatLabel('clip.mov', { videoCodec: 'hevc', audioCodec: 'aac' })).toBe('MOV · H.265 / AAC');
    expect(videoFormatLabel('clip', {})).toBe('Video');
  });
});

describe('downloads and PDFs', () => {
  it('reads the file name of a Content-Disposition header', () => {
    expect(fileNameFromDisposition(`attachment; filename="site.zip"; filename*=UTF-8''Harbour%20Lights.zip`)).toBe('Harbour Lights.zip');
    expect(fileNameFromDisposition('attachment; filename="site.zip"')).toBe('site.zip');
    expect(fileNameFromDisposition(null)).toBeNull();
  });

  it('accepts only data that begins with %PDF, and says when it is gone', () => {
    expect(() => assertPdfBytes(new TextEncoder().encode('%PDF-1.7\n'))).not.toThrow();
    expect(() => assertPdfBytes(new TextEncoder().encode('<html>'))).toThrow(PDF_MESSAGES.invalid);
    expect(() => assertPdfBytes(new Uint8Array(0))).toThrow(PDF_MESSAGES.invalid);
    const data = new Uint8Array(new ArrayBuffer(8));
    structuredClone(data.buffer, { transfer: [data.buffer] });
    expect(() => assertPdfBytes(data)).toThrow(PDF_MESSAGES.detached);
    expect(() => assertPdfBytes(undefined)).toThrow(PDF_MESSAGES.detached);
  });
});

describe('masonry placement', () => {
  const landscape = { width: 300, height: 200 };
  const portrait = { width: 200, height: 300 };

  it('fills the first row left to right, then each picture takes the shortest column', () => {
    const places = placeMasonry([landscape, portrait, landscape, landscape, landscape], 3);
    expect(places.map((p) => [p.column, p.row, p.span])).toEqual([
      [1, 1, 27],
      [2, 1, 60],
      [3, 1, 27],
      [1, 1 + 27 + MASONRY_GAP_ROWS, 27],
      [3, 1 + 27 + MASONRY_GAP_ROWS, 27],
    ]);
  });

  it('never starts a picture above the one before it: the wall reads in the lightbox order', () => {
    const sizes = Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? portrait : i % 5 === 0 ? { width: 100, height: 100 } : landscape));
    for (const columns of [2, 3]) {
      const rows = placeMasonry(sizes, columns).map((p) => p.row);
      expect(rows).toEqual([...rows].sort((a, b) => a - b));
    }
  });

  it('crops panoramas and very tall pictures to a sensible tile, and treats an unknown size as square', () => {
    expect(placeMasonry([{ width: 4000, height: 500 }], 2)[0]!.span).toBe(16);
    expect(placeMasonry([{ width: 500, height: 4000 }], 2)[0]!.span).toBe(100);
    expect(placeMasonry([{ width: 0, height: 0 }], 2)[0]!.span).toBe(40);
  });
});
