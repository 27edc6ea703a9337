/** `Content-Disposition` with the file name encoded per RFC 6266 / RFC 5987. */
import { stripUnsafeNameChars } from '@dropsite/shared';

export function contentDisposition(type: 'attachment' | 'inline', rawFileName: string): string {
  // The upload rule for every name sent back: no control characters, no direction overrides ('photo\u202Egpj.exe').
  const fileName = stripUnsafeNameChars(rawFileName).trim();
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_') || 'file';
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
