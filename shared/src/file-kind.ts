/** File kinds as the visitor site groups them (spec section 4, 'File type detection'). */
export const FILE_KINDS = ['image', 'pdf', 'presentation', 'video', 'audio', 'archive', 'document', 'other'] as const;
export type TFileKind = (typeof FILE_KINDS)[number];

const EXTENSION_KINDS: Record<string, TFileKind> = {};
const register = (kind: TFileKind, exts: string[]) => {
  for (const e of exts) EXTENSION_KINDS[e] = kind;
};
register('image', ['jpg', 'jpeg', 'png', 'gif', 'webp', 'avif', 'svg', 'bmp', 'tif', 'tiff', 'heic', 'heif']);
register('pdf', ['pdf']);
register('presentation', ['ppt', 'pptx', 'key', 'odp']);
register('video', ['mp4', 'mov', 'm4v', 'webm', 'mkv', 'avi', 'ogv']);
register('audio', ['mp3', 'wav', 'ogg', 'oga', 'm4a', 'aac', 'flac']);
register('archive', ['zip', 'rar', '7z', 'tar', 'gz', 'tgz', 'bz2', 'xz']);
register('document', ['txt', 'md', 'csv', 'json', 'xml', 'html', 'htm', 'css', 'js', 'ts', 'log', 'yml', 'yaml', 'rtf', 'doc', 'docx', 'odt', 'xls', 'xlsx', 'ods']);

/** Lower-case extension of a file name without the dot, or '' when there is none. */
export function getExtension(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** Detects a file's kind from its extension first, then its MIME type. */
export function detectFileKind(name: string, mimeType = ''): TFileKind {
  const byExt = EXTENSION_KINDS[getExtension(name)];
  if (byExt) return byExt;
  const mime = mimeType.toLowerCase();
  if (mime === 'application/pdf') return 'pdf';
  if (mime.includes('presentation') || mime.includes('powerpoint')) return 'presentation';
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  if (/zip|x-rar|x-7z|x-tar|gzip/.test(mime)) return 'archive';
  if (mime.startsWith('text/')) return 'document';
  return 'other';
}

/** Raster image formats the builder can decode and thumbnail. SVG is never rasterised from uploads. */
export const RASTER_IMAGE_EXTENSIONS = new Set(['jpg', 'jpeg', 'png', 'gif', 'webp', 'avif', 'tif', 'tiff', 'heic', 'heif', 'bmp']);

/** Format names that read better than their extension. */
const FORMAT_NAMES: Record<string, string> = {
  jpg: 'JPEG',
  jpeg: 'JPEG',
  tif: 'TIFF',
  tiff: 'TIFF',
  htm: 'HTML',
  yml: 'YAML',
  md: 'Markdown',
  txt: 'Text',
  log: 'Log',
  doc: 'Word',
  docx: 'Word',
  xls: 'Excel',
  xlsx: 'Excel',
  ppt: 'PowerPoint',
  pptx: 'PowerPoint',
  key: 'Keynote',
  odt: 'OpenDocument',
  ods: 'OpenDocument',
  odp: 'OpenDocument',
  m4v: 'MP4',
  tgz: 'TAR.GZ',
  quicktime: 'QuickTime',
};

/** The noun after the format name, by kind; spreadsheets are documents the visitor site groups as such, but read as spreadsheets. */
const KIND_NOUNS: Record<TFileKind, string> = {
  image: 'image',
  pdf: 'document',
  presentation: 'presentation',
  video: 'video',
  audio: 'audio',
  archive: 'archive',
  document: 'document',
  other: 'file',
};
const SPREADSHEET_EXTENSIONS = new Set(['csv', 'xls', 'xlsx', 'ods']);

/**
 * A file's type in words, the same wherever a person reads it: 'JPEG image', 'PDF document', 'MP4 video',
 * 'ZIP archive', 'Excel spreadsheet'. From the extension, else the MIME type's subtype, else 'File'.
 */
export function describeFileType(name: string, mimeType = ''): string {
  const kind = detectFileKind(name, mimeType);
  const ext = getExtension(name);
  const noun = SPREADSHEET_EXTENSIONS.has(ext) ? 'spreadsheet' : KIND_NOUNS[kind];
  if (ext && /^[a-z0-9]{1,5}$/.test(ext)) return `${FORMAT_NAMES[ext] ?? ext.toUpperCase()} ${noun}`;
  const subtype = /^[a-z]+\/([a-z0-9.+-]{1,12})$/i.exec(mimeType.trim())?.[1];
  if (subtype && kind !== 'other' && !subtype.includes('.') && !subtype.startsWith('x-')) return `${FORMAT_NAMES[subtype.toLowerCase()] ?? subtype.toUpperCase()} ${noun}`;
  return kind === 'other' ? 'File' : `${noun.charAt(0).toUpperCase()}${noun.slice(1)}`;
}

/** Formats a byte count as the dashboard shows it: Bytes, KB, MB, GB or TB with up to 2 decimals. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const units = ['Bytes', 'KB', 'MB', 'GB', 'TB'];
  const i = Math.min(units.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  const value = bytes / 1024 ** i;
  return `${parseFloat(value.toFixed(2))} ${units[i]}`;
}

/** A Site Title suggested from a file name: extension removed, dashes and underscores to spaces, words capitalised. */
export function titleFromFileName(name: string): string {
  return titleFromFolderName(name.replace(/\.[^./\\]+$/, ''));
}

/** A Site Title suggested from a folder name: dashes and underscores to spaces, words capitalised (a dot is kept). */
export function titleFromFolderName(name: string): string {
  return name
    .replace(/[-_]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\b\p{L}/gu, (c) => c.toUpperCase());
}
