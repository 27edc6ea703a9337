/**
 * Runs PDF renders in one worker thread (pdf-render-worker.ts), one at a time. The worker is
 * started on first use, kept for the next PDFs of the build (loading pdf.js costs ~150 ms),
 * stopped after a minute idle, and terminated and replaced when a render runs out of time or
 * memory, so a hostile PDF costs at most one time limit.
 */
import { Worker } from 'node:worker_threads';
import type { TPdfRenderRequest, TPdfRenderResponse } from './pdf-render-worker.ts';

interface TPdfPageImage {
  image: Buffer;
  width: number;
  height: number;
}

export interface TPdfRenderResult {
  pages: number;
  /** The first page, `thumbnailWidth` wide (cut off at three times that height). */
  thumbnail: TPdfPageImage;
  /** The whole first page, `displayWidth` wide unless its long edge would pass `maxDisplayEdge`. */
  display: TPdfPageImage;
}

interface TPdfRenderOptions {
  thumbnailWidth: number;
  displayWidth: number;
  maxDisplayEdge: number;
  timeoutMs: number;
}

export class PdfRenderError extends Error {
  readonly reason: 'password' | 'invalid' | 'failed' | 'timeout';
  constructor(reason: PdfRenderError['reason'], message: string) {
    super(message);
    this.name = 'PdfRenderError';
    this.reason = reason;
  }
}

export interface PdfRenderer {
  render(pdf: Uint8Array, options: TPdfRenderOptions): Promise<TPdfRenderResult>;
  close(): Promise<void>;
}

const IDLE_MS = 60_000;
const WORKER_HEAP_MB = 1024;

export function createPdfRenderer(): PdfRenderer {
  let worker: Worker | null = null;
  let idleTimer: NodeJS.Timeout | null = null;
  let nextId = 1;
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;

  const stopWorker = async () => {
    const current = worker;
    worker = null;
    if (current) await current.terminate();
  };

  const getWorker = (): Worker => {
    if (idleTimer) clearTimeout(idleTimer);
    if (!worker) {
      worker = new Worker(new URL('./pdf-render-worker.ts', import.meta.url), {
        resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
        stdout: true, // pdf.js warnings stay out of the builder's log
        stderr: true,
      });
      worker.stdout.resume();
      worker.stderr.resume();
    }
    return worker;
  };

  const runOne = (pdf: Uint8Array, options: TPdfRenderOptions) =>
    new Promise<TPdfRenderResult>((resolve, reject) => {
      const current = getWorker();
      current.ref();
      const id = nextId++;
      const finish = () => {
        clearTimeout(timer);
        current.off('message', onMessage);
        current.off('error', onError);
        current.off('exit', onExit);
        current.unref();
        if (idleTimer) clearTimeout(idleTimer);
        idleTimer = setTimeout(() => void stopWorker(), IDLE_MS);
        idleTimer.unref();
      };
      const onMessage = (response: TPdfRenderResponse) => {
        if (response.id !== id) return;
        finish();
        const toImage = ({ image, width, height }: { image: Uint8Array; width: number; height: number }) => ({ image: Buffer.from(image), width, height });
        if (response.ok) resolve({ pages: response.pages, thumbnail: toImage(response.thumbnail), display: toImage(response.display) });
        else reject(new PdfRenderError(response.reason, response.message));
      };
      const onError = (error: Error) => {
        finish();
        if (worker === current) worker = null;
        const outOfMemory = (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
        reject(new PdfRenderError('failed', outOfMemory ? 'The PDF needs too much memory to render' : error.message));
      };
      const onExit = () => {
        finish();
        if (worker === current) worker = null;
        reject(new PdfRenderError('failed', 'The PDF renderer stopped'));
      };
      const timer = setTimeout(() => {
        finish();
        if (worker === current) worker = null;
        void current.terminate();
        reject(new PdfRenderError('timeout', `Rendering the PDF took longer than ${Math.round(options.timeoutMs / 1000)} s`));
      }, options.timeoutMs);
      current.on('message', onMessage);
      current.on('error', onError);
      current.on('exit', onExit);
      // The worker gets its own copy, transferred rather than cloned (a Buffer may be a view of a shared pool).
      const data = new ArrayBuffer(pdf.byteLength);
      new Uint8Array(data).set(pdf);
      const request: TPdfRenderRequest = {
        id,
        data,
        thumbnailWidth: options.thumbnailWidth,
        maxThumbnailHeight: options.thumbnailWidth * 3,
        displayWidth: options.displayWidth,
        maxDisplayEdge: options.maxDisplayEdge,
        quality: 78,
      };
      current.postMessage(request, [data]);
    });

  return {
    render(pdf, options) {
      if (closed) return Promise.reject(new Error('The PDF renderer is closed'));
      const job = queue.then(() => runOne(pdf, options));
      queue = job.catch(() => {});
      return job;
    },
    async close() {
      closed = true;
      await queue;
      if (idleTimer) clearTimeout(idleTimer);
      await stopWorker();
    },
  };
}
