/**
 * What a stored file may be served as. The type comes from our allow-list by
 * extension, never from the uploader's claim; anything that a browser could run
 * (HTML, SVG, XML, scripts) is only ever an attachment.
 */
import { getExtension } from '@dropsite/shared';

const INLINE_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  bmp: 'image/bmp',
  pdf: 'application/pdf',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  ogv: 'video/ogg',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  flac: 'audio/flac',
  txt: 'text/plain; charset=utf-8',
  md: 'text/plain; charset=utf-8',
  csv: 'text/plain; charset=utf-8',
  log: 'text/plain; charset=utf-8',
  json: 'text/plain; charset=utf-8',
};

export interface TServedType {
  contentType: string;
  /** False when the file may only be downloaded, never shown inline. */
  isInlineSafe: boolean;
}

export function servedTypeFor(fileName: string): TServedType {
  const type = INLINE_TYPES[getExtension(fileName)];
  return type ? { contentType: type, isInlineSafe: true } : { contentType: 'application/octet-stream', isInlineSafe: false };
}
