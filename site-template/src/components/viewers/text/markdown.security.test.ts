/**
 * The Markdown preview parses whatever a creator uploaded, up to the 2 MiB preview limit, on the
 * visitor's main thread: hostile input must not freeze the tab. Each input below made a
 * regex-based parser quadratic (160 KB of '[' took 9 s); the preview's parser must stay linear.
 */
import { describe, expect, it } from 'vitest';
import { TEXT_PREVIEW_MAX_BYTES } from '../../../lib/shared-client.ts';
import { markdownTree, nodeText } from './markdown.ts';

/** Everything the preview computes before React renders: the tree, and its text. */
function parseForPreview(text: string): number {
  return markdownTree(text).reduce((sum, node) => sum + nodeText(node).length, 0);
}

const fill = (unit: string) => unit.repeat(Math.floor(TEXT_PREVIEW_MAX_BYTES / unit.length));

const ADVERSARIAL: Record<string, string> = {
  'open brackets': fill('['),
  'bracket pairs': fill('[]('),
  'image openers': fill('!['),
  'asterisks in a paragraph': `a ${fill('*a')}`,
  underscores: fill('_a'),
  'double asterisks': fill('**a'),
  backticks: fill('`a'),
  'backtick runs': fill('a``'),
  'less-than signs': fill('<'),
  'autolink openers': fill('<a'),
  'nested quotes': fill('>'),
  'nested quote lines': fill('> '),
  'link reference definitions': fill('[a]: b\n'),
  'unclosed link destinations': fill('[a](b'),
  'nested list markers': fill('- '),
  'emphasis mixes': fill('*_'),
};

/** CPU milliseconds of one call (not wall time: the test machine may be busy with other work). */
function cpuMs(run: () => unknown): number {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

describe('Markdown preview on hostile input at the preview limit', () => {
  for (const [name, input] of Object.entries(ADVERSARIAL)) {
    it(`parses ${name} (${(input.length / 1024 / 1024).toFixed(1)} MiB) in linear time`, () => {
      const full = cpuMs(() => parseForPreview(input));
      // A generous bound: the quadratic parser needed minutes here.
      expect(full).toBeLessThan(10_000);
      // Linear: a quarter of the input costs about a quarter of the time (quadratic would be a sixteenth).
      if (full > 500) {
        const quarter = cpuMs(() => parseForPreview(input.slice(0, input.length / 4)));
        expect(full / quarter).toBeLessThan(8);
      }
    }, 120_000);
  }
});
