/** Waits the browser tests share for a page to show its final state, without a fixed pause. */
import type { Page } from '@playwright/test';

/**
 * Brings the page's finite animations and transitions to their end state now, without waiting for
 * frames: a page behind another one (axe reads its results in a blank page of the same browser)
 * draws no frames, so a transition left to run would never end. (An endless animation, a spinner,
 * is left as it is.)
 */
export async function finishAnimations(page: Page): Promise<void> {
  await page.bringToFront();
  await page.evaluate(() => {
    for (const animation of document.getAnimations()) {
      if (animation.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY && animation.playbackRate !== 0) animation.finish();
    }
  });
}

/**
 * Resolves once the page has drawn two more frames: whatever the last step set going in the page's
 * rendering (a colour scheme's change listeners, an observer of what scrolled into view) has run.
 */
export async function afterFrames(page: Page): Promise<void> {
  await page.bringToFront();
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/** The page at its top as a picture should show it: requests done, pictures decoded, transitions ended. */
export async function settleForPicture(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => Promise.all([...document.images].map((image) => image.decode().catch(() => undefined))));
  await finishAnimations(page);
  await afterFrames(page);
}

/**
 * Resolves once the page is idle: what it does by itself (or was just asked to do) has been done, so a
 * request, a script or a navigation it would start has started.
 */
export async function whenPageIdle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve())));
}
