/**
 * A site page as the builder stores it: the rendered HTML's bytes, its Brotli and gzip variants,
 * the strong ETag of each, and the hashes of its inline scripts (for the API's CSP). Made by
 * `renderStoredPage` in a render thread (page-render-worker.ts, see page-renderer.ts) or, with no
 * threads, on the builder's own thread.
 */
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { TSiteRenderModel, TStoredCoding } from '@dropsite/shared';
import type { SiteRenderer } from './render.ts';
import { inlineScriptHashes } from './site-csp.ts';
import { brotliOptions, compressVariants, contentEtag, type TCompressionLevels } from './precompress.ts';

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
  const variants =
    compress === 'sync'
      ? { br: brotliCompressSync(body, brotliOptions(levels, body.byteLength)), gzip: gzipSync(body, { level: levels.gzipLevel }) }
      : await compressVariants(body, levels);
  return {
    body,
    variants,
    etags: { identity: contentEtag(body), br: contentEtag(variants.br), gzip: contentEtag(variants.gzip) },
    scriptHashes: inlineScriptHashes(html),
  };
}
