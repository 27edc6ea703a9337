/**
 * Accessibility of the public site in real Chromium: axe-core scans every public page (the route
 * sweep's list, the 404 page and the sign-in page) in light and dark at 1280 px, and the landing
 * page and three content pages at 375 px, failing on any serious or critical violation; and the
 * keyboard: the skip link comes first and moves focus into the main content, and every element
 * the Tab key reaches shows a focus ring.
 */
import { expectNoSeriousViolations } from './a11y-support.ts';
import { expect, test, type Page } from '@playwright/test';
import { publicRoutes, DEMO_READY_MS, waitForDemoSites } from '@dropsite/testkit/dashboard/public-pages';

const WIDE = { width: 1280, height: 800 };

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(DEMO_READY_MS + 30_000);
  await waitForDemoSites(baseURL ?? '');
});
const PHONE = { width: 375, height: 740 };
const SCHEMES = ['light', 'dark'] as const;
/** Pages scanned besides the public routes: the 404 page (at an unknown path) and the app's sign-in page every header links to. */
const EXTRA_PAGES = ['/nope-nope', '/sign-in'];
const PHONE_PAGES = ['/', '/faq', '/blog', '/contact'];

/** Paths scanned although they answer 404 by design. */
const EXPECTED_404 = new Set(['/nope-nope']);

/** The page settled as a visitor sees it (islands mounted, the landing page hydrated, pictures loaded); a missing page fails rather than scanning the 404 page in its place. */
async function open(page: Page, route: string): Promise<void> {
  const response = await page.goto(route, { waitUntil: 'load' });
  expect(response?.status(), `GET ${route}`).toBe(EXPECTED_404.has(route) ? 404 : 200);
  await page.waitForLoadState('networkidle').catch(() => undefined);
}

/** Scans the page as loaded in both colour schemes (switched in place, motion reduced so no colour is read mid-transition). */
async function scanBothSchemes(page: Page, route: string, width: number): Promise<void> {
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    await expectNoSeriousViolations(page, `${route} (${width} px, ${scheme})`);
  }
}

test.describe('axe: no serious or critical violations', () => {
  const routes = [...publicRoutes(), ...EXTRA_PAGES];
  for (const route of routes) {
    test(`${route} at 1280 px, light and dark`, async ({ page }) => {
      await page.setViewportSize(WIDE);
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await open(page, route);
      await scanBothSchemes(page, route, WIDE.width);
    });
  }
  for (const route of PHONE_PAGES) {
    test(`${route} at 375 px, light and dark`, async ({ page }) => {
      await page.setViewportSize(PHONE);
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await open(page, route);
      await scanBothSchemes(page, route, PHONE.width);
    });
  }
});

interface TFocused {
  tag: string;
  text: string;
  inHeader: boolean;
  inMain: boolean;
  inFooter: boolean;
  ring: boolean;
  skipTarget: string | null;
}

/** What has focus now: where it is, and whether it shows an outline or a box-shadow ring. */
const focused = (page: Page): Promise<TFocused | null> =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0;
    const shadow = style.boxShadow !== 'none' && style.boxShadow !== '';
    return {
      tag: el.localName,
      text: (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40),
      inHeader: !!el.closest('header'),
      inMain: !!el.closest('main'),
      inFooter: !!el.closest('footer'),
      ring: outline || shadow,
      skipTarget: el.classList.contains('skip-link') ? el.getAttribute('href') : null,
    };
  });

const nameOf = (f: TFocused) => `<${f.tag}> "${f.text}"`;

/** Tab from the top: the skip link first, into main when followed; then through the header (and, if asked, on into the page). */
async function tabThrough(page: Page, route: string, into: 'header' | 'main'): Promise<void> {
  await page.setViewportSize(WIDE);
  await open(page, route);
  await page.keyboard.press('Tab');
  const first = await focused(page);
  expect(first?.skipTarget, `${route}: the first Tab reaches the skip link`).toMatch(/^#./);
  expect(first?.ring, `${route}: the skip link shows a focus ring`).toBe(true);
  const skipVisible = await page.evaluate(() => {
    const rect = document.activeElement?.getBoundingClientRect();
    return !!rect && rect.width > 0 && rect.height > 0 && rect.top >= 0 && rect.left >= 0 && rect.bottom <= innerHeight;
  });
  expect(skipVisible, `${route}: the focused skip link is on screen`).toBe(true);

  await page.keyboard.press('Enter');
  const target = await page.evaluate(() => {
    const el = document.activeElement;
    return { inMain: !!el?.closest('main'), tag: el?.localName ?? '', id: el?.id ?? '' };
  });
  expect(target.inMain, `${route}: following the skip link moves focus into <main> (focus is on <${target.tag}${target.id ? ` id="${target.id}"` : ''}>)`).toBe(true);

  // Back to the top, and through the header.
  await open(page, route);
  await page.keyboard.press('Tab');
  const withoutRing: string[] = [];
  let headerStops = 0;
  let mainStops = 0;
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    if (!now) break;
    if (!now.ring) withoutRing.push(nameOf(now));
    if (now.inHeader) headerStops++;
    if (now.inMain) mainStops++;
    if (into === 'header' && !now.inHeader) break;
    if (into === 'main' && (now.inFooter || mainStops >= 12)) break;
  }
  expect(headerStops, `${route}: Tab reaches the header's links`).toBeGreaterThan(0);
  if (into === 'main') expect(mainStops, `${route}: Tab reaches the page's own content`).toBeGreaterThan(0);
  expect(withoutRing, `${route}: focused elements without a visible focus ring`).toEqual([]);
}

test('keyboard: the landing page’s skip link comes first and leads into main; every header stop shows a focus ring', async ({ page }) => {
  await tabThrough(page, '/', 'header');
});

test('keyboard: a content page’s skip link comes first and leads into main; header and content stops show a focus ring', async ({ page }) => {
  await tabThrough(page, '/faq', 'main');
});
