/**
 * The Open Graph picture of a site (sites/{slug}/og.png, 1200x630): the site's first image,
 * darkened towards the bottom, or a gradient in the site's theme colours, with the title and a
 * byline set over it. Text goes through an SVG overlay, escaped, so a title is only ever text.
 * The same input gives the same bytes (builds are idempotent).
 */
import { buffer } from 'node:stream/consumers';
import { loadSharp } from './sharp.ts';
import type { BuilderStorage } from './types.ts';

export const OG_WIDTH = 1200;
export const OG_HEIGHT = 630;
export const OG_CONTENT_TYPE = 'image/png';

export interface TOgImageInput {
  title: string;
  authorName: string;
  theme: string;
  fileCount: number;
  /** Storage key of a display-size image to use as the background. */
  backgroundKey: string | null;
}

const PALETTES: Record<string, { from: string; to: string; glow: string }> = {
  professional: { from: '#1d4ed8', to: '#0f766e', glow: '#60a5fa' },
  creative: { from: '#7c3aed', to: '#db2777', glow: '#f0abfc' },
  nature: { from: '#2f6b3a', to: '#a16207', glow: '#bef264' },
  minimal: { from: '#18181b', to: '#52525b', glow: '#a1a1aa' },
  elegant: { from: '#8a2846', to: '#94701f', glow: '#fcd34d' },
};
const DARK_BACKGROUND: Record<string, string> = {
  professional: '#0c0e12',
  creative: '#120b1a',
  nature: '#0e130e',
  minimal: '#09090b',
  elegant: '#13100e',
};
const FONT = 'DejaVu Sans, Liberation Sans, Arial, sans-serif';
const MARGIN = 72;

export async function renderOgImage(storage: BuilderStorage, input: TOgImageInput): Promise<Buffer> {
  const [style = 'professional', mode = 'light'] = input.theme.trim().toLowerCase().split('-');
  const palette = PALETTES[style] ?? PALETTES.professional!;
  const background = input.backgroundKey ? await readBackground(storage, input.backgroundKey) : null;
  const sharp = await loadSharp();
  const base = background
    ? sharp(background).resize(OG_WIDTH, OG_HEIGHT, { fit: 'cover', position: 'centre' })
    : sharp(Buffer.from(gradientSvg(palette, mode === 'dark' ? (DARK_BACKGROUND[style] ?? null) : null)));
  const overlay = Buffer.from(textSvg(input, background !== null));
  return base
    .composite([{ input: overlay, top: 0, left: 0 }])
    .flatten({ background: '#000000' })
    .png({ compressionLevel: 6 })
    .toBuffer();
}

async function readBackground(storage: BuilderStorage, key: string): Promise<Buffer | null> {
  try {
    const { body } = await storage.get(key);
    return await buffer(body);
  } catch {
    return null; // the gradient will do
  }
}

function gradientSvg(palette: { from: string; to: string; glow: string }, darkBase: string | null): string {
  const from = darkBase ?? palette.from;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${OG_WIDTH}" height="${OG_HEIGHT}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${palette.to}"/></linearGradient>
    <radialGradient id="glow" cx="0.85" cy="0.1" r="0.7"><stop offset="0" stop-color="${palette.glow}" stop-opacity="0.45"/><stop offset="1" stop-color="${palette.glow}" stop-opacity="0"/></radialGradient>
  </defs>
  <rect width="100%" height="100%" fill="url(#bg)"/>
  <rect width="100%" height="100%" fill="url(#glow)"/>
  <circle cx="1080" cy="560" r="220" fill="#ffffff" fill-opacity="0.06"/>
  <circle cx="1010" cy="120" r="90" fill="#ffffff" fill-opacity="0.07"/>
</svg>`;
}

function textSvg(input: TOgImageInput, overPhoto: boolean): string {
  const title = input.title.trim() || 'Shared files';
  const fontSize = title.length <= 28 ? 76 : title.length <= 60 ? 64 : 54;
  const lineHeight = Math.round(fontSize * 1.14);
  const lines = wrapText(title, OG_WIDTH - MARGIN * 2, fontSize, 3);
  const files = `${input.fileCount} ${input.fileCount === 1 ? 'file' : 'files'}`;
  const author = input.authorName.trim();
  const byline = author ? `By ${truncateToWidth(author, 700, 30)} · ${files}` : files;
  const bylineY = OG_HEIGHT - MARGIN;
  const lastTitleY = bylineY - 30 - 28;
  const firstTitleY = lastTitleY - (lines.length - 1) * lineHeight;
  const tspans = lines.map((line, i) => `<tspan x="${MARGIN}" y="${firstTitleY + i * lineHeight}">${escapeXml(line)}</tspan>`).join('');
  const shade = overPhoto
    ? `<defs><linearGradient id="shade" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#000" stop-opacity="0.35"/><stop offset="0.35" stop-color="#000" stop-opacity="0.05"/><stop offset="0.55" stop-color="#000" stop-opacity="0.25"/><stop offset="1" stop-color="#000" stop-opacity="0.82"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#shade)"/>`
    : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${OG_WIDTH}" height="${OG_HEIGHT}">
  ${shade}
  <g font-family="${FONT}" fill="#ffffff">
    <rect x="${MARGIN}" y="${MARGIN - 4}" width="36" height="36" rx="9" fill="#ffffff" fill-opacity="0.95"/>
    <path d="M${MARGIN + 11} ${MARGIN + 5}h6.5a9 9 0 0 1 0 18H${MARGIN + 11}z" fill="none" stroke="#111827" stroke-width="3.2"/>
    <text x="${MARGIN + 50}" y="${MARGIN + 24}" font-size="28" font-weight="700" letter-spacing="0.5">Dropsite</text>
    <text font-size="${fontSize}" font-weight="700" letter-spacing="-1">${tspans}</text>
    <text x="${MARGIN}" y="${bylineY}" font-size="30" fill-opacity="0.88">${escapeXml(byline)}</text>
  </g>
</svg>`;
}

/** Approximate advance of a character in em: wide scripts and emoji take a full em. */
function charWidth(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (
    code >= 0x1100 &&
    (code <= 0x115f ||
      (code >= 0x2e80 && code <= 0xa4cf) ||
      (code >= 0xac00 && code <= 0xd7a3) ||
      (code >= 0xf900 && code <= 0xfaff) ||
      (code >= 0xfe30 && code <= 0xfe4f) ||
      (code >= 0xff00 && code <= 0xff60) ||
      code >= 0x1f300)
  )
    return 1;
  if (/[il.,:;'|!]/.test(char)) return 0.32;
  if (/[A-Z@MWmw]/.test(char)) return 0.74;
  return 0.6;
}

function textWidth(text: string, fontSize: number): number {
  let width = 0;
  for (const char of text) width += charWidth(char);
  return width * fontSize;
}

function truncateToWidth(text: string, maxWidth: number, fontSize: number): string {
  if (textWidth(text, fontSize) <= maxWidth) return text;
  let out = '';
  for (const char of text) {
    if (textWidth(`${out}${char}…`, fontSize) > maxWidth) break;
    out += char;
  }
  return `${out.trimEnd()}…`;
}

/** Greedy word wrap into at most `maxLines`; the last line ends with an ellipsis when text remains. */
export function wrapText(text: string, maxWidth: number, fontSize: number, maxLines: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let current = '';
  for (let i = 0; i < words.length; i++) {
    let word = words[i]!;
    const candidate = current ? `${current} ${word}` : word;
    if (textWidth(candidate, fontSize) <= maxWidth) {
      current = candidate;
      continue;
    }
    if (current) {
      lines.push(current);
      current = '';
      if (lines.length === maxLines) return ellipsize(lines, [word, ...words.slice(i + 1)].join(' '), maxWidth, fontSize);
    }
    // A word longer than a line is broken where it overflows.
    while (textWidth(word, fontSize) > maxWidth) {
      let cut = '';
      for (const char of word) {
        if (textWidth(cut + char, fontSize) > maxWidth) break;
        cut += char;
      }
      lines.push(cut);
      word = word.slice(cut.length);
      if (lines.length === maxLines) return ellipsize(lines, [word, ...words.slice(i + 1)].join(' '), maxWidth, fontSize);
    }
    current = word;
  }
  if (current) lines.push(current);
  return lines;
}

function ellipsize(lines: string[], rest: string, maxWidth: number, fontSize: number): string[] {
  if (!rest.trim()) return lines;
  const last = lines.length - 1;
  lines[last] = truncateToWidth(`${lines[last]!} ${rest}`, maxWidth, fontSize);
  if (!lines[last]!.endsWith('…')) lines[last] = `${lines[last]!}…`;
  return lines;
}

/** Text for an SVG text node: markup escaped, characters XML cannot hold dropped. */
export function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
