import { randomBytes } from 'node:crypto';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32, crc32FromBase64, crc32ToBase64 } from './crc32.ts';

describe('crc32', () => {
  it('gives the check value of CRC-32/ISO-HDLC', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });

  it('matches zlib.crc32 at every length around the 8-byte stride', () => {
    const data = randomBytes(300);
    for (let length = 0; length <= 300; length++) {
      const piece = data.subarray(0, length);
      expect(crc32(piece), `length ${length}`).toBe(zlibCrc32(piece));
    }
  });

  it('matches zlib.crc32 on a 10 MB chunk, however the bytes are split', () => {
    const data = randomBytes(10_485_760 + 3);
    const expected = zlibCrc32(data);
    for (const pieceSize of [1, 7, 8, 65_536, 333_333]) {
      // Byte by byte for the first few KB only: enough to cross the stride, quick to run.
      const limit = pieceSize === 1 ? 5000 : data.length;
      let crc = 0;
      for (let offset = 0; offset < limit; offset += pieceSize) crc = crc32(data.subarray(offset, Math.min(offset + pieceSize, limit)), crc);
      if (limit < data.length) crc = crc32(data.subarray(limit), crc);
      expect(crc, `pieces of ${pieceSize}`).toBe(expected);
    }
  });

  it('writes and reads the base64 of the 4 big-endian bytes, as S3 does', () => {
    expect(crc32ToBase64(0xcbf43926)).toBe('y/Q5Jg==');
    expect(crc32ToBase64(0)).toBe('AAAAAA==');
    expect(crc32FromBase64('y/Q5Jg==')).toBe(0xcbf43926);
    expect(crc32FromBase64(crc32ToBase64(0xffffffff))).toBe(0xffffffff);
    const bytes = randomBytes(1000);
    const bigEndian = Buffer.alloc(4);
    bigEndian.writeUInt32BE(zlibCrc32(bytes));
    expect(crc32ToBase64(crc32(bytes))).toBe(bigEndian.toString('base64'));
  });

  it('refuses base64 that is not exactly 4 bytes written canonically', () => {
    for (const bad of ['', 'y/Q5Jg', 'y/Q5Jg=', 'y/Q5Jh==', 'y/Q5JgAA', 'y/Q5Jg===', 'cbf43926', 'y-Q5Jg==']) expect(crc32FromBase64(bad), bad).toBeUndefined();
  });
});
