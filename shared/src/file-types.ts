/**
 * The file-type catalogue (spec section 4, 'File type detection'): one row per extension Dropsite
 * knows. Everything that depends on a file's type reads it: the kind (file-kind.ts), the viewer
 * (viewer.ts), the type the API serves a file as, what the builder derives, the label and icon the
 * visitor site and the dashboard show. To add a type, add a row; to add a kind or a viewer, follow
 * docs/recipes/add-a-viewer.md.
 */

/** File kinds as the visitor site groups them. */
export const FILE_KINDS = ['image', 'pdf', 'presentation', 'video', 'audio', 'archive', 'document', 'font', 'other'] as const;
export type TFileKind = (typeof FILE_KINDS)[number];

/**
 * What the builder derives from a file: a thumbnail and display copy ('image'), a PDF's preview
 * ('pdf'), a PDF converted by LibreOffice and its preview ('office'), a poster and media summary
 * ('video'), a media summary ('audio'), the tree of a ZIP ('zip'), a reason the archive cannot be
 * listed ('unlisted-archive'), the first lines of a text ('text'), nothing ('none').
 */
export type TDerivation = 'image' | 'pdf' | 'office' | 'video' | 'audio' | 'zip' | 'unlisted-archive' | 'text' | 'none';

/** The icons a file can have; each kind's own, by default. */
export type TFileIcon = TFileKind;

interface TFileTypeRow {
  kind: TFileKind;
  /** Format name in the label ('JPEG image'); the extension in capitals when absent. */
  format?: string;
  /** Noun in the label when it is not the kind's ('Excel spreadsheet'). */
  noun?: string;
  /**
   * The type the API serves the file as, inline: only types a browser shows or plays without running
   * anything the file holds. Absent: the file is only ever an attachment (application/octet-stream).
   */
  servedType?: string;
  derivation: TDerivation;
  /** The icon, when not the kind's. */
  icon?: TFileIcon;
}

const TEXT_PLAIN = 'text/plain; charset=utf-8';
const image = (servedType?: string, format?: string): TFileTypeRow => ({
  kind: 'image',
  derivation: 'image',
  ...(servedType ? { servedType } : {}),
  ...(format ? { format } : {}),
});
const video = (servedType?: string, format?: string): TFileTypeRow => ({
  kind: 'video',
  derivation: 'video',
  ...(servedType ? { servedType } : {}),
  ...(format ? { format } : {}),
});
const audio = (servedType: string): TFileTypeRow => ({ kind: 'audio', derivation: 'audio', servedType });
const archive = (derivation: TDerivation = 'unlisted-archive', format?: string): TFileTypeRow => ({ kind: 'archive', derivation, ...(format ? { format } : {}) });
const office = (kind: 'presentation' | 'document', format?: string, noun?: string): TFileTypeRow => ({
  kind,
  derivation: 'office',
  ...(format ? { format } : {}),
  ...(noun ? { noun } : {}),
});
const text = (format?: string, servedType?: string, noun?: string): TFileTypeRow => ({
  kind: 'document',
  derivation: 'text',
  ...(format ? { format } : {}),
  ...(servedType ? { servedType } : {}),
  ...(noun ? { noun } : {}),
});

/** Every extension Dropsite knows, lower case without the dot. */
export const FILE_TYPES = {
  jpg: image('image/jpeg', 'JPEG'),
  jpeg: image('image/jpeg', 'JPEG'),
  png: image('image/png'),
  gif: image('image/gif'),
  webp: image('image/webp'),
  avif: image('image/avif'),
  // SVG can hold scripts: never served inline, never rasterised from an upload.
  svg: { kind: 'image', derivation: 'none' },
  bmp: image('image/bmp'),
  tif: image(undefined, 'TIFF'),
  tiff: image(undefined, 'TIFF'),
  heic: image(),
  heif: image(),

  pdf: { kind: 'pdf', derivation: 'pdf', servedType: 'application/pdf' },

  ppt: office('presentation', 'PowerPoint'),
  pptx: office('presentation', 'PowerPoint'),
  pps: office('presentation'),
  ppsx: office('presentation'),
  // Handed to the converter, which explains that it cannot open Keynote files.
  key: office('presentation', 'Keynote'),
  odp: office('presentation', 'OpenDocument'),

  mp4: video('video/mp4'),
  mov: video('video/quicktime'),
  m4v: video('video/mp4', 'MP4'),
  webm: video('video/webm'),
  mkv: video(),
  avi: video(),
  ogv: video('video/ogg'),

  mp3: audio('audio/mpeg'),
  wav: audio('audio/wav'),
  ogg: audio('audio/ogg'),
  oga: audio('audio/ogg'),
  m4a: audio('audio/mp4'),
  aac: audio('audio/aac'),
  flac: audio('audio/flac'),

  zip: archive('zip'),
  rar: archive(),
  '7z': archive(),
  tar: archive(),
  gz: archive(),
  tgz: archive('unlisted-archive', 'TAR.GZ'),
  bz2: archive(),
  xz: archive(),

  txt: text('Text', TEXT_PLAIN),
  md: text('Markdown', TEXT_PLAIN),
  csv: text(undefined, TEXT_PLAIN, 'spreadsheet'),
  json: text(undefined, TEXT_PLAIN),
  log: text('Log', TEXT_PLAIN),
  // Served only as attachments: a browser would run HTML, scripts and XML.
  xml: text(),
  html: text(),
  htm: text('HTML'),
  css: text(),
  js: text(),
  ts: text(),
  yml: text('YAML'),
  yaml: text(),
  rtf: office('document'),
  doc: office('document', 'Word'),
  docx: office('document', 'Word'),
  odt: office('document', 'OpenDocument'),
  xls: office('document', 'Excel', 'spreadsheet'),
  xlsx: office('document', 'Excel', 'spreadsheet'),
  ods: office('document', 'OpenDocument', 'spreadsheet'),

  // Fonts hold no script: a browser draws them, and the visitor site shows a specimen.
  ttf: { kind: 'font', derivation: 'none', servedType: 'font/ttf' },
  otf: { kind: 'font', derivation: 'none', servedType: 'font/otf' },
  woff: { kind: 'font', derivation: 'none', servedType: 'font/woff' },
  woff2: { kind: 'font', derivation: 'none', servedType: 'font/woff2' },
} satisfies Record<string, TFileTypeRow>;

const ROWS: Readonly<Record<string, TFileTypeRow | undefined>> = FILE_TYPES;

/** Lower-case extension of a file name without the dot, or '' when there is none. */
export function getExtension(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** The catalogue's row for an extension (lower case, no dot), or null when Dropsite does not know it. */
export function fileTypeOfExtension(ext: string): TFileTypeRow | null {
  return (Object.hasOwn(ROWS, ext) && ROWS[ext]) || null;
}

/** The catalogue's row for a file name's extension, or null when Dropsite does not know it. */
export function fileTypeOf(name: string): TFileTypeRow | null {
  return fileTypeOfExtension(getExtension(name));
}

/** The type the API serves a file as, inline, when a browser may show or play it; null when it is only an attachment. */
export function servedTypeOf(name: string): string | null {
  return fileTypeOf(name)?.servedType ?? null;
}

/** True when the file is of this kind and a browser shows or plays it as the API serves it. */
export function isShownInBrowserAs(name: string, kind: TFileKind): boolean {
  const row = fileTypeOf(name);
  return row?.kind === kind && row.servedType !== undefined;
}

/** The content types of the images a browser displays as they are (the thumbnail stands in for the others). */
export const BROWSER_IMAGE_TYPES: ReadonlySet<string> = new Set(Object.values(ROWS).flatMap((row) => (row?.kind === 'image' && row.servedType ? [row.servedType] : [])));

/** The icon of a file: its row's, else its kind's. */
export function fileIconOf(name: string, kind: TFileKind): TFileIcon {
  const row = fileTypeOf(name);
  return row?.kind === kind && row.icon ? row.icon : kind;
}

const FILE = 'M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z M14 3v5h5';
/** SVG path data of the file icons, drawn as strokes on a 24 px grid: the visitor site and the dashboard draw the same ones. */
export const FILE_ICON_PATHS: Readonly<Record<TFileIcon, string>> = {
  image: 'M5 3h14a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z M9 11a2 2 0 1 0 0-4 2 2 0 0 0 0 4z M21 15l-3.6-3.6a2 2 0 0 0-2.8 0L6 20',
  pdf: `${FILE} M9 13h6 M9 17h4`,
  presentation: 'M4 4h16a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z M8 21h8 M12 17v4',
  video: 'M4 6h10a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2z M16 10.5l6-3.5v10l-6-3.5',
  audio: 'M9 18V5l12-2v13 M6 21a3 3 0 1 0 0-6 3 3 0 0 0 0 6z M18 19a3 3 0 1 0 0-6 3 3 0 0 0 0 6z',
  archive: 'M4 3h16a1 1 0 0 1 1 1v3a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1z M5 8v11a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8 M10 12h4',
  document: `${FILE} M9 9h1 M9 13h6 M9 17h6`,
  font: 'M4 7V4h16v3 M12 4v16 M9 20h6',
  other: FILE,
};
