/**
 * A file's group: the name of the folder the creator dropped it in (its last folder name). Templates
 * show groups as the gallery's categories and the product showcase's colour variants. Cleaned like a
 * file name is (no control or direction-override characters, spaces collapsed, dots and spaces
 * trimmed at the ends); a group that is still not a plain folder name is refused, never guessed at.
 */
import { z } from 'zod';
import { stripUnsafeNameChars } from './file-name.ts';

export const FILE_GROUP_MAX_LENGTH = 80;

export const FILE_GROUP_MESSAGES = {
  controlCharacters: 'group must not contain control characters',
  slashes: 'group must be one folder name, without / or \\',
  empty: 'group must have at least one visible character',
  tooLong: `group must be at most ${FILE_GROUP_MAX_LENGTH} characters`,
} as const;

const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;

/** NFC, invisible direction characters removed, runs of spaces made one, dots and spaces trimmed at both ends. */
function cleanGroupText(text: string): string {
  return stripUnsafeNameChars(text)
    .replace(/\s+/g, ' ')
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
}

/**
 * A group as a client sends it: blank (or absent) is no group (null); otherwise cleaned, then
 * refused when it holds control characters or slashes, cleans to nothing, or is longer than 80.
 */
export const ZFileGroupSchema = z.preprocess(
  (v) => (v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? null : v),
  z
    .string()
    .max(1024, FILE_GROUP_MESSAGES.tooLong)
    .refine((s) => !CONTROL_CHARS.test(s), FILE_GROUP_MESSAGES.controlCharacters)
    .refine((s) => !/[\\/]/.test(s), FILE_GROUP_MESSAGES.slashes)
    .transform(cleanGroupText)
    .pipe(z.string().min(1, FILE_GROUP_MESSAGES.empty).max(FILE_GROUP_MAX_LENGTH, FILE_GROUP_MESSAGES.tooLong))
    .nullable(),
);

/**
 * The group of a file picked with its relative path ('Shoot/Portraits/anna.jpg' → 'Portraits'): the
 * folder that directly holds it, or null for a file at the top of the drop. The browser's folder name
 * is made one the server takes: cleaned, a backslash made a space, cut to 80 characters.
 */
export function groupFromRelativePath(relativePath: string): string | null {
  const parts = relativePath.split('/').filter((p) => p !== '');
  if (parts.length < 2) return null;
  // stripUnsafeNameChars (in the cleaning) also removes control characters.
  let group = cleanGroupText((parts[parts.length - 2] ?? '').replace(/\\/g, ' '));
  if (group.length > FILE_GROUP_MAX_LENGTH) {
    group = group.slice(0, FILE_GROUP_MAX_LENGTH);
    // Never half of a surrogate pair.
    if (/[\ud800-\udbff]$/.test(group)) group = group.slice(0, -1);
    group = cleanGroupText(group);
  }
  return group === '' ? null : group;
}
