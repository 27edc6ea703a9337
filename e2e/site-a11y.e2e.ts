/**
 * Accessibility of a delivered site's viewers in real Chromium: axe-core scans one site per viewer
 * (an image gallery, and its lightbox open with the comments beside the photo; a PDF; a video; an
 * audio file; an archive; markdown, code and plain text; an office document shown through its PDF;
 * a download card) at 1280 and 375 px, in the light and the dark colour scheme, failing on any
 * serious or critical violation.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ALL_ENGAGEMENT } from './engagement-helpers.ts';
import { hydrateAll, pdf, photos, publish, silentWav, text, video, zip, type TUploadFile } from './visitor-support.ts';

const SIZES = [
  { width: 1280, height: 900 },
  { width: 375, height: 812 },
] as const;
const SCHEMES = ['light', 'dark'] as const;

const MARKDOWN =
  '# Delivery notes\n\nThese are the **final selects**.\n\n- 30 frames, edited\n- [Licence](https://example.com/licence)\n\n```\nprint: 300 dpi at 40 × 60 cm, matte, no border, on the heavy stock we agreed on in October\n```\n';
const CODE = `export function frameName(index: number, prefix = 'harbour-lights-october-selects-final'): string {\n  return \`\${prefix}-\${String(index).padStart(3, '0')}.jpg\`; // a long line that runs past a phone's width\n}\n`;
const RTF = '{\\rtf1\\ansi{\\fonttbl\\f0\\fswiss Helvetica;}\\f0\\pard Usage licence for the October selects.\\par Print and web, two years.\\par}';

/** One site per viewer; the gallery's visitors can favourite, comment and approve. */
const SITES: Record<string, { files: () => Promise<TUploadFile[]>; fields?: Record<string, string>; ready: string }> = {
  gallery: { files: () => photos(8), fields: { settings: JSON.stringify(ALL_ENGAGEMENT) }, ready: '.gv-tile' },
  pdf: { files: async () => [pdf('contract.pdf', 2)], ready: '.pdf-viewer' },
  video: { files: async () => [await video('teaser.mp4', 2)], ready: '.vv-player' },
  audio: { files: async () => [{ name: 'voice-note.wav', type: 'audio/wav', bytes: silentWav() }], ready: 'audio' },
  archive: {
    files: async () => [
      await zip('selects.zip', [
        { path: 'raw/frame-01.cr2', data: Buffer.alloc(4000, 3) },
        { path: 'README.txt', data: 'Thank you!\n' },
      ]),
    ],
    ready: '[role="tree"]',
  },
  text: {
    files: async () => [text('delivery-notes.md', MARKDOWN), text('frame-name.ts', CODE), text('notes.txt', `${'A long line without a break, '.repeat(12)}\nSecond line\n`)],
    ready: '.text-viewer',
  },
  office: { files: async () => [{ name: 'usage-licence.rtf', type: 'application/rtf', bytes: Buffer.from(RTF) }], ready: '.pdf-viewer' },
  download: { files: async () => [{ name: 'colour-profile.icc', type: 'application/octet-stream', bytes: Buffer.alloc(3000, 7) }], ready: '.download-card' },
};

const slugs: Record<string, string> = {};

test.beforeAll(async ({ request }) => {
  test.setTimeout(300_000);
  for (const [name, site] of Object.entries(SITES)) slugs[name] = await publish(request, await site.files(), { title: `Harbour Lights ${name}`, ...site.fields });
});

/** Serious and critical violations on the page as it is now, one line each. */
async function seriousViolations(page: Page, label: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  return serious.flatMap((v) => v.nodes.map((node) => `${label}  ${v.id} (${v.impact}): ${node.target.join(' ')}  — ${node.failureSummary ?? v.help}`));
}

/** The site as a visitor sees it: every island hydrated, the viewer drawn. */
async function openSite(page: Page, name: string): Promise<void> {
  await page.goto(`/${slugs[name]}`);
  await hydrateAll(page);
  await expect(page.locator(SITES[name]!.ready).first()).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** Scans the page at both widths in both colour schemes. */
async function scanEveryWay(page: Page, label: string): Promise<void> {
  const report: string[] = [];
  for (const size of SIZES) {
    for (const scheme of SCHEMES) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      report.push(...(await seriousViolations(page, `${label} (${size.width} px, ${scheme})`)));
    }
  }
  expect(report, `serious or critical accessibility violations on ${label}`).toEqual([]);
}

for (const name of Object.keys(SITES)) {
  test(`${name}: no serious or critical violations at 1280 and 375 px, light and dark`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openSite(page, name);
    await scanEveryWay(page, name);
  });
}

test("the gallery's lightbox with its comments open: no serious or critical violations at 1280 and 375 px, light and dark", async ({ page }) => {
  test.setTimeout(180_000);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await openSite(page, 'gallery');
  await page.locator('.gv-tile').first().click();
  const lightbox = page.getByRole('dialog');
  await expect(lightbox.locator('.lightbox__frame img')).toBeVisible();
  const comments = lightbox.locator('[data-engagement]').getByRole('button', { name: /^Comments/ });
  await comments.click();
  await expect(lightbox.getByRole('region', { name: /^Comments on / })).toBeVisible();
  await scanEveryWay(page, 'lightbox');
});
