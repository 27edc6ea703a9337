/**
 * Loading PDF.js (bundled, self-hosted with its worker; decisions 6) and fetching a PDF's bytes,
 * with the spec's error messages (section 8). Imported by the PDF viewers only; PDF.js itself is
 * a separate chunk fetched on first use, so a page without PDFs never loads it.
 */
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { readChunks } from '../shared/actions.ts';

type TPdfjs = typeof import('pdfjs-dist');

export const PDF_MESSAGES = {
  invalid: 'This file is not a valid PDF document.',
  download: 'Unable to download PDF file. Please check your connection.',
  library: 'PDF viewer failed to load. Please refresh the page.',
  detached: 'PDF data is no longer available. Please refresh and try again.',
  password: 'This PDF is password-protected, so it cannot be previewed here. Download it to open it.',
  render: 'The PDF could not be displayed.',
} as const;

/** An error the viewer shows as it is. */
export class PdfViewerError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PdfViewerError';
  }
}

let library: Promise<TPdfjs> | null = null;

export function loadPdfLibrary(): Promise<TPdfjs> {
  library ??= import('pdfjs-dist')
    .then((pdfjs) => {
      pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
      return pdfjs;
    })
    .catch((error: unknown) => {
      library = null; // a later 'Try Again' may succeed (a network blip)
      throw new PdfViewerError(PDF_MESSAGES.library, { cause: error });
    });
  return library;
}

/**
 * Serves PDF.js's CMaps, standard fonts and wasm decoders from our own asset route, where the
 * build copied them under flat names (adapter/pdfjs-assets.mjs). Runs in the page, not the worker.
 */
export function createAssetFactory(version: string) {
  const FOLDERS = { cMapUrl: 'cmaps', standardFontDataUrl: 'standard_fonts', wasmUrl: 'wasm' } as const;
  return class FlatAssetFactory {
    async fetch({ kind, filename }: { kind: keyof typeof FOLDERS; filename: string }): Promise<Uint8Array> {
      const folder = FOLDERS[kind];
      if (!folder || !/^[\w.-]+$/.test(filename)) throw new Error(`Unknown PDF.js data: ${kind} ${filename}`);
      const response = await fetch(`/_astro/pdfjs-${version}-${folder}-${filename}`);
      if (!response.ok) throw new Error(`Unable to load PDF.js data ${filename}: ${response.status}`);
      return new Uint8Array(await response.arrayBuffer());
    }
  };
}

/** Fetches a PDF with download progress (0-100 when the size is known). */
export async function fetchPdfBytes(url: string, expectedBytes: number, onProgress: (percent: number) => void, signal: AbortSignal): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(url, { signal, credentials: 'same-origin' });
  } catch (error) {
    throw new PdfViewerError(PDF_MESSAGES.download, { cause: error });
  }
  if (!response.ok || !response.body) {
    throw new PdfViewerError(PDF_MESSAGES.download, { cause: new Error(`${response.status} ${response.statusText}`) });
  }
  let chunks: Uint8Array[];
  try {
    chunks = await readChunks(response.body, response.headers, expectedBytes, (received, total) => {
      if (total > 0) onProgress(Math.min(100, Math.round((received / total) * 100)));
    });
  } catch (error) {
    throw new PdfViewerError(PDF_MESSAGES.download, { cause: error });
  }
  const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Spec 5: a PDF must begin with the signature %PDF; data that is missing or detached is an error. */
export function assertPdfBytes(data: Uint8Array | null | undefined): asserts data is Uint8Array {
  if (!data || (data.buffer instanceof ArrayBuffer && data.buffer.detached)) throw new PdfViewerError(PDF_MESSAGES.detached);
  const isPdf = data.byteLength >= 4 && data[0] === 0x25 && data[1] === 0x50 && data[2] === 0x44 && data[3] === 0x46;
  if (!isPdf) throw new PdfViewerError(PDF_MESSAGES.invalid);
}
