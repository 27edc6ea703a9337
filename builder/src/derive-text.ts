/**
 * Text files (txt, md, csv, json, log, code…): the encoding and the first lines, from the
 * first 64 KB only, so a 5 GB log costs the same as a short note. Encoding: a byte-order mark
 * decides; else valid UTF-8 is UTF-8; else Windows-1252 (which also reads Latin-1). Bytes that
 * are not text (NUL bytes, many control characters) give a download card instead.
 */
import type { TDerivedMetadata, TFileKind, TTextSummary } from '@dropsite/shared';
import { PreviewUnavailableError, readObject } from './derive-cache.ts';
import type { BuilderStorage, TBuildFile } from './types.ts';

export const TEXT_READ_BYTES = 64 * 1024;
/** Lines kept for the viewer (its card shows 12; the full preview the rest). */
export const TEXT_MAX_LINES = 200;
/** A minified one-line file must not make the site page heavy. */
export const TEXT_MAX_LINE_CHARS = 1000;

export const NOT_TEXT = 'Preview not available for this type of file.';

export async function deriveText(storage: BuilderStorage, file: Pick<TBuildFile, 'storageKey' | 'sha256' | 'size'>, kind: TFileKind): Promise<TDerivedMetadata> {
  const bytes = await readObject(storage, file.storageKey, file.size, TEXT_READ_BYTES);
  const text = summariseText(bytes, file.size > bytes.length);
  if (!text) throw new PreviewUnavailableError(NOT_TEXT, { final: true });
  return { sha256: file.sha256, kind, text };
}

/** The text summary of the first bytes of a file, or null when they are not text. `truncated` when the file goes on. */
export function summariseText(bytes: Uint8Array, truncated: boolean): TTextSummary | null {
  const decoded = decode(bytes, truncated);
  if (!decoded) return null;
  let lines = decoded.text.split(/\r\n|\r|\n/);
  if (truncated)
    lines = lines.slice(0, -1); // the last line was cut by the read
  else if (lines.length > 0 && lines.at(-1) === '') lines = lines.slice(0, -1); // a final newline ends the last line
  return {
    encoding: decoded.encoding,
    firstLines: lines.slice(0, TEXT_MAX_LINES).map((line) => (line.length > TEXT_MAX_LINE_CHARS ? line.slice(0, TEXT_MAX_LINE_CHARS) : line)),
    ...(truncated ? {} : { totalLines: lines.length }),
  };
}

function decode(bytes: Uint8Array, truncated: boolean): { text: string; encoding: string } | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: 'UTF-8 (BOM)' };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return checked(new TextDecoder('utf-16le').decode(bytes.subarray(2)), 'UTF-16LE');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return checked(new TextDecoder('utf-16be').decode(bytes.subarray(2)), 'UTF-16BE');
  if (bytes.includes(0)) return null;
  const utf8 = decodeUtf8(bytes, truncated);
  if (utf8 !== null) return checked(utf8, 'UTF-8');
  return checked(new TextDecoder('windows-1252').decode(bytes), 'Windows-1252');
}

/** Strict UTF-8; a multi-byte character cut by the end of the read is dropped, not an error. */
function decodeUtf8(bytes: Uint8Array, truncated: boolean): string | null {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (let cut = 0; cut <= (truncated ? 3 : 0); cut++) {
    try {
      return decoder.decode(bytes.subarray(0, bytes.length - cut));
    } catch {
      // try without the last byte(s)
    }
  }
  return null;
}

/** Text has few control characters besides tab, line breaks, form feed and escape. */
function checked(text: string, encoding: string): { text: string; encoding: string } | null {
  if (text.length === 0) return { text, encoding };
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d && code !== 0x0c && code !== 0x1b) || code === 0x7f || code === 0xfffd) control++;
  }
  return control / text.length > 0.02 ? null : { text, encoding };
}
