// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import dropsiteRenderAdapter from './adapter/index.mjs';
import interactionHydration from './adapter/interaction-hydration.mjs';
import pdfjsAssets from './adapter/pdfjs-assets.mjs';

/**
 * Built once (`npm run build -w @dropsite/site-template`); the builder then renders every
 * site from dist/server/entry.mjs. Never run `astro build` per site.
 */
export default defineConfig({
  output: 'server',
  adapter: dropsiteRenderAdapter(),
  integrations: [react(), interactionHydration(), pdfjsAssets()],
  // Sites never transform images at render time: the builder derives thumbnails with sharp.
  image: { service: { entrypoint: 'astro/assets/services/noop' } },
  // The template's CSS is one stylesheet under /_astro/, the same for every site of a template
  // version (immutable, cached by the visitor's browser across sites), so a page carries only its
  // own content: about a third of the bytes to render, compress and store at every build.
  build: { inlineStylesheets: 'never' },
  vite: { build: { cssCodeSplit: false } },
  compressHTML: true,
  devToolbar: { enabled: false },
});
