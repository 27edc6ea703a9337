/**
 * A site page as the builder stores it: the rendered HTML's bytes, its Brotli and gzip variants,
 * the strong ETag of each, and the hashes of its inline scripts (for the API's CSP). Made by
 * `renderStoredPage` in a render thread (page-render-worker.ts, see page-renderer.ts) or, with no
 * threads, on the builder's own thread.
 */
import { brotliCompress, brotliCompressSync, gzip as gzipCallback, gzipSync } from 'node:zlib';
import { promisify } from 'node:util';
import type { TSiteRenderModel, TStoredCoding } from '@dropsite/shared';
import type { SiteRenderer } from './render.ts';
import { inlineScriptHashes } from './site-csp.ts';
import { brotliOptions, contentEtag, type TCompressionLevels } from './precompress.ts';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzipCallback);

export interface TStoredPage {
  body: Buffer;
  variants: Record<TStoredCoding, Buffer>;
  etags: Record<'identity' | TStoredCoding, string>;
  scriptHashes: string[];
}

/**
 * Renders a site and prepares everything stored of its page. `compress: 'sync'` compresses on the
 * calling thread (a render thread has nothing else to do); 'async' in libuv's pool, off the event loop.
 */
export async function renderStoredPage(renderer: SiteRenderer, model: TSiteRenderModel, levels: TCompressionLevels, compress: 'sync' | 'async'): Promise<TStoredPage> {
  const html = await renderer.render(model);
  const body = Buffer.from(html, 'utf8');
  const options = brotliOptions(levels, body.byteLength);
  const gzipOptions = { level: levels.gzipLevel };
  const [br, gzip] =
    compress === 'sync' ? [brotliCompressSync(body, options), gzipSync(body, gzipOptions)] : await Promise.all([brotliAsync(body, options), gzipAsync(body, gzipOptions)]);
  return {
    body,
    variants: { br, gzip },
    etags: { identity: contentEtag(body), br: contentEtag(br), gzip: contentEtag(gzip) },
    scriptHashes: inlineScriptHashes(html),
  };
}
