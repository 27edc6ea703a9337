/**
 * The public site's routes for the route sweep, the link crawl, the accessibility scan and the
 * page benchmark: every prerendered page of the build (`dashboard/dist/pages/index.json`), the
 * landing page and the templates' demo sites; and the route table's required paths, from the
 * specification, so a page that was never built fails by name.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DEMO_PREVIEW_FORMATS, DEMO_PREVIEW_WIDTHS, demoPreviewPath, TEMPLATE_CATALOGUE, TEMPLATE_IDS } from '@dropsite/shared/templates';

/** The built dashboard the API serves (its DASHBOARD_DIR, passed on to the test server; dashboard/dist by default). */
export const DASHBOARD_DIST = path.resolve(
  process.env.DASHBOARD_DIR ?? path.join(path.dirname(createRequire(import.meta.url).resolve('@dropsite/dashboard/package.json')), 'dist'),
);
/** Where the prerender writes its pages' index; the API serves them by path. */
const PAGE_INDEX = path.join(DASHBOARD_DIST, 'pages/index.json');

/** The prerendered 404 page's own entry: served for unknown paths, never at a path of its own. */
export const NOT_FOUND_PAGE = '/404';

/** The templates' demo sites, in the catalogue's order. */
export const DEMO_PATHS: readonly string[] = TEMPLATE_IDS.map((id) => TEMPLATE_CATALOGUE[id].demoPath);

/** Pages the dashboard app renders in the browser: an empty document with the app's script. */
export const APP_PAGES = ['/sign-in', '/dashboard'] as const;

/** The route table (spec 2, with decisions 6: no /backend-data-test, /billing not built yet). */
export const REQUIRED_ROUTES: readonly string[] = [
  '/',
  '/templates',
  '/universal-file-template',
  '/photo-gallery',
  '/portfolio-resume',
  '/event-template',
  '/pitch-template',
  '/product-template',
  '/case-study-template',
  '/client-delivery',
  '/hero-examples',
  '/faq',
  '/help',
  '/blog',
  '/blog-page',
  '/blog/photographer-client-galleries',
  '/blog/agency-delivery',
  '/blog/sales-file-sharing',
  '/blog-photographer-client-galleries',
  '/blog-sales-file-sharing',
  '/privacy-policy',
  '/terms-of-service',
  '/terms-conditions',
  '/refund-cancellation',
  '/about-us',
  '/contact',
  '/feedback',
  '/payment',
  ...APP_PAGES,
];

/** The prerendered pages' paths, the 404 page's included, as the last build wrote them. */
export function builtPagePaths(): string[] {
  let text: string;
  try {
    text = readFileSync(PAGE_INDEX, 'utf8');
  } catch {
    throw new Error(`${PAGE_INDEX} is missing: build the dashboard first (npm run build -w @dropsite/dashboard).`);
  }
  const index: unknown = JSON.parse(text);
  if (typeof index !== 'object' || index === null || Array.isArray(index)) throw new Error(`${PAGE_INDEX} is not a path → file map.`);
  return Object.keys(index);
}

/** Every public route served as a complete HTML page: the landing page, the prerendered pages (not the 404 page) and the demo sites. */
export function publicRoutes(): string[] {
  return [...new Set(['/', ...builtPagePaths().filter((p) => p !== NOT_FOUND_PAGE), ...DEMO_PATHS])];
}

/** Long enough for a fresh server to build the eight demo sites on a busy machine. */
export const DEMO_READY_MS = 240_000;

/** Every demo's card pictures, at every width in every format (the template gallery and the landing page show them). */
export const DEMO_PREVIEW_PATHS: readonly string[] = DEMO_PATHS.flatMap((demo) =>
  DEMO_PREVIEW_WIDTHS.flatMap((width) => DEMO_PREVIEW_FORMATS.map((format) => demoPreviewPath(demo, width, format))),
);

/**
 * Waits until every demo site and each of its card pictures answers 200 (a fresh server builds them
 * after it starts), or the time is up: the checks that follow then fail by name for a demo that never came.
 */
export async function waitForDemoSites(base: string, timeoutMs = DEMO_READY_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let waiting = [...DEMO_PATHS, ...DEMO_PREVIEW_PATHS];
  while (waiting.length > 0 && Date.now() < deadline) {
    const statuses = await Promise.all(
      waiting.map((p) =>
        fetch(new URL(p, base), { redirect: 'manual' }).then(
          (r) => r.status,
          () => 0,
        ),
      ),
    );
    waiting = waiting.filter((_, i) => statuses[i] !== 200);
    if (waiting.length > 0) await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}
