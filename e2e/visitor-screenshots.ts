/**
 * Screenshots of every visitor viewer, to look at: publishes one site per viewer on a running
 * Dropsite, then shoots each at 1280 and 375 px wide, light and dark, and a few sites in other
 * styles. Usage (with the app running, e.g. `npm run serve`):
 *   node e2e/visitor-screenshots.ts --base http://localhost:3000 --out /tmp/visitor-shots
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, request as playwrightRequest, type Page } from '@playwright/test';
import { settleForPicture } from './page-settle.ts';
import { hasSoffice, hydrateAll, pdf, photos, presentation, publish, text, video, zip, type TUploadFile } from './visitor-support.ts';

const { values } = parseArgs({
  options: { base: { type: 'string', default: 'http://localhost:3000' }, out: { type: 'string', default: '/tmp/visitor-shots' }, only: { type: 'string' } },
});
const base = values.base.replace(/\/+$/, '');
const out = path.resolve(values.out);
await mkdir(out, { recursive: true });

const README = `# Delivery notes\n\nThese are the **final selects** from the October shoot.\n\n- 30 frames, edited\n- Full resolution in the archive\n\n\`\`\`\nprint: 300 dpi\n\`\`\`\n`;

const sites: Record<string, () => Promise<TUploadFile[]>> = {
  'single-image': async () => photos(1, 'harbour-dawn'),
  'grid-4': async () => photos(4),
  'masonry-12': async () => photos(12),
  'lightbox-30': async () => photos(30),
  'pdf-1': async () => [pdf('contract.pdf', 3)],
  'pdf-3': async () => [pdf('contract.pdf', 3), pdf('usage-licence.pdf', 2), pdf('invoice.pdf', 1)],
  video: async () => [await video('behind-the-scenes.mp4', 6)],
  archive: async () => [
    await zip('selects.zip', [
      { path: 'raw/frame-01.cr2', data: Buffer.alloc(40_000, 3) },
      { path: 'raw/frame-02.cr2', data: Buffer.alloc(60_000, 5) },
      { path: 'edited/frame-01.jpg', data: Buffer.alloc(20_000, 9) },
      { path: 'edited/web/frame-01-small.jpg', data: Buffer.alloc(5_000, 1) },
      { path: 'README.txt', data: 'Thank you!\n'.repeat(200) },
    ]),
  ],
  text: async () => [text('delivery-notes.md', README)],
  mixed: async () => [...(await photos(5)), pdf('contract.pdf', 2), await video('teaser.mp4', 3), text('notes.txt', 'Line one\nLine two\n')],
};
if (await hasSoffice()) sites.presentation = async () => [await presentation('pitch-deck.pptx', 4)];

const api = await playwrightRequest.newContext({ baseURL: base });
const slugs: Record<string, string> = {};
for (const [name, make] of Object.entries(sites)) {
  if (values.only && !values.only.split(',').includes(name)) continue;
  slugs[name] = await publish(api, await make(), { title: `Harbour Lights — ${name}`, description: 'Final selects from the October shoot, edited and ready for print.' });
  process.stdout.write(`${name}: ${base}/${slugs[name]}\n`);
}
await api.dispose();

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

async function shoot(name: string, slug: string, width: number, theme: string) {
  // The device's light/dark setting ('professional-dark' → dark): the sites follow the visitor.
  const context = await browser.newContext({ viewport: { width, height: width < 500 ? 812 : 900 }, deviceScaleFactor: 1, colorScheme: theme.endsWith('-dark') ? 'dark' : 'light' });
  const page: Page = await context.newPage();
  await page.goto(`${base}/${slug}`, { waitUntil: 'networkidle' });
  // Islands hydrate as they scroll in; the picture is taken back at the top once all have.
  await hydrateAll(page);
  await settleForPicture(page);
  await page.screenshot({ path: path.join(out, `${name}-${width}-${theme}.png`), fullPage: true });
  await context.close();
}

for (const [name, slug] of Object.entries(slugs)) {
  for (const width of [1280, 375]) for (const theme of ['professional-light', 'professional-dark']) await shoot(name, slug, width, theme);
}
for (const [name, theme] of [
  ['grid-4', 'creative-light'],
  ['mixed', 'nature-dark'],
  ['pdf-3', 'elegant-light'],
  ['archive', 'minimal-dark'],
] as const) {
  if (slugs[name]) await shoot(name, slugs[name], 1280, theme);
}
await browser.close();
process.stdout.write(`Screenshots in ${out}\n`);
