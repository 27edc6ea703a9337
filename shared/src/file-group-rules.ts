/**
 * A file's group (its rules, without zod; the schema is in ./file-group.ts): the name of the folder the creator dropped it in (its last folder name). Templates
 * show groups as the gallery's categories and the product showcase's colour variants. Cleaned like a
 * file name is (no control or direction-override characters, spaces collapsed, dots and spaces
 * trimmed at the ends); a group that is still not a plain folder name is refused, never guessed at.
 */
import { stripUnsafeNameChars } from './file-name.ts';

export const FILE_GROUP_MAX_LENGTH = 80;

export const FILE_GROUP_MESSAGES = {
  controlCharacters: 'group must not contain control characters',
  slashes: 'group must be one folder name, without / or \\',
  empty: 'group must have at least one visible character',
  tooLong: `group must be at most ${FILE_GROUP_MAX_LENGTH} characters`,
} as const;

export const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;

/** NFC, invisible direction characters removed, runs of spaces made one, dots and spaces trimmed at both ends. */
export function cleanGroupText(text: string): string {
  return stripUnsafeNameChars(text)
    .replace(/\s+/g, ' ')
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
}

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
