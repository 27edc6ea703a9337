/** Which publish protocol a set of files takes (spec 4, 'Upload mode by size'). */
import { MODE_THRESHOLDS } from './constants.ts';

export const UPLOAD_MODES = ['direct-chunked', 'direct', 'chunked', 'regular'] as const;
export type TUploadMode = (typeof UPLOAD_MODES)[number];

/** The badge the wizard shows for each mode, as the spec words it. */
export const UPLOAD_MODE_BADGES: Record<TUploadMode, string> = {
  'direct-chunked': 'Ultra-Fast Chunked Mode',
  direct: 'Direct Storage Mode',
  chunked: 'Fast Mode Active',
  regular: 'Standard Upload',
};

/** What each mode means for the creator, in one plain line beside its badge. */
export const UPLOAD_MODE_EXPLANATIONS: Record<TUploadMode, string> = {
  'direct-chunked': 'Big files go straight to storage in pieces; if the page reloads, the upload carries on where it stopped.',
  direct: 'Your files go straight to storage, then are made ready for viewing.',
  chunked: 'Large files go up in pieces; a piece that fails is sent again on its own.',
  regular: 'Your files are small enough to send in one go.',
};

/**
 * The spec's rules, applied in its order:
 * 1. direct-chunked: any file over 100 MB, or a total over 200 MB;
 * 2. direct: any file between 50 MB and 100 MB, or a total over 100 MB;
 * 3. chunked: any file over 50 MB;
 * 4. otherwise one regular request.
 * 'Between' is read as strictly between, so rule 3 still catches a file of exactly 100 MB.
 */
export function chooseUploadMode(files: readonly { size: number }[]): TUploadMode {
  const { fileChunked, fileDirectChunked, totalDirect, totalDirectChunked } = MODE_THRESHOLDS;
  const total = files.reduce((sum, f) => sum + f.size, 0);
  if (files.some((f) => f.size > fileDirectChunked) || total > totalDirectChunked) return 'direct-chunked';
  if (files.some((f) => f.size > fileChunked && f.size < fileDirectChunked) || total > totalDirect) return 'direct';
  if (files.some((f) => f.size > fileChunked)) return 'chunked';
  return 'regular';
}
