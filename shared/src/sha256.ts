/**
 * Incremental SHA-256 (FIPS 180-4) in plain TypeScript. WebCrypto's digest only takes a whole
 * buffer, so hashing a multi-gigabyte file in the browser means feeding it chunk by chunk.
 */

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
  0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
  0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
  0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const INITIAL_STATE = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

export interface TSha256 {
  /** Adds bytes; may be called any number of times with pieces of any size. */
  update(bytes: Uint8Array): TSha256;
  /** The hash of everything added, as lower-case hex. The hasher cannot be used afterwards. */
  digestHex(): string;
}

/** Starts an incremental SHA-256. */
export function createSha256(): TSha256 {
  const state = new Int32Array(INITIAL_STATE);
  const w = new Int32Array(64);
  const block = new Uint8Array(64);
  let blockLength = 0;
  let totalBytes = 0;
  let isFinished = false;

  const compress = (bytes: Uint8Array, offset: number) => {
    for (let i = 0; i < 16; i++) {
      const j = offset + i * 4;
      w[i] = (bytes[j]! << 24) | (bytes[j + 1]! << 16) | (bytes[j + 2]! << 8) | bytes[j + 3]!;
    }
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15]!;
      const y = w[i - 2]!;
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
    }
    let a = state[0]!;
    let b = state[1]!;
    let c = state[2]!;
    let d = state[3]!;
    let e = state[4]!;
    let f = state[5]!;
    let g = state[6]!;
    let h = state[7]!;
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (h + S1 + ch + K[i]! + w[i]!) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    state[0] = (state[0]! + a) | 0;
    state[1] = (state[1]! + b) | 0;
    state[2] = (state[2]! + c) | 0;
    state[3] = (state[3]! + d) | 0;
    state[4] = (state[4]! + e) | 0;
    state[5] = (state[5]! + f) | 0;
    state[6] = (state[6]! + g) | 0;
    state[7] = (state[7]! + h) | 0;
  };

  const hasher: TSha256 = {
    update(bytes) {
      if (isFinished) throw new Error('SHA-256 already finished');
      totalBytes += bytes.length;
      let offset = 0;
      if (blockLength > 0) {
        const take = Math.min(64 - blockLength, bytes.length);
        block.set(bytes.subarray(0, take), blockLength);
        blockLength += take;
        offset = take;
        if (blockLength < 64) return hasher;
        compress(block, 0);
        blockLength = 0;
      }
      for (; offset + 64 <= bytes.length; offset += 64) compress(bytes, offset);
      if (offset < bytes.length) {
        block.set(bytes.subarray(offset), 0);
        blockLength = bytes.length - offset;
      }
      return hasher;
    },
    digestHex() {
      if (isFinished) throw new Error('SHA-256 already finished');
      const bitLength = totalBytes * 8;
      const padLength = blockLength < 56 ? 56 - blockLength : 120 - blockLength;
      const tail = new Uint8Array(padLength + 8);
      tail[0] = 0x80;
      // 64-bit big-endian length; doubles hold byte counts exactly far past any real file.
      const high = Math.floor(bitLength / 0x1_0000_0000);
      const low = bitLength >>> 0;
      const view = new DataView(tail.buffer);
      view.setUint32(padLength, high);
      view.setUint32(padLength + 4, low);
      hasher.update(tail);
      isFinished = true;
      let hex = '';
      for (let i = 0; i < 8; i++) hex += (state[i]! >>> 0).toString(16).padStart(8, '0');
      return hex;
    },
  };
  return hasher;
}

/** Lower-case hex of bytes (a WebCrypto digest, for example). */
export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let hex = '';
  for (let i = 0; i < view.length; i++) hex += view[i]!.toString(16).padStart(2, '0');
  return hex;
}
