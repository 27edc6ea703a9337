/**
 * Which entries of a ZIP archive the server extracts one by one (GET /api/files/{id}/entry).
 * Inflating costs the server CPU the visitor does not pay for, so an entry is extracted on its
 * own only when its declared sizes are reasonable; anything else is only offered inside the
 * whole archive. The API refuses by this rule (413), and the builder marks the entries of an
 * archive's tree with it so the site never offers a download the API would refuse.
 */

export interface TArchiveEntryLimits {
  /** Uncompressed bytes one request may extract (one entry, or a selection together). */
  entryMaxBytes: number;
  /** Bytes per compressed byte an entry may claim past its first `ratioFreeBytes`. */
  entryMaxRatio: number;
}

/** The defaults of ARCHIVE_ENTRY_MAX_BYTES and ARCHIVE_ENTRY_MAX_RATIO. */
export const ARCHIVE_ENTRY_LIMITS: Readonly<TArchiveEntryLimits> = Object.freeze({
  entryMaxBytes: 512 * 1024 ** 2,
  entryMaxRatio: 200,
});

/** Entries this small are extracted whatever their ratio: a MiB of zeros costs nothing. */
export const ARCHIVE_RATIO_FREE_BYTES = 1024 ** 2;

export type TEntryRefusal = 'too_large' | 'too_compressed';

/** Why one entry may not be extracted on its own, or null when it may. */
export function entryRefusal(entry: { size: number; compressedSize: number }, limits: TArchiveEntryLimits = ARCHIVE_ENTRY_LIMITS): TEntryRefusal | null {
  if (entry.size > ARCHIVE_RATIO_FREE_BYTES && entry.size > entry.compressedSize * limits.entryMaxRatio) return 'too_compressed';
  if (entry.size > limits.entryMaxBytes) return 'too_large';
  return null;
}

/** True when the server extracts this entry on its own (see entryRefusal). */
export function isEntryExtractable(entry: { size: number; compressedSize: number }, limits: TArchiveEntryLimits = ARCHIVE_ENTRY_LIMITS): boolean {
  return entryRefusal(entry, limits) === null;
}
