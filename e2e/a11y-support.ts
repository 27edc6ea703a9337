/** The accessibility check the browser tests share: axe on the page as it is now. */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { finishAnimations } from './page-settle.ts';

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
