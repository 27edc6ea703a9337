/**
 * A file's group: the name of the folder the creator dropped it in (its last folder name). Templates
 * show groups as the gallery's categories and the product showcase's colour variants. Cleaned like a
 * file name is (no control or direction-override characters, spaces collapsed, dots and spaces
 * trimmed at the ends); a group that is still not a plain folder name is refused, never guessed at.
 */
import { z } from 'zod';
import { CONTROL_CHARS, FILE_GROUP_MAX_LENGTH, FILE_GROUP_MESSAGES, cleanGroupText } from './file-group-rules.ts';

export { FILE_GROUP_MAX_LENGTH, FILE_GROUP_MESSAGES, groupFromRelativePath } from './file-group-rules.ts';

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
