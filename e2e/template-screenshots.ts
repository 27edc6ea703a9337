/**
 * Screenshots of the eight templates, to look at: builds the same files (photos in two folders,
 * a CV-like PDF, a spec sheet, notes) once per template with the builder, serves them the way the
 * API serves a site, and shoots each at 1280 and 375 px wide, light and dark, full page.
 * No running app needed. Usage:
 *   node e2e/template-screenshots.ts [--out /tmp/shots/templates] [--port 4610] [--only photo-gallery,pitch-template]
 *     [--widths 1280,375] [--modes light,dark] [--serve]
 * With --serve it keeps serving after the shots (open http://localhost:4610/{template}).
 */
import { createServer } from 'node:http';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { DEFAULT_SITE_SETTINGS, TEMPLATE_ASSETS_PREFIX, TEMPLATE_IDS, type TTemplateId } from '@dropsite/shared';
import { assetContentType, createSiteBuilder, type TBuildFile } from '@dropsite/builder';
import { MemoryStorage } from '@dropsite/testkit/builder/memory-storage';
import { addFile, makeImage, makeSite } from '@dropsite/testkit/builder/fixtures';
import { makePdf } from '@dropsite/testkit/builder/media-fixtures';
import { settleForPicture } from './page-settle.ts';
import { hydrateAll } from './visitor-support.ts';

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: '/tmp/shots/templates' },
    port: { type: 'string', default: '4610' },
    only: { type: 'string' },
    serve: { type: 'boolean', default: false },
    widths: { type: 'string', default: '1280,375' },
    modes: { type: 'string', default: 'light,dark' },
  },
});
const out = path.resolve(values.out);
const port = Number(values.port);
const base = `http://localhost:${port}`;
const only = values.only ? new Set(values.only.split(',')) : null;

const storage = new MemoryStorage();
const builder = createSiteBuilder({ storage, siteOrigin: base, log: { info() {}, warn: console.warn, error: console.error } });

const photo = async (name: string, group: string, w: number, h: number, hue: number) => addFile(storage, name, await makeImage(w, h, { hue }), { group });
const files: TBuildFile[] = [
  await photo('01-arrival.jpg', 'Sage green', 3000, 2000, 140),
  await photo('02-detail.jpg', 'Sage green', 2000, 3000, 110),
  await photo('03-workshop.jpg', 'Sage green', 2400, 2400, 160),
  await photo('04-studio.jpg', 'Sage green', 3200, 2000, 95),
  await photo('05-dusk.jpg', 'Navy', 3000, 2000, 225),
  await photo('06-portrait.jpg', 'Navy', 2000, 2800, 245),
  await photo('07-night.jpg', 'Navy', 3000, 2000, 265),
  await addFile(storage, 'Mira Solberg — CV and brief.pdf', makePdf(4)),
  await addFile(storage, 'spec-sheet.pdf', makePdf(2)),
  await addFile(storage, 'notes.txt', Buffer.from('Programme\n\n09:00 Arrival and coffee\n10:00 Studio walk-through\n13:00 Lunch\n15:00 Portraits\n19:00 Dinner\n'), {
    type: 'text/plain',
  }),
];

const pages = new Map<string, Buffer>();
/** Thumbnails the builder derived, by file id. */
const thumbnails = new Map<string, string>();
const templates = TEMPLATE_IDS.filter((t) => !only || only.has(t));
for (const template of templates) {
  const project = makeSite({
    slug: template,
    template,
    theme: 'professional-light',
    title: 'Harbour Studio Open Day',
    subLine: 'Photos, programme and documents from the open day.',
    description: 'A day in the studio with clients and friends: how we work, what we made, and the files to take home.',
    tagLine: 'By Mira Solberg',
    contactInfo: { email: 'mira@example.com', website: 'mira.example.com', instagram: '', twitter: '', linkedin: 'mirasolberg', github: '' },
    // The delivery asks for the client's approval of each file.
    settings: template === 'client-delivery' ? { ...DEFAULT_SITE_SETTINGS, enableApprovals: true } : DEFAULT_SITE_SETTINGS,
  });
  const result = await builder.buildSite({ site: project, files }, async () => {});
  pages.set(template, storage.objects.get(result.htmlKey)!.body);
  for (const [id, meta] of Object.entries(result.derived)) if (meta?.thumbnail) thumbnails.set(id, meta.thumbnail.key);
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', base);
  const api = /^\/api\/files\/([\w-]+)$/.exec(url.pathname);
  let body: Buffer | undefined;
  let type = 'text/html; charset=utf-8';
  if (api) {
    // As the API: size=300 is the derived thumbnail; otherwise the original (inline, or attached to download).
    const file = files.find((f) => f.id === api[1]);
    const thumbKey = file && url.searchParams.get('size') === '300' ? thumbnails.get(file.id) : undefined;
    body = file ? storage.objects.get(thumbKey ?? file.storageKey)?.body : undefined;
    type = thumbKey ? 'image/webp' : (file?.type ?? 'application/octet-stream');
    if (file && url.searchParams.get('mode') === 'download') res.setHeader('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`);
  } else if (url.pathname.startsWith('/_astro/')) {
    body = storage.objects.get(`${TEMPLATE_ASSETS_PREFIX}${url.pathname.slice('/_astro/'.length)}`)?.body;
    type = assetContentType(url.pathname);
  } else {
    body = pages.get(url.pathname.split('/').filter(Boolean)[0] ?? '');
  }
  if (!body) return void res.writeHead(404).end('Not found');
  res.writeHead(200, { 'content-type': type, 'content-length': body.length });
  res.end(body);
});
await new Promise<void>((resolve) => server.listen(port, resolve));

await mkdir(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
for (const template of templates as TTemplateId[]) {
  for (const width of values.widths.split(',').map(Number)) {
    for (const mode of values.modes.split(',')) {
      // The device's light/dark setting: a site that follows the visitor takes it; a pinned one keeps its own.
      const context = await browser.newContext({ viewport: { width, height: width < 500 ? 812 : 900 }, deviceScaleFactor: 1, colorScheme: mode === 'dark' ? 'dark' : 'light' });
      // Layout shifts while the page loads (pictures reserve their boxes, so there should be none to speak of).
      await context.addInitScript(() => {
        const w = window as unknown as { __cls: number };
        w.__cls = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) if (!entry.hadRecentInput) w.__cls += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
      });
      const page = await context.newPage();
      await page.goto(`${base}/${template}`, { waitUntil: 'networkidle' });
      const cls = await page.evaluate(() => (window as unknown as { __cls: number }).__cls);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      // Scroll through so the islands hydrate and lazy pictures load, then back to the top.
      await hydrateAll(page);
      await settleForPicture(page);
      const file = path.join(out, `${template}-${width}-${mode}.png`);
      await page.screenshot({ path: file, fullPage: true });
      process.stdout.write(`${file}  layout shift ${cls.toFixed(3)}${overflow > 0 ? `  OVERFLOWS by ${overflow}px` : ''}\n`);
      await context.close();
    }
  }
}
await browser.close();
if (values.serve) console.log(`Serving on ${base}/ — ${templates.map((t) => `/${t}`).join(' ')}`);
else server.close();
