/** Pure helpers of the text document viewer: the card's lines, CSV parsing (Markdown is in markdown.ts, loaded on demand). */
import { TEXT_VIEWER } from '../../../lib/shared-client.ts';

/** Spec 2.2 and 9: the card shows the first 12 lines, each cut at 50 characters. */
export function cardLines(lines: string[]): string[] {
  return lines.slice(0, TEXT_VIEWER.cardLines).map((line) => Array.from(line.replace(/\t/g, '  ')).slice(0, TEXT_VIEWER.cardLineChars).join(''));
}

export function clampFontSize(size: number): number {
  return Math.min(TEXT_VIEWER.maxFontSize, Math.max(TEXT_VIEWER.minFontSize, size));
}

/**
 * The text of a file's bytes, decoded the way the builder read it (derive-text.ts): a
 * byte-order mark decides, then the detected encoding ('UTF-8', 'UTF-16LE', 'Windows-1252'…),
 * then UTF-8. `truncated` when the bytes stop mid-file: a character cut by the end is left out.
 */
export function decodeText(bytes: Uint8Array, encoding: string | undefined, truncated = false): string {
  let label = 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) label = 'utf-16le';
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) label = 'utf-16be';
  else if (!(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)) label = decoderLabel(encoding);
  // The decoder drops a matching byte-order mark itself; `stream` holds back a cut character.
  return new TextDecoder(label).decode(bytes, { stream: truncated });
}

function decoderLabel(encoding: string | undefined): string {
  const name = (encoding ?? '').toLowerCase();
  if (name.startsWith('utf-16le')) return 'utf-16le';
  if (name.startsWith('utf-16be')) return 'utf-16be';
  if (name.startsWith('windows-1252') || name.startsWith('latin') || name.startsWith('iso-8859-1')) return 'windows-1252';
  return 'utf-8';
}

export function splitLines(text: string): string[] {
  return text.replace(/\r\n?/g, '\n').split('\n');
}

/** RFC 4180-ish CSV rows (quoted fields, doubled quotes, newlines inside quotes), at most `maxRows`. */
export function parseCsv(text: string, maxRows = 500): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let isQuoted = false;
  for (let i = 0; i < text.length && rows.length < maxRows; i++) {
    const c = text[i]!;
    if (isQuoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') isQuoted = false;
      else field += c;
    } else if (c === '"' && field === '') isQuoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if ((field !== '' || row.length > 0) && rows.length < maxRows) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
