/**
 * Parses a single-range `Range` header (RFC 9110). Anything else is served whole, never a crash.
 * The one Range parser: the API's file, asset and dashboard routes and the builder's loopback server for
 * ffmpeg all read ranges with it.
 */

export type TRangeResult = { kind: 'none' } | { kind: 'range'; start: number; end: number } | { kind: 'unsatisfiable' };

export function parseRange(header: string | undefined, size: number): TRangeResult {
  if (!header) return { kind: 'none' };
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges, other units or junk: serving the whole body is always allowed.
  if (!match) return { kind: 'none' };
  const [, startText = '', endText = ''] = match;
  if (startText === '' && endText === '') return { kind: 'none' };
  if (startText === '') {
    const suffix = Number(endText);
    if (suffix === 0) return { kind: 'unsatisfiable' };
    if (size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(startText);
  const end = endText === '' ? size - 1 : Math.min(Number(endText), size - 1);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return { kind: 'none' };
  if (start >= size) return { kind: 'unsatisfiable' };
  if (end < start) return { kind: 'none' };
  return { kind: 'range', start, end };
}
