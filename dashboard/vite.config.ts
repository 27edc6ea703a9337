import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { RESERVED_SLUGS } from '@dropsite/shared';

const API_ORIGIN = 'http://localhost:3000';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Published sites live at /{slug} on the same origin as the dashboard, so in development
 * every slug-shaped first path segment that is not one of the app's own routes goes to the
 * control API. Vite's own paths (/@vite, /src, /node_modules) never have a slug's shape.
 */
const reserved = [...RESERVED_SLUGS].map(escapeRegExp).join('|');
const SITE_PATH = `^/(?!(?:${reserved})(?:[/?#]|$))[a-z0-9][a-z0-9-]{6,62}[a-z0-9](?:[/?#]|$)`;

const toApi = { target: API_ORIGIN, changeOrigin: false };

export default defineConfig(({ isSsrBuild }) => ({
  base: '/',
  plugins: [react()],
  build: isSsrBuild
    ? // The build-time renderer of the public pages (src/public/prerender.tsx), run once by scripts/prerender.ts.
      { outDir: 'dist-ssr', emptyOutDir: true, target: 'node24', copyPublicDir: false }
    : {
        outDir: 'dist',
        emptyOutDir: true,
        target: 'es2022',
        // scripts/prerender.ts reads it to link each public page's script, styles and islands.
        manifest: true,
        rolldownOptions: {
          // The app (landing, sign-in, dashboard) and the one script of the prerendered public pages.
          input: { app: 'index.html', public: 'src/public/public-entry.ts' },
          output: {
            advancedChunks: {
              // zod and the module that turns its eval probe off share one chunk, so the setting is in place
              // before any chunk builds a schema (zod probes for eval when a schema is made; the CSP forbids eval).
              groups: [{ name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]dashboard[\\/]src[\\/]zod-config\.ts$/ }],
            },
          },
        },
      },
  server: {
    proxy: {
      '/api': toApi,
      '/_astro': toApi,
      '/site-assets': toApi,
      [SITE_PATH]: toApi,
    },
  },
  // `vite preview` reuses server.proxy, so a built dashboard can be tried against a running API too.
}));
