// @ts-check
/**
 * Adds the `client:interaction` directive (src/lib/interaction-directive.ts): islands hydrate when
 * they are in view and the visitor has given any input, replaying a click that came before. Astro
 * inlines the directive's code into each page that uses it; the builder's CSP hashes cover it.
 */

import { fileURLToPath } from 'node:url';

/** @returns {import('astro').AstroIntegration} */
export default function interactionHydration() {
  return {
    name: '@dropsite/interaction-hydration',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({ name: 'interaction', entrypoint: fileURLToPath(new URL('../src/lib/interaction-directive.ts', import.meta.url)) });
      },
    },
  };
}
