/** The text preview decodes a file the way the builder detected it, so no encoding reads as mojibake. */
import { describe, expect, it } from 'vitest';
import { decodeText } from './text-format.ts';

const WESTERN = 'café — “quoted” naïve';
const JAPANESE = '日本語のテキスト「引用」';
const bytes = (...parts: Array<number[] | Buffer>) => new Uint8Array(Buffer.concat(parts.map((p) => Buffer.from(p))));
const swap = (b: Buffer) => {
  const out = Buffer.from(b);
  for (let i = 0; i + 1 < out.length; i += 2) [out[i], out[i + 1]] = [out[i + 1]!, out[i]!];
  return out;
};

describe('decodeText', () => {
  it('reads Windows-1252 (smart quotes and dashes in 0x80-0x9F) when the builder detected it', () => {
    const cp1252 = bytes([0x63, 0x61, 0x66, 0xe9, 0x20, 0x97, 0x20, 0x93], Buffer.from('quoted'), [0x94, 0x20, 0x6e, 0x61, 0xef, 0x76, 0x65]);
    expect(decodeText(cp1252, 'Windows-1252')).toBe(WESTERN);
  });

  it('reads UTF-16LE with its byte-order mark, the mark left out', () => {
    expect(decodeText(bytes([0xff, 0xfe], Buffer.from(JAPANESE, 'utf16le')), 'UTF-16LE')).toBe(JAPANESE);
  });

  it('reads UTF-16BE with its byte-order mark, the mark left out', () => {
    expect(decodeText(bytes([0xfe, 0xff], swap(Buffer.from(JAPANESE, 'utf16le'))), 'UTF-16BE')).toBe(JAPANESE);
  });

  it('reads UTF-8 with or without a byte-order mark, and by the mark when no encoding is known', () => {
    expect(decodeText(bytes(Buffer.from(WESTERN)), 'UTF-8')).toBe(WESTERN);
    expect(decodeText(bytes([0xef, 0xbb, 0xbf], Buffer.from(WESTERN)), 'UTF-8 (BOM)')).toBe(WESTERN);
    expect(decodeText(bytes([0xff, 0xfe], Buffer.from(JAPANESE, 'utf16le')), undefined)).toBe(JAPANESE);
  });

  it('leaves out a character cut by the end of a partial read instead of showing a replacement character', () => {
    const utf8 = Buffer.from(`ab${JAPANESE}`);
    expect(decodeText(new Uint8Array(utf8.subarray(0, 4)), 'UTF-8', true)).toBe('ab');
    const utf16 = bytes([0xff, 0xfe], Buffer.from(JAPANESE, 'utf16le'));
    expect(decodeText(utf16.subarray(0, 5), 'UTF-16LE', true)).toBe(JAPANESE[0]);
  });
});
