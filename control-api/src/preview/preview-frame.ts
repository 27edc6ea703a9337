/**
 * GET /api/preview/frame: the page the wizard's preview iframe opens. It is sandboxed without
 * allow-same-origin (an opaque origin: the preview's scripts can reach neither the dashboard nor
 * its cookies), framed only by the dashboard, and runs under the site's CSP with the preview's
 * inline script hashes (given by the dashboard from POST /api/preview's policy, checked one by one).
 *
 * The loader below tells the dashboard it is ready; the dashboard answers with the rendered HTML
 * and the creator's chosen files (postMessage clones them); the loader makes its own blob: URLs
 * (the dashboard's are not reachable from an opaque origin), puts them in place of the file
 * placeholders and writes the page.
 */
import { Router } from 'express';
import { z } from 'zod';
import { scriptHash } from '@dropsite/builder';
import { MAX_SCRIPT_HASHES, previewFrameCsp, ZScriptHashSchema } from '../sites/site-csp.ts';

export const PREVIEW_FRAME_PATH = '/api/preview/frame';

/** The messages both sides exchange. */
export const PREVIEW_READY_MESSAGE = 'dropsite-preview-ready';
export const PREVIEW_CONTENT_MESSAGE = 'dropsite-preview-content';

const LOADER =
  '(function(){var P=/\\/api\\/preview-file\\/([A-Za-z0-9_-]{1,64})/g;' +
  'function m(e){var d=e.data;' +
  `if(e.source!==parent||!d||d.type!=='${PREVIEW_CONTENT_MESSAGE}'||typeof d.html!=='string'||!Array.isArray(d.files))return;` +
  "removeEventListener('message',m);var u=new Map();" +
  "d.files.forEach(function(f){if(f&&typeof f.id==='string'&&f.file instanceof Blob)u.set(f.id,URL.createObjectURL(f.file))});" +
  'var h=d.html.replace(P,function(a,id){return u.has(id)?u.get(id):a});' +
  'document.open();document.write(h);document.close()}' +
  `addEventListener('message',m);parent.postMessage({type:'${PREVIEW_READY_MESSAGE}'},'*')})()`;

const LOADER_HASH = scriptHash(LOADER);
const FRAME_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Preview</title><script>${LOADER}</script></head><body></body></html>`;

const ZFrameQuerySchema = z.object({
  script: z.union([ZScriptHashSchema, z.array(ZScriptHashSchema).max(MAX_SCRIPT_HASHES)]).optional(),
});

/** The headers of a preview's HTML (the frame, the rendered draft): never stored, never sniffed, under its own policy. */
export function previewPageHeaders(csp: string): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': csp,
  };
}

export function createPreviewFrameRoutes(): Router {
  const router = Router();
  router.get(PREVIEW_FRAME_PATH, (req, res) => {
    const query = ZFrameQuerySchema.parse(req.query);
    const given = query.script === undefined ? [] : Array.isArray(query.script) ? query.script : [query.script];
    res
      .status(200)
      .set({ ...previewPageHeaders(previewFrameCsp([LOADER_HASH, ...new Set(given)])), 'Referrer-Policy': 'no-referrer' })
      .send(FRAME_HTML);
  });
  return router;
}
