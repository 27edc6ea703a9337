/**
 * PDFs: page count, a 300 px WebP of the first page (derived/{sha}/thumb-300.webp) and the whole
 * first page at display size (derived/{sha}/display.webp): the site's PDF viewer shows that
 * picture at once and loads PDF.js only when the visitor turns to the document.
 * The file must start with the %PDF signature (spec 5); pdf.js needs the whole file in memory,
 * so originals above the input limit get a download card instead.
 */
import { THUMBNAIL_SIZE, derivedKeys, type TDerivedMetadata } from '@dropsite/shared';
import { DERIVED_CONTENT_TYPE, IMMUTABLE_CACHE_CONTROL } from './derive-image.ts';
import { PreviewUnavailableError, readObject } from './derive-cache.ts';
import { PdfRenderError, type PdfRenderer, type TPdfRenderResult } from './pdf-renderer.ts';
import type { BuilderStorage, TBuildFile } from './types.ts';

export interface TDerivePdfOptions {
  renderer: PdfRenderer;
  /** Originals above this size are not opened. Default 200 MiB. */
  maxInputBytes?: number;
  /** Time limit of one render. Default 60 s. */
  timeoutMs?: number;
}

export const PDF_DEFAULTS = { maxInputBytes: 200 * 1024 * 1024, timeoutMs: 60_000 } as const;

/**
 * The first page at display size: 1200 px wide, more than the viewer's widest fit (880 CSS px) at
 * 1x and a phone's column at 3x, about 45-80 KB for a page of text (1600 px cost half as much again,
 * for a picture PDF.js replaces as soon as the visitor turns to it); a tall page's long edge stops
 * at 1800 px, so it stays whole.
 */
export const PDF_PAGE_DISPLAY = { width: 1200, maxEdge: 1800 } as const;

/** Spec 8, 'Not a PDF'. */
export const NOT_A_PDF = 'This file is not a valid PDF document.';

export function hasPdfSignature(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46;
}

export async function derivePdf(storage: BuilderStorage, file: Pick<TBuildFile, 'storageKey' | 'sha256' | 'size'>, options: TDerivePdfOptions): Promise<TDerivedMetadata> {
  const maxInputBytes = options.maxInputBytes ?? PDF_DEFAULTS.maxInputBytes;
  const head = await readObject(storage, file.storageKey, file.size, 5);
  if (!hasPdfSignature(head)) throw new PreviewUnavailableError(NOT_A_PDF, { final: true });
  if (file.size > maxInputBytes) {
    throw new PreviewUnavailableError('Preview not available: this PDF is larger than the preview limit.', { final: true });
  }
  const bytes = await readObject(storage, file.storageKey, file.size);
  return { sha256: file.sha256, kind: 'pdf', format: 'pdf', ...(await renderPdfPreview(storage, file.sha256, bytes, options)) };
}

/** Page count, first-page thumbnail and display picture of PDF bytes (an upload, or a converted document), stored under the sha's folder. */
export async function renderPdfPreview(
  storage: BuilderStorage,
  sha256: string,
  bytes: Uint8Array,
  options: TDerivePdfOptions,
): Promise<Pick<TDerivedMetadata, 'pages' | 'thumbnail' | 'display'>> {
  if (!hasPdfSignature(bytes)) throw new PreviewUnavailableError(NOT_A_PDF, { final: true });
  let result: TPdfRenderResult;
  try {
    result = await options.renderer.render(bytes, {
      thumbnailWidth: THUMBNAIL_SIZE,
      displayWidth: PDF_PAGE_DISPLAY.width,
      maxDisplayEdge: PDF_PAGE_DISPLAY.maxEdge,
      timeoutMs: options.timeoutMs ?? PDF_DEFAULTS.timeoutMs,
    });
  } catch (error) {
    if (error instanceof PdfRenderError) {
      if (error.reason === 'password') {
        throw new PreviewUnavailableError('Preview not available: this PDF is password protected.', { final: true, cause: error });
      }
      if (error.reason === 'invalid') throw new PreviewUnavailableError(NOT_A_PDF, { final: true, cause: error });
      if (error.reason === 'timeout') {
        throw new PreviewUnavailableError('Preview not available: this PDF took too long to read.', { final: false, cause: error });
      }
      throw new PreviewUnavailableError('Preview not available: this PDF could not be read.', { final: false, cause: error });
    }
    throw error;
  }
  const keys = derivedKeys(sha256);
  const put = { contentType: DERIVED_CONTENT_TYPE, cacheControl: IMMUTABLE_CACHE_CONTROL };
  await Promise.all([storage.put(keys.thumbnail, result.thumbnail.image, put), storage.put(keys.display, result.display.image, put)]);
  return {
    pages: result.pages,
    thumbnail: { key: keys.thumbnail, width: result.thumbnail.width, height: result.thumbnail.height, contentType: DERIVED_CONTENT_TYPE },
    display: { key: keys.display, width: result.display.width, height: result.display.height, contentType: DERIVED_CONTENT_TYPE },
  };
}
