/**
 * Renders a site from the built template: imports site-template/dist/server/entry.mjs once,
 * matches its one route once, then calls `app.render` per site with the model in locals.
 *
 * NODE_ENV: the template build bundles React with NODE_ENV fixed to 'production'
 * (site-template/adapter), so rendering uses React's production build whatever NODE_ENV the
 * calling process has; callers need not set it.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { TSiteRenderModel } from '@dropsite/shared';

export interface TTemplatePaths {
  /** site-template package directory. */
  packageDir: string;
  /** Server entry of the built template. */
  serverEntry: string;
  /** Client output; its `_astro/` folder holds the island bundles. */
  clientDir: string;
}

export interface SiteRenderer {
  readonly serverEntry: string;
  /** Renders one site to a complete HTML document. */
  render(site: TSiteRenderModel): Promise<string>;
}

/** The part of Astro's App the builder uses. */
interface TAstroApp {
  match(request: Request): unknown;
  render(request: Request, options: { locals: object; routeData: unknown }): Promise<Response>;
}

/** The request every site renders from; its URL only selects the route and is never printed. */
const RENDER_URL = 'http://dropsite.internal/';

export function templatePaths(): TTemplatePaths {
  const require = createRequire(import.meta.url);
  const packageDir = path.dirname(require.resolve('@dropsite/site-template/package.json'));
  return {
    packageDir,
    serverEntry: path.join(packageDir, 'dist', 'server', 'entry.mjs'),
    clientDir: path.join(packageDir, 'dist', 'client'),
  };
}

export class TemplateNotBuiltError extends Error {
  constructor(serverEntry: string) {
    super(`The site template is not built (${serverEntry} is missing). Run npm run build first (npm run build -w @dropsite/site-template).`);
    this.name = 'TemplateNotBuiltError';
  }
}

const loaded = new Map<string, Promise<SiteRenderer>>();

/** Loads the built template once per entry path; later calls share it. */
export function loadSiteRenderer(options: { serverEntry?: string } = {}): Promise<SiteRenderer> {
  const serverEntry = path.resolve(options.serverEntry ?? templatePaths().serverEntry);
  let renderer = loaded.get(serverEntry);
  if (!renderer) {
    renderer = createRenderer(serverEntry);
    loaded.set(serverEntry, renderer);
    renderer.catch(() => loaded.delete(serverEntry));
  }
  return renderer;
}

async function createRenderer(serverEntry: string): Promise<SiteRenderer> {
  if (!existsSync(serverEntry)) throw new TemplateNotBuiltError(serverEntry);
  const entry = (await import(pathToFileURL(serverEntry).href)) as { app?: TAstroApp };
  const app = entry.app;
  if (!app || typeof app.render !== 'function') throw new Error(`${serverEntry} does not export an Astro App as 'app'; rebuild the template.`);
  const routeData = app.match(new Request(RENDER_URL));
  if (!routeData) throw new Error(`The site template has no route for '/'; rebuild the template.`);

  return {
    serverEntry,
    async render(site) {
      const response = await app.render(new Request(RENDER_URL), { locals: { site }, routeData });
      const html = await response.text();
      // Let I/O and timers run between renders: a tight loop of renders otherwise grows the heap.
      await yieldToEventLoop();
      if (response.status !== 200) {
        throw new Error(`Rendering site ${site.slug} failed with status ${response.status}: ${html.slice(0, 200)}`);
      }
      return html;
    },
  };
}
