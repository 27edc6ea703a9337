/**
 * What a stored file may be served as. The type comes from the file-type catalogue by
 * extension, never from the uploader's claim; anything that a browser could run
 * (HTML, SVG, XML, scripts) is only ever an attachment.
 */
import { servedTypeOf } from '@dropsite/shared';

export interface TServedType {
  contentType: string;
  /** False when the file may only be downloaded, never shown inline. */
  isInlineSafe: boolean;
}

export function servedTypeFor(fileName: string): TServedType {
  const type = servedTypeOf(fileName);
  return type ? { contentType: type, isInlineSafe: true } : { contentType: 'application/octet-stream', isInlineSafe: false };
}
