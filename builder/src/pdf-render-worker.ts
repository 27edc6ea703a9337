/**
 * Worker thread: reads a PDF with pdfjs-dist and renders its first page onto @napi-rs/canvas
 * canvases, twice: the thumbnail, and the page at display size (what the site's viewer shows
 * before PDF.js has loaded in the visitor's browser). It runs apart from the builder's event loop because pdf.js parses synchronously in
 * Node (its "fake worker"): a hostile PDF could otherwise stall the whole process, whereas a
 * worker can be terminated when it runs out of time or memory.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { createCanvas } from '@napi-rs/canvas';

export interface TPdfRenderRequest {
  id: number;
  data: ArrayBuffer;
  /** Width of the first-page thumbnail in pixels. */
  thumbnailWidth: number;
  /** A page taller than this (very long pages) is cut off at the bottom. */
  maxThumbnailHeight: number;
  /** Width of the first page at display size; the whole page, its long edge at most `maxDisplayEdge`. */
  displayWidth: number;
  maxDisplayEdge: number;
  quality: number;
}

interface TPageImage {
  image: Uint8Array;
  width: number;
  height: number;
}

export type TPdfRenderResponse =
  | { id: number; ok: true; pages: number; thumbnail: TPageImage; display: TPageImage }
  | { id: number; ok: false; reason: 'password' | 'invalid' | 'failed'; message: string };

type TPdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

const require = createRequire(import.meta.url);
const STANDARD_FONTS = path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts') + path.sep;
let pdfjs: Promise<TPdfJs> | null = null;

async function render(request: TPdfRenderRequest): Promise<TPdfRenderResponse> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  const lib = await pdfjs;
  const task = lib.getDocument({
    data: new Uint8Array(request.data),
    standardFontDataUrl: STANDARD_FONTS,
    disableFontFace: true,
    useSystemFonts: false,
    enableXfa: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  try {
    const doc = await task.promise;
    const page = await doc.getPage(1);
    const natural = page.getViewport({ scale: 1 });
    const thumbnail = await renderPage(page, request.thumbnailWidth / natural.width, request.maxThumbnailHeight, request.quality);
    const displayScale = Math.min(request.displayWidth / natural.width, request.maxDisplayEdge / Math.max(natural.width, natural.height));
    const display = await renderPage(page, displayScale, Number.POSITIVE_INFINITY, request.quality);
    return { id: request.id, ok: true, pages: doc.numPages, thumbnail, display };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    const message = error instanceof Error ? error.message : String(error);
    if (name === 'PasswordException') return { id: request.id, ok: false, reason: 'password', message };
    if (name === 'InvalidPDFException') return { id: request.id, ok: false, reason: 'invalid', message };
    return { id: request.id, ok: false, reason: 'failed', message };
  } finally {
    await task.destroy();
  }
}

type TPdfPage = Awaited<ReturnType<Awaited<ReturnType<TPdfJs['getDocument']>['promise']>['getPage']>>;

async function renderPage(page: TPdfPage, scale: number, maxHeight: number, quality: number): Promise<TPageImage> {
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.round(viewport.width));
  const height = Math.max(1, Math.min(maxHeight, Math.round(viewport.height)));
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  // PDF pages are paper: transparent areas are white, not black.
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  await page.render({ canvas: canvas as unknown as HTMLCanvasElement, canvasContext: context as unknown as CanvasRenderingContext2D, viewport }).promise;
  // A copy with its own ArrayBuffer: the encoder's Buffer may sit in a shared pool, which must not be transferred.
  return { image: new Uint8Array(await canvas.encode('webp', quality)), width, height };
}

parentPort?.on('message', (request: TPdfRenderRequest) => {
  render(request).then(
    (response) => {
      const transfer = response.ok ? [response.thumbnail.image.buffer as ArrayBuffer, response.display.image.buffer as ArrayBuffer] : [];
      parentPort?.postMessage(response, transfer);
    },
    (error: unknown) => parentPort?.postMessage({ id: request.id, ok: false, reason: 'failed', message: String(error) } satisfies TPdfRenderResponse),
  );
});
