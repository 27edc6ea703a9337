/**
 * Incremental CRC-32 (ISO-HDLC: the CRC of zlib, gzip, PNG and S3's x-amz-checksum-crc32) in plain
 * TypeScript, for the browser: the check every upload chunk carries. Slicing by 8 bytes keeps it
 * to a few table reads per byte. Node has the same function natively as zlib.crc32.
 */

/** 8 tables of 256 entries: table k gives the CRC of a byte followed by k zero bytes. */
const TABLES = (() => {
  const tables = new Int32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    tables[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    let c = tables[n]!;
    for (let k = 1; k < 8; k++) {
      c = tables[c & 0xff]! ^ (c >>> 8);
      tables[k * 256 + n] = c;
    }
  }
  return tables;
})();

/** The CRC-32 of `bytes` continued from `crc` (the value of the bytes before them; 0 to start), unsigned. */
export function crc32(bytes: Uint8Array, crc = 0): number {
  const t = TABLES;
  let c = ~crc;
  let i = 0;
  const end8 = bytes.length - (bytes.length % 8);
  for (; i < end8; i += 8) {
    const lo = c ^ (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24));
    c =
      t[1792 + (lo & 0xff)]! ^
      t[1536 + ((lo >>> 8) & 0xff)]! ^
      t[1280 + ((lo >>> 16) & 0xff)]! ^
      t[1024 + (lo >>> 24)]! ^
      t[768 + bytes[i + 4]!]! ^
      t[512 + bytes[i + 5]!]! ^
      t[256 + bytes[i + 6]!]! ^
      t[bytes[i + 7]!]!;
  }
  for (; i < bytes.length; i++) c = t[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/** A CRC-32 as upload chunks carry it (X-Chunk-Crc32, S3's x-amz-checksum-crc32): base64 of its 4 big-endian bytes. */
export function crc32ToBase64(crc: number): string {
  return btoa(String.fromCharCode((crc >>> 24) & 0xff, (crc >>> 16) & 0xff, (crc >>> 8) & 0xff, crc & 0xff));
}

/** The CRC-32 a base64 value of crc32ToBase64 gives, or undefined for anything else (other lengths, non-canonical padding). */
export function crc32FromBase64(text: string): number | undefined {
  if (!/^[A-Za-z0-9+/]{6}==$/.test(text)) return undefined;
  const bytes = atob(text);
  const crc = ((bytes.charCodeAt(0) << 24) | (bytes.charCodeAt(1) << 16) | (bytes.charCodeAt(2) << 8) | bytes.charCodeAt(3)) >>> 0;
  return crc32ToBase64(crc) === text ? crc : undefined;
}
