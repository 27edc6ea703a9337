import { describe, expect, it } from 'vitest';
import { parseRange } from '@dropsite/shared';
import { contentDisposition } from './content-disposition.ts';

describe('Range parsing', () => {
  it('reads a single range, an open range and a suffix', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ kind: 'range', start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ kind: 'range', start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ kind: 'range', start: 90, end: 99 });
    expect(parseRange('bytes=50-500', 100)).toEqual({ kind: 'range', start: 50, end: 99 });
  });

  it('serves the whole body for reversed, multiple or junk ranges, and refuses a start beyond the end', () => {
    expect(parseRange('bytes=10-5', 100)).toEqual({ kind: 'none' });
    expect(
      parseRange(
        Array.from({ length: 1000 }, () => '0-')
          .join(',')
          .replace(/^/, 'bytes='),
        100,
      ),
    ).toEqual({ kind: 'none' });
    expect(parseRange('items=0-1', 100)).toEqual({ kind: 'none' });
    expect(parseRange('bytes=100-', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 100)).toEqual({ kind: 'unsatisfiable' });
  });
});

describe('Content-Disposition', () => {
  it('encodes non-ASCII names and keeps an ASCII fallback without quotes', () => {
    const header = contentDisposition('attachment', 'Café "menu".pdf');
    expect(header).toBe(`attachment; filename="Caf_ _menu_.pdf"; filename*=UTF-8''Caf%C3%A9%20%22menu%22.pdf`);
  });
});
