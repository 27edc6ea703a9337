/**
 * Archives: the tree of a ZIP archive from its central directory (zip-archive.ts). Nothing is
 * inflated, so a zip bomb costs a few range reads. Other formats get a download card.
 */
import { fileTypeOf, getExtension, type TDerivedMetadata } from '@dropsite/shared';
import { PreviewUnavailableError } from './derive-cache.ts';
import { ARCHIVE_LIMITS, openZipArchive, type TArchiveLimits } from './zip-archive.ts';
import type { BuilderStorage, TBuildFile } from './types.ts';

/** Whether the builder can list this archive (by extension, or by type when it has none). */
export function isZipArchive(file: Pick<TBuildFile, 'name' | 'type'>): boolean {
  if (getExtension(file.name)) return fileTypeOf(file.name)?.derivation === 'zip';
  return /zip/i.test(file.type);
}

export async function deriveZipArchive(
  storage: BuilderStorage,
  file: Pick<TBuildFile, 'storageKey' | 'sha256' | 'size'>,
  limits: TArchiveLimits = ARCHIVE_LIMITS,
): Promise<TDerivedMetadata> {
  const archive = await openZipArchive(storage, file.storageKey, file.size, limits);
  archive.close();
  return { sha256: file.sha256, kind: 'archive', format: 'zip', archive: archive.summary };
}

export function unsupportedArchive(file: Pick<TBuildFile, 'name'>): PreviewUnavailableError {
  const ext = getExtension(file.name);
  return new PreviewUnavailableError(`Preview not available for ${ext ? `.${ext} archives` : 'this archive'}: download it to see what is inside.`, { final: true });
}
