/**
 * One entry point for deriving any file: picks the derivation for its kind and extension,
 * answers from the content-hash cache when it can, and turns every failure into metadata with
 * `error` (the site then shows a download card with that reason). Never throws.
 */
import { fileTypeOf, type TDerivation, type TDerivedMetadata, type TFileKind } from '@dropsite/shared';
import { deriveImage, isDerivableImage, readCachedDerivation, type TDeriveImageOptions } from './derive-image.ts';
import { PreviewUnavailableError, readDerivationCache, writeDerivationCache } from './derive-cache.ts';
import { derivePdf } from './derive-pdf.ts';
import { deriveOffice, type TDeriveOfficeOptions } from './derive-office.ts';
import { deriveAudio, deriveVideo, type TDeriveMediaOptions } from './derive-media.ts';
import { deriveZipArchive, isZipArchive, unsupportedArchive } from './derive-archive.ts';
import { deriveText } from './derive-text.ts';
import type { PdfRenderer } from './pdf-renderer.ts';
import type { TArchiveLimits } from './zip-archive.ts';
import type { BuilderStorage, TBuildFile } from './types.ts';
import type { TGate } from './limiter.ts';

export interface TDeriveFileOptions {
  pdfRenderer: PdfRenderer;
  image?: TDeriveImageOptions;
  pdf?: { maxInputBytes?: number; timeoutMs?: number };
  media?: TDeriveMediaOptions;
  office?: Omit<TDeriveOfficeOptions, 'renderer' | 'gate'>;
  /** Serialises office conversions within a process. */
  officeGate?: TGate;
  /** Bounds derivation work (cache misses) across every build of a process; cache hits never wait for it. */
  workGate?: TGate;
  archiveLimits?: TArchiveLimits;
}

export interface TDeriveFileOutcome {
  metadata: TDerivedMetadata;
  /** True when work was done (a cache miss). */
  derived: boolean;
  derivation: TDerivation;
  /** Milliseconds of work, on a cache miss. */
  ms?: number;
  /** The technical reason behind `metadata.error`, for logs only. */
  cause?: string;
}

const GENERIC_FAILURE = 'Preview not available: this file could not be processed.';

/**
 * What the builder does with a file: its catalogue row's derivation (file-types.ts) when the row is
 * of the file's kind; else its kind's, for names the catalogue does not know (a type from the MIME).
 */
export function chooseDerivation(file: Pick<TBuildFile, 'name' | 'type'>, kind: TFileKind): TDerivation {
  const row = fileTypeOf(file.name);
  switch (kind) {
    case 'image':
      return isDerivableImage(file) ? 'image' : 'none';
    case 'archive':
      return isZipArchive(file) ? 'zip' : 'unlisted-archive';
    case 'document':
      return row?.derivation === 'office' ? 'office' : 'text';
    default:
      if (row?.kind === kind) return row.derivation;
      return KIND_DERIVATIONS[kind];
  }
}

/** The derivation of a kind whose file's extension says nothing more. */
const KIND_DERIVATIONS: Record<Exclude<TFileKind, 'image' | 'archive' | 'document'>, TDerivation> = {
  pdf: 'pdf',
  presentation: 'office',
  video: 'video',
  audio: 'audio',
  font: 'none',
  other: 'text',
};

export async function deriveFile(
  storage: BuilderStorage,
  file: TBuildFile,
  kind: TFileKind,
  options: TDeriveFileOptions,
  onWork: (derivation: TDerivation) => void = () => {},
): Promise<TDeriveFileOutcome> {
  const derivation = chooseDerivation(file, kind);
  if (derivation === 'none') return { metadata: { sha256: file.sha256, kind }, derived: false, derivation };
  const gate = options.workGate ?? (<T>(work: () => Promise<T>) => work());
  if (derivation === 'image') {
    const cached = await readCachedDerivation(storage, file).catch(() => null);
    if (cached) return { metadata: { ...cached, kind: 'image' }, derived: false, derivation };
    // deriveImage looks at the cache again once it has a slot: another builder may have made it meanwhile.
    const { outcome, ms } = await gate(async () => {
      const started = performance.now();
      return { outcome: await deriveImage(storage, file, options.image), ms: Math.round(performance.now() - started) };
    });
    return { metadata: { ...outcome.metadata, kind: 'image' }, derived: outcome.derived, derivation, ...(outcome.derived ? { ms } : {}) };
  }

  const cached = await readDerivationCache(storage, file, kind, derivation);
  if (cached) return { metadata: cached, derived: false, derivation };

  onWork(derivation);
  let started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const metadata = await gate(() => {
      started = performance.now(); // the work's own time, not the wait for a slot
      return run(storage, file, kind, derivation, options);
    });
    await writeDerivationCache(storage, metadata);
    return { metadata, derived: true, derivation, ms: elapsed() };
  } catch (error) {
    const cause = describeCause(error);
    if (error instanceof PreviewUnavailableError) {
      const metadata: TDerivedMetadata = { sha256: file.sha256, kind, error: error.message };
      if (error.final) await writeDerivationCache(storage, metadata).catch(() => {});
      return { metadata, derived: true, derivation, ms: elapsed(), cause };
    }
    return { metadata: { sha256: file.sha256, kind, error: GENERIC_FAILURE }, derived: true, derivation, ms: elapsed(), cause };
  }
}

function run(storage: BuilderStorage, file: TBuildFile, kind: TFileKind, derivation: TDerivation, options: TDeriveFileOptions): Promise<TDerivedMetadata> {
  const pdfOptions = { renderer: options.pdfRenderer, ...options.pdf };
  switch (derivation) {
    case 'pdf':
      return derivePdf(storage, file, pdfOptions);
    case 'office':
      return deriveOffice(storage, file, kind, { ...pdfOptions, ...options.office, ...(options.officeGate ? { gate: options.officeGate } : {}) });
    case 'video':
      return deriveVideo(storage, file, options.media);
    case 'audio':
      return deriveAudio(storage, file, options.media);
    case 'zip':
      return deriveZipArchive(storage, file, options.archiveLimits);
    case 'unlisted-archive':
      return Promise.reject(unsupportedArchive(file));
    case 'text':
      return deriveText(storage, file, kind);
    default:
      return Promise.resolve({ sha256: file.sha256, kind });
  }
}

function describeCause(error: unknown): string {
  const root = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const message = root instanceof Error ? root.message : String(root);
  return message.split('\n')[0]!.slice(0, 300);
}
