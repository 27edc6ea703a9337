import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSha256, toHex } from './sha256.ts';

const nodeSha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('createSha256', () => {
  it('matches the FIPS 180-4 examples', () => {
    const ascii = (s: string) => new TextEncoder().encode(s);
    expect(createSha256().digestHex()).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(createSha256().update(ascii('abc')).digestHex()).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(createSha256().update(ascii('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).digestHex()).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('matches node:crypto at every length around the block and padding edges', () => {
    const data = randomBytes(300);
    for (let length = 0; length <= 300; length++) {
      const piece = data.subarray(0, length);
      expect(createSha256().update(piece).digestHex(), `length ${length}`).toBe(nodeSha256(piece));
    }
  });

  it('gives the same hash however the bytes are split', () => {
    const data = randomBytes(1_000_003);
    const expected = nodeSha256(data);
    for (const pieceSize of [1, 63, 64, 65, 4096, 333_333]) {
      const hasher = createSha256();
      // Byte-by-byte for the first few KB only: enough to cover the block buffer, quick to run.
      const limit = pieceSize === 1 ? 5000 : data.length;
      let offset = 0;
      for (; offset < limit; offset += pieceSize) hasher.update(data.subarray(offset, Math.min(offset + pieceSize, limit)));
      if (limit < data.length) hasher.update(data.subarray(limit));
      expect(hasher.digestHex(), `pieces of ${pieceSize}`).toBe(expected);
    }
  });

  it('hashes 10 MB chunks of a large buffer like node:crypto', () => {
    const data = randomBytes(25 * 1024 * 1024 + 17);
    const hasher = createSha256();
    for (let offset = 0; offset < data.length; offset += 10_485_760) hasher.update(data.subarray(offset, offset + 10_485_760));
    expect(hasher.digestHex()).toBe(nodeSha256(data));
  });

  it('refuses to be used after the digest', () => {
    const hasher = createSha256();
    hasher.digestHex();
    expect(() => hasher.update(new Uint8Array(1))).toThrow();
    expect(() => hasher.digestHex()).toThrow();
  });

  it('formats digests as lower-case hex', () => {
    expect(toHex(new Uint8Array([0, 15, 16, 255]))).toBe('000f10ff');
    expect(toHex(new Uint8Array([171, 205]).buffer)).toBe('abcd');
  });
});
