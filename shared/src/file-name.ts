/** Display names of uploaded files: what the creator called a file, made safe to show and to send back. */
import { UPLOAD_LIMITS } from './constants.ts';

// Control characters, and bidirectional overrides/isolates that can disguise an extension ('evil\u202Egpj.exe').
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A name with control characters and direction overrides/isolates removed, NFC-normalised (the core of sanitizeFileName). */
export function stripUnsafeNameChars(text: string): string {
  return text.normalize('NFC').replace(UNSAFE_CHARS, '');
}

/**
 * Cleans a client-supplied file name for display: keeps only the last path part,
 * drops control and direction-override characters, trims dots and spaces, and
 * caps the length while keeping the extension. Never used as a storage path.
 */
export function sanitizeFileName(raw: string): string {
  const lastPart = raw.split(/[\\/]/).pop() ?? '';
  let name = stripUnsafeNameChars(lastPart).replace(/\s+/g, ' ').trim();
  name = name.replace(/^[.\s]+/, '').replace(/[.\s]+$/, '');
  if (name.length > UPLOAD_LIMITS.maxFileNameLength) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    name = name.slice(0, UPLOAD_LIMITS.maxFileNameLength - ext.length) + ext;
  }
  return name || 'file';
}
