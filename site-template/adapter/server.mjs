// @ts-check
/**
 * Server entry of the built template (dist/server/entry.mjs). The builder imports it once
 * and renders each site with `app.render(request, { locals: { site }, routeData })`.
 */
import { createApp } from 'astro/app/entrypoint';

export const app = createApp({ streaming: false });
