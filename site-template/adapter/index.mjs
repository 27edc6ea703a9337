// @ts-check
/**
 * The Dropsite render adapter: the smallest adapter Astro accepts. Its server entry
 * exports an `App` that the builder imports once, in plain Node, and calls per site.
 * There is no HTTP server here: the builder renders HTML strings and stores them.
 */

/** @returns {import('astro').AstroIntegration} */
export default function dropsiteRenderAdapter() {
  return {
    name: '@dropsite/render-adapter',
    hooks: {
      'astro:config:setup': ({ command, updateConfig }) => {
        if (command !== 'build') return;
        // Bundle React into the server entry with NODE_ENV fixed to production, so rendering
        // uses React's production build whatever NODE_ENV the builder's process runs with
        // (React's development build renders about 2x slower).
        updateConfig({
          vite: {
            ssr: { noExternal: ['react', 'react-dom', 'scheduler'] },
            define: { 'process.env.NODE_ENV': JSON.stringify('production') },
          },
        });
      },
      'astro:config:done': ({ setAdapter }) => {
        setAdapter({
          name: '@dropsite/render-adapter',
          entrypointResolution: 'auto',
          serverEntrypoint: new URL('./server.mjs', import.meta.url),
          supportedAstroFeatures: {
            serverOutput: 'stable',
            staticOutput: 'unsupported',
            hybridOutput: 'unsupported',
            sharpImageService: 'unsupported',
          },
        });
      },
    },
  };
}
