/**
 * Worker thread: reads a PDF with pdfjs-dist and renders its first page onto an @napi-rs/canvas
 * canvas. It runs apart from the builder's event loop because pdf.js parses synchronously in
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
  quality: number;
}

export type TPdfRenderResponse =
  | { id: number; ok: true; pages: number; thumbnail: Uint8Array; width: number; height: number }
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
    const scale = request.thumbnailWidth / natural.width;
    const viewport = page.getViewport({ scale });
    const width = Math.max(1, Math.round(viewport.width));
    const height = Math.max(1, Math.min(request.maxThumbnailHeight, Math.round(viewport.height)));
    const canvas = createCanvas(width, height);
    const context = canvas.getContext('2d');
    // PDF pages are paper: transparent areas are white, not black.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    await page.render({ canvas: canvas as unknown as HTMLCanvasElement, canvasContext: context as unknown as CanvasRenderingContext2D, viewport }).promise;
    // A copy with its own ArrayBuffer: the encoder's Buffer may sit in a shared pool, which must not be transferred.
    const thumbnail = new Uint8Array(await canvas.encode('webp', request.quality));
    return { id: request.id, ok: true, pages: doc.numPages, thumbnail, width, height };
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

parentPort?.on('message', (request: TPdfRenderRequest) => {
  render(request).then(
    (response) => {
      const transfer = response.ok ? [response.thumbnail.buffer as ArrayBuffer] : [];
      parentPort?.postMessage(response, transfer);
    },
    (error: unknown) => parentPort?.postMessage({ id: request.id, ok: false, reason: 'failed', message: String(error) } satisfies TPdfRenderResponse),
  );
});
