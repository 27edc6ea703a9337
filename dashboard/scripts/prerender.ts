/**
 * Writes the prerendered public pages after `vite build` (the browser bundles) and
 * `vite build --ssr src/public/prerender.tsx` (the renderer):
 *
 * - `dist/pages/{name}.html` for every public page, and `dist/pages/index.json` (path → file);
 * - `dist/index.html`: the landing page's markup inside the app's document, hydrated by `main.tsx`;
 * - `dist/app.html`: the app's empty document, for the pages it renders in the browser (dashboard, account…);
 * - `dist/sign-in.html`: the app's document with the sign-in page's first view in it;
 * - `dist/sitemap.xml` (the public pages and the templates' demo sites) and `dist/robots.txt`.
 *
 * Absolute URLs (canonical, Open Graph, sitemap) are written with the placeholder `%PUBLIC_URL%`,
 * which the API replaces with its PUBLIC_URL when it loads the files: one build serves any origin.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { TEMPLATE_CATALOGUE, TEMPLATE_IDS } from '@dropsite/shared/templates';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST = path.join(ROOT, 'dist');
const PRODUCT = 'Dropsite';
const ORIGIN = '%PUBLIC_URL%';
const LANDING = {
  title: 'Dropsite — Turn your files into a shareable site',
  description: 'Drop your files, add a title, and share a link and QR code to a polished mini-site for your clients.',
};

const ZManifestSchema = z.record(
  z.string(),
  z.object({
    file: z.string(),
    css: z.array(z.string()).optional(),
    imports: z.array(z.string()).optional(),
    dynamicImports: z.array(z.string()).optional(),
    isEntry: z.boolean().optional(),
  }),
);
type TManifest = z.infer<typeof ZManifestSchema>;

const ZRenderedSchema = z.array(
  z.object({
    path: z.string(),
    title: z.string(),
    description: z.string(),
    ogType: z.enum(['website', 'article']),
    unlisted: z.boolean(),
    canonical: z.string(),
    html: z.string(),
  }),
);
type TRendered = z.infer<typeof ZRenderedSchema>[number];

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Every chunk an entry loads up front (its static imports, transitively), and their styles. */
function closure(manifest: TManifest, key: string): { js: string[]; css: string[] } {
  const js: string[] = [];
  const css = new Set<string>();
  const seen = new Set<string>();
  const visit = (k: string) => {
    if (seen.has(k)) return;
    seen.add(k);
    const chunk = manifest[k];
    if (!chunk) throw new Error(`The build manifest has no ${k}.`);
    js.push(chunk.file);
    for (const file of chunk.css ?? []) css.add(file);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  visit(key);
  return { js, css: [...css] };
}

/** The island chunk of each `islands/{name}.ts`, from the public entry's dynamic imports. */
function islandChunks(manifest: TManifest): Map<string, string[]> {
  const entry = manifest['src/public/public-entry.ts'];
  const islands = new Map<string, string[]>();
  for (const key of entry?.dynamicImports ?? []) {
    const name = /src\/public\/islands\/([\w-]+)\.ts$/.exec(key)?.[1];
    if (name) islands.set(name, closure(manifest, key).js);
  }
  return islands;
}

/**
 * Title, description, canonical URL and link-preview tags. The 404 page (`isErrorPage`) answers at
 * every unknown address, so it names no address of its own and asks not to be indexed.
 */
function headTags(page: { canonical: string; title: string; description: string; ogType: string; isErrorPage?: boolean }): string {
  const url = `${ORIGIN}${page.canonical}`;
  const title = escapeHtml(page.title);
  const description = escapeHtml(page.description);
  const address = page.isErrorPage ? ['<meta name="robots" content="noindex" />'] : [`<link rel="canonical" href="${url}" />`, `<meta property="og:url" content="${url}" />`];
  return [
    `<title>${title}</title>`,
    `<meta name="description" content="${description}" />`,
    ...address,
    `<meta property="og:site_name" content="${PRODUCT}" />`,
    `<meta property="og:type" content="${page.ogType}" />`,
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
    `<meta property="og:image" content="${ORIGIN}/og.png" />`,
    `<meta property="og:image:width" content="1200" />`,
    `<meta property="og:image:height" content="630" />`,
    `<meta name="twitter:card" content="summary_large_image" />`,
    `<meta name="twitter:title" content="${title}" />`,
    `<meta name="twitter:description" content="${description}" />`,
    `<meta name="twitter:image" content="${ORIGIN}/og.png" />`,
  ].join('\n    ');
}

/**
 * The app document's first tags (charset, viewport, colour scheme, theme colours), which every public
 * page begins with too: index.html is their one source.
 */
function documentMeta(appHtml: string): string {
  const tags = appHtml.match(/<meta (?:charset|name="(?:viewport|color-scheme|theme-color)")[^>]*>/g);
  if (!tags) throw new Error('dist/index.html has no charset, viewport or colour meta tags.');
  return tags.join('\n    ');
}

function publicDocument(page: TRendered, meta: string, assets: { js: string[]; css: string[] }, islands: string[]): string {
  const entry = assets.js[0];
  const preloads = [...assets.js.slice(1), ...islands].map((file) => `<link rel="modulepreload" href="/${file}" />`);
  return `<!doctype html>
<html lang="en">
  <head>
    ${meta}
    ${headTags({ ...page, title: page.path === '/' ? page.title : `${page.title} · ${PRODUCT}`, isErrorPage: page.path === '/404' })}
    <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
    ${assets.css.map((file) => `<link rel="stylesheet" href="/${file}" />`).join('\n    ')}
    <script type="module" src="/${entry}"></script>
    ${preloads.join('\n    ')}
  </head>
  <body>
    <div id="root">${page.html}</div>
  </body>
</html>
`;
}

/** The file a public path is written to: `/faq` → `faq.html`, `/blog/agency-delivery` → `blog--agency-delivery.html`. */
function fileOf(pagePath: string): string {
  return `${pagePath.slice(1).replace(/\//g, '--') || 'index'}.html`;
}

async function main() {
  const manifest = ZManifestSchema.parse(JSON.parse(await readFile(path.join(DIST, '.vite/manifest.json'), 'utf8')));
  const renderer = (await import(pathToFileURL(path.join(ROOT, 'dist-ssr/prerender.js')).href)) as {
    renderPublicPages(): unknown;
    renderLanding(): string;
    renderSignInShell(): string;
  };
  const pages = ZRenderedSchema.parse(renderer.renderPublicPages());

  const appHtml = await readFile(path.join(DIST, 'index.html'), 'utf8');
  if (!appHtml.includes('<div id="root"></div>')) throw new Error('dist/index.html has no empty #root to prerender into.');
  const meta = documentMeta(appHtml);
  const assets = closure(manifest, 'src/public/public-entry.ts');
  const islands = islandChunks(manifest);
  const outDir = path.join(DIST, 'pages');
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const index: Record<string, string> = {};
  for (const page of pages) {
    if (index[page.path]) throw new Error(`Two public pages answer ${page.path}.`);
    const used = [...new Set([...page.html.matchAll(/data-island="([^"]+)"/g)].flatMap((m) => (m[1] ?? '').split(/\s+/)))];
    const missing = used.filter((name) => !islands.has(name));
    if (missing.length) throw new Error(`${page.path} uses islands that do not exist: ${missing.join(', ')}.`);
    const file = fileOf(page.path);
    index[page.path] = file;
    await writeFile(
      path.join(outDir, file),
      publicDocument(
        page,
        meta,
        assets,
        used.flatMap((name) => islands.get(name) ?? []),
      ),
    );
  }
  await writeFile(path.join(outDir, 'index.json'), `${JSON.stringify(index, null, 2)}\n`);

  // The app's own document: kept empty for the pages it renders in the browser, and filled with the landing page.
  await writeFile(path.join(DIST, 'app.html'), appHtml);
  const landingHead = headTags({ canonical: '/', title: LANDING.title, description: LANDING.description, ogType: 'website' });
  const landing = appHtml
    .replace(/<title>[\s\S]*?<\/title>/, '')
    .replace(/<meta\s+name="description"[\s\S]*?\/>/, '')
    .replace('</head>', `  ${landingHead}\n  </head>`)
    .replace('<div id="root"></div>', `<div id="root">${renderer.renderLanding()}</div>`);
  await writeFile(path.join(DIST, 'index.html'), landing);
  // The sign-in page's first view in the app's document: its heading and form before any script runs
  // (the form inert until the page's own code replaces it, so nothing typed early is lost to a reload).
  const signIn = appHtml
    .replace(/<title>[\s\S]*?<\/title>/, `<title>Sign in · ${PRODUCT}</title>`)
    .replace('<div id="root"></div>', `<div id="root" data-shell="sign-in">${renderer.renderSignInShell().replace('<form ', '<form inert="" ')}</div>`);
  await writeFile(path.join(DIST, 'sign-in.html'), signIn);

  // A page that repeats another (its canonical is elsewhere) is left to that one.
  // The templates' demo sites are public pages of the product too.
  const demos = TEMPLATE_IDS.map((id) => TEMPLATE_CATALOGUE[id].demoPath);
  const listed = [...new Set(['/', ...pages.filter((page) => !page.unlisted && page.canonical === page.path).map((page) => page.path), ...demos])];
  const sitemap = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${listed.map((p) => `  <url><loc>${ORIGIN}${p}</loc></url>`).join('\n')}
</urlset>
`;
  await writeFile(path.join(DIST, 'sitemap.xml'), sitemap);
  await writeFile(
    path.join(DIST, 'robots.txt'),
    `User-agent: *\nDisallow: /api/\nDisallow: /dashboard\nDisallow: /account\nDisallow: /billing\n\nSitemap: ${ORIGIN}/sitemap.xml\n`,
  );
  console.log(`Prerendered ${pages.length} public pages and the landing page.`);
}

await main();
