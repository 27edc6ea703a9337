import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { TSiteRenderModel } from '@dropsite/shared';
import { createPageRenderer, type PageRenderer } from './page-renderer.ts';
import { PAGE_COMPRESSION, contentEtag } from './precompress.ts';
import { buildRenderModel } from './render-model.ts';
import { TemplateNotBuiltError } from './render.ts';
import { scriptHash } from './site-csp.ts';
import { ensureTemplateBuilt } from '@dropsite/testkit/builder/ensure-template-built';
import { makeSite } from '@dropsite/testkit/builder/fixtures';

import { MISBEHAVING_TEMPLATE_ENTRY as MISBEHAVING_ENTRY } from '@dropsite/testkit/builder/template-entries';

const renderers: PageRenderer[] = [];
function renderer(options: Partial<Parameters<typeof createPageRenderer>[0]> = {}): PageRenderer {
  const made = createPageRenderer({ threads: 2, levels: PAGE_COMPRESSION, serverEntry: MISBEHAVING_ENTRY, ...options });
  renderers.push(made);
  return made;
}
afterAll(async () => {
  await Promise.all(renderers.map((r) => r.close()));
});

function site(slug: string): TSiteRenderModel {
  return buildRenderModel(makeSite({ slug }), [], {}, 'https://dropsite.test/', null);
}

describe('createPageRenderer', () => {
  beforeAll(ensureTemplateBuilt, 180_000);

  it('stores the same page from its threads as from the builder’s own thread: bytes, variants, tags and script hashes', async () => {
    const model = buildRenderModel(makeSite({ title: 'Autumn proofs', description: 'Pick your favourites' }), [], {}, 'https://dropsite.test/', null);
    const inThreads = await renderer({ serverEntry: undefined }).render(model);
    const inline = await renderer({ threads: 0, serverEntry: undefined }).render(model);

    expect(inThreads.body.toString('utf8')).toContain('<title>Autumn proofs');
    expect(inThreads.body.equals(inline.body)).toBe(true);
    expect(inThreads.etags).toEqual(inline.etags);
    expect(inThreads.scriptHashes).toEqual(inline.scriptHashes);
    expect(inThreads.scriptHashes.length).toBeGreaterThan(0);
    // Each variant is the page, and each tag is of the bytes it names.
    expect(brotliDecompressSync(inThreads.variants.br).equals(inThreads.body)).toBe(true);
    expect(gunzipSync(inThreads.variants.gzip).equals(inThreads.body)).toBe(true);
    expect(inThreads.variants.br.length).toBeLessThan(inThreads.body.length / 3);
    expect(inThreads.etags).toEqual({ identity: contentEtag(inThreads.body), br: contentEtag(inThreads.variants.br), gzip: contentEtag(inThreads.variants.gzip) });
  }, 60_000);

  it('renders many sites at once across its threads, each its own page', async () => {
    const pages = renderer();
    const slugs = Array.from({ length: 24 }, (_, i) => `site${i}`);
    const rendered = await Promise.all(slugs.map((slug) => pages.render(site(slug))));
    expect(rendered.map((page) => /<title>(\w+)<\/title>/.exec(page.body.toString('utf8'))?.[1])).toEqual(slugs);
    expect(rendered[0]!.scriptHashes).toEqual([scriptHash("document.title += '!'")]);
  });

  it('fails a render the template refuses with the template’s message, and renders the next site', async () => {
    const pages = renderer({ threads: 1 });
    await expect(pages.render(site('fails'))).rejects.toThrow('The template could not render this site');
    expect((await pages.render(site('after'))).body.toString('utf8')).toContain('<title>after</title>');
  });

  it('fails the renders of a thread that stopped, and starts another for the next site', async () => {
    const pages = renderer({ threads: 1 });
    await expect(pages.render(site('exits'))).rejects.toThrow('The page render thread stopped');
    expect((await pages.render(site('after'))).body.toString('utf8')).toContain('<title>after</title>');
  });

  it('ends a render past its time limit, and renders the next site in a new thread', async () => {
    const pages = renderer({ threads: 1, timeoutMs: 500 });
    await expect(pages.render(site('hangs'))).rejects.toThrow('Rendering the site took longer than 1 s');
    expect((await pages.render(site('after'))).body.toString('utf8')).toContain('<title>after</title>');
  });

  it('says when the template is not built, and refuses renders once closed', async () => {
    await expect(renderer({ serverEntry: '/nonexistent/dist/server/entry.mjs' }).render(site('x'))).rejects.toThrow(TemplateNotBuiltError);
    const pages = renderer();
    await pages.render(site('before'));
    await pages.close();
    await expect(pages.render(site('late'))).rejects.toThrow('The page renderer is closed');
  });
});
