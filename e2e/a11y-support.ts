/** The accessibility check the browser tests share: axe on the page as it is now. */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

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
 * Fails, printing one line each, when axe finds serious or critical violations on the page as it is
 * now, in its final colours: a colour scheme switched in place fades colours over a few hundred
 * milliseconds, and a contrast read half-way would be neither scheme's.
 */
export async function expectNoSeriousViolations(page: Page, label: string): Promise<void> {
  await finishAnimations(page);
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = serious.flatMap((v) => v.nodes.map((node) => `${label}  ${v.id} (${v.impact}): ${node.target.join(' ')}  — ${v.help}`));
  if (report.length) console.log(report.join('\n'));
  expect(report, `serious or critical accessibility violations on ${label}`).toEqual([]);
}
