/**
 * Render thread: loads the built template once and, per message, renders a site's page and makes
 * its stored form (page-render.ts), so rendering and compressing, the CPU of a rebuild, run apart
 * from the event loop that talks to the database, storage and the queue (and, in the embedded
 * shape, answers visitors). page-renderer.ts starts and feeds these threads.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { TSiteRenderModel } from '@dropsite/shared';
import { loadSiteRenderer } from './render.ts';
import { renderStoredPage } from './page-render.ts';
import type { TCompressionLevels } from './precompress.ts';

export interface TPageRenderWorkerData {
  serverEntry?: string;
  levels: TCompressionLevels;
}

export interface TPageRenderRequest {
  id: number;
  model: TSiteRenderModel;
}

export type TPageRenderResponse =
  | {
      id: number;
      ok: true;
      body: ArrayBuffer;
      br: ArrayBuffer;
      gzip: ArrayBuffer;
      etags: { identity: string; br: string; gzip: string };
      scriptHashes: string[];
    }
  | { id: number; ok: false; name: string; message: string };

const port = parentPort;
if (!port) throw new Error('page-render-worker.ts runs as a worker thread');
const data = workerData as TPageRenderWorkerData;
const renderer = loadSiteRenderer(data.serverEntry ? { serverEntry: data.serverEntry } : {});
renderer.catch(() => {}); // reported with the first render

port.on('message', (request: TPageRenderRequest) => {
  void renderOne(request).then(
    ({ response, transfer }) => port.postMessage(response, transfer),
    (error: unknown) => {
      const failure: TPageRenderResponse = {
        id: request.id,
        ok: false,
        name: error instanceof Error ? error.name : 'Error',
        message: error instanceof Error ? error.message : String(error),
      };
      port.postMessage(failure);
    },
  );
});

async function renderOne(request: TPageRenderRequest): Promise<{ response: TPageRenderResponse; transfer: ArrayBuffer[] }> {
  const page = await renderStoredPage(await renderer, request.model, data.levels, 'sync');
  const body = ownBuffer(page.body);
  const br = ownBuffer(page.variants.br);
  const gzip = ownBuffer(page.variants.gzip);
  return { response: { id: request.id, ok: true, body, br, gzip, etags: page.etags, scriptHashes: page.scriptHashes }, transfer: [body, br, gzip] };
}

/** The bytes in an ArrayBuffer of their own, so it can be transferred (a small Buffer may be a view of a shared pool). */
function ownBuffer(bytes: Buffer): ArrayBuffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength && bytes.buffer instanceof ArrayBuffer) return bytes.buffer;
  const copy = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(copy).set(bytes);
  return copy;
}
