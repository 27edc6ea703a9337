/** A file's kind and words for its type, from the file-type catalogue (file-types.ts). */
import { fileTypeOf, fileTypeOfExtension, getExtension, type TFileKind } from './file-types.ts';

/** Detects a file's kind from its extension first, then its MIME type. */
export function detectFileKind(name: string, mimeType = ''): TFileKind {
  const byExt = fileTypeOf(name)?.kind;
  if (byExt) return byExt;
  const mime = mimeType.toLowerCase();
  if (mime === 'application/pdf') return 'pdf';
  if (mime.includes('presentation') || mime.includes('powerpoint')) return 'presentation';
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  if (/zip|x-rar|x-7z|x-tar|gzip/.test(mime)) return 'archive';
  if (mime.startsWith('text/')) return 'document';
  if (/^font\/|^application\/(x-)?font-/.test(mime)) return 'font';
  return 'other';
}

/** Format names of MIME subtypes that are no extension ('video/quicktime'). */
const SUBTYPE_FORMAT_NAMES: Record<string, string> = { quicktime: 'QuickTime' };

/** The format name of an extension or MIME subtype: the catalogue's, else the text in capitals. */
function formatName(extOrSubtype: string): string {
  return fileTypeOfExtension(extOrSubtype)?.format ?? SUBTYPE_FORMAT_NAMES[extOrSubtype] ?? extOrSubtype.toUpperCase();
}

/** The noun after the format name, by kind (the catalogue names spreadsheets, documents that read as such). */
const KIND_NOUNS: Record<TFileKind, string> = {
  image: 'image',
  pdf: 'document',
  presentation: 'presentation',
  video: 'video',
  audio: 'audio',
  archive: 'archive',
  document: 'document',
  font: 'font',
  other: 'file',
};

/**
 * A file's type in words, the same wherever a person reads it: 'JPEG image', 'PDF document', 'MP4 video',
 * 'ZIP archive', 'Excel spreadsheet'. From the extension, else the MIME type's subtype, else 'File'.
 */
export function describeFileType(name: string, mimeType = ''): string {
  const kind = detectFileKind(name, mimeType);
  const ext = getExtension(name);
  const row = fileTypeOf(name);
  const noun = (row?.kind === kind && row.noun) || KIND_NOUNS[kind];
  if (ext && /^[a-z0-9]{1,5}$/.test(ext)) return `${formatName(ext)} ${noun}`;
  const subtype = /^[a-z]+\/([a-z0-9.+-]{1,12})$/i.exec(mimeType.trim())?.[1];
  if (subtype && kind !== 'other' && !subtype.includes('.') && !subtype.startsWith('x-')) return `${formatName(subtype.toLowerCase())} ${noun}`;
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
