/**
 * Renders site pages for the builder in `threads` worker threads (page-render-worker.ts), or on the
 * builder's own thread when `threads` is 0. Rendering and compressing a page is the CPU of a
 * rebuild (about 3.5 ms to render a 150 KB page and 6.5 ms to compress it on this project's
 * reference machine); in threads it runs on every core and never holds up the event loop that
 * talks to the database, storage and the queue, and in the embedded shape answers visitors.
 *
 * Threads start on first use, each takes renders while others run (a render awaits nothing but its
 * own work, so a thread simply runs them in turn), and all stop after a minute without a render.
 * A thread that fails or exits fails the renders it held (the build's attempts retry them) and is
 * replaced by the next render; one that takes longer than the time limit is terminated.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { TSiteRenderModel } from '@dropsite/shared';
import { loadSiteRenderer, templatePaths, TemplateNotBuiltError } from './render.ts';
import { renderStoredPage, type TStoredPage } from './page-render.ts';
import type { TCompressionLevels } from './precompress.ts';
import type { TPageRenderRequest, TPageRenderResponse, TPageRenderWorkerData } from './page-render-worker.ts';

export interface PageRenderer {
  render(model: TSiteRenderModel): Promise<TStoredPage>;
  /** Waits for the renders in flight, then stops the threads. */
  close(): Promise<void>;
}

export interface TPageRendererOptions {
  /** Worker threads; 0 renders on the calling thread. */
  threads: number;
  levels: TCompressionLevels;
  serverEntry?: string;
  idleMs?: number;
  timeoutMs?: number;
}

const IDLE_MS = 60_000;
const TIMEOUT_MS = 60_000;
const WORKER_HEAP_MB = 512;

interface TPending {
  resolve(page: TStoredPage): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

interface TSlot {
  worker: Worker;
  pending: Map<number, TPending>;
}

export class PageRenderError extends Error {
  constructor(message: string, name = 'PageRenderError') {
    super(message);
    this.name = name;
  }
}

export function createPageRenderer(options: TPageRendererOptions): PageRenderer {
  const threads = Math.max(0, Math.floor(options.threads));
  if (threads === 0) return createInlineRenderer(options);

  const serverEntry = path.resolve(options.serverEntry ?? templatePaths().serverEntry);
  const idleMs = options.idleMs ?? IDLE_MS;
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  const slots: Array<TSlot | null> = Array.from({ length: threads }, () => null);
  const inFlight = new Set<Promise<unknown>>();
  let idleTimer: NodeJS.Timeout | null = null;
  let nextId = 1;
  let closed = false;

  const busy = () => slots.some((slot) => slot !== null && slot.pending.size > 0);

  const stopAll = async () => {
    const running = slots.map((slot, index) => {
      slots[index] = null;
      return slot?.worker.terminate();
    });
    await Promise.all(running);
  };

  const settle = (slot: TSlot) => {
    if (slot.pending.size === 0) slot.worker.unref();
    if (busy()) return;
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => void stopAll(), idleMs);
    idleTimer.unref();
  };

  /** Drops a thread that failed, failing what it held. */
  const discard = (slot: TSlot, error: Error) => {
    const index = slots.indexOf(slot);
    if (index >= 0) slots[index] = null;
    for (const pending of slot.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    slot.pending.clear();
    void slot.worker.terminate();
  };

  const start = (index: number): TSlot => {
    const workerData: TPageRenderWorkerData = { serverEntry, levels: options.levels };
    const worker = new Worker(new URL('./page-render-worker.ts', import.meta.url), {
      workerData,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    const slot: TSlot = { worker, pending: new Map() };
    worker.on('message', (response: TPageRenderResponse) => {
      const pending = slot.pending.get(response.id);
      if (!pending) return;
      slot.pending.delete(response.id);
      clearTimeout(pending.timer);
      if (response.ok) {
        pending.resolve({
          body: Buffer.from(response.body),
          variants: { br: Buffer.from(response.br), gzip: Buffer.from(response.gzip) },
          etags: response.etags,
          scriptHashes: response.scriptHashes,
        });
      } else {
        pending.reject(new PageRenderError(response.message, response.name));
      }
      settle(slot);
    });
    worker.on('error', (error) => discard(slot, new PageRenderError(`The page render thread failed: ${error.message}`)));
    worker.on('exit', () => discard(slot, new PageRenderError('The page render thread stopped')));
    slots[index] = slot;
    return slot;
  };

  /** The thread with the fewest renders waiting, started if it is not running. */
  const pick = (): TSlot => {
    let best = -1;
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i];
      if (!slot) return start(i);
      if (best < 0 || slot.pending.size < slots[best]!.pending.size) best = i;
    }
    return slots[best]!;
  };

  const renderOne = (model: TSiteRenderModel) =>
    new Promise<TStoredPage>((resolve, reject) => {
      if (idleTimer) clearTimeout(idleTimer);
      const slot = pick();
      const id = nextId++;
      const timer = setTimeout(() => discard(slot, new PageRenderError(`Rendering the site took longer than ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
      slot.pending.set(id, { resolve, reject, timer });
      slot.worker.ref();
      const request: TPageRenderRequest = { id, model };
      slot.worker.postMessage(request);
    });

  return {
    render(model) {
      if (closed) return Promise.reject(new PageRenderError('The page renderer is closed'));
      if (!existsSync(serverEntry)) return Promise.reject(new TemplateNotBuiltError(serverEntry));
      const job = renderOne(model);
      inFlight.add(job);
      const forget = () => inFlight.delete(job);
      job.then(forget, forget);
      return job;
    },
    async close() {
      closed = true;
      await Promise.allSettled([...inFlight]);
      if (idleTimer) clearTimeout(idleTimer);
      await stopAll();
    },
  };
}

function createInlineRenderer(options: TPageRendererOptions): PageRenderer {
  const renderer = () => loadSiteRenderer(options.serverEntry ? { serverEntry: options.serverEntry } : {});
  return {
    async render(model) {
      return renderStoredPage(await renderer(), model, options.levels, 'async');
    },
    async close() {},
  };
}
