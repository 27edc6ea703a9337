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

/**
 * CPU milliseconds of a call (not wall time: the test machine may be busy with other work), the least
 * of `times` runs: a run the garbage collector's threads or a busy machine's caches slowed down says
 * nothing of the parser.
 */
function cpuMs(run: () => unknown, times = 1): number {
  let least = Number.POSITIVE_INFINITY;
  for (let i = 0; i < times; i++) {
    const before = process.cpuUsage();
    run();
    const used = process.cpuUsage(before);
    least = Math.min(least, (used.user + used.system) / 1000);
  }
  return least;
}

describe('Markdown preview on hostile input at the preview limit', () => {
  for (const [name, input] of Object.entries(ADVERSARIAL)) {
    it(`parses ${name} (${(input.length / 1024 / 1024).toFixed(1)} MiB) in linear time`, () => {
      // Once on a small piece first, so neither measured run pays for compiling the parser.
      parseForPreview(input.slice(0, input.length / 64));
      const full = cpuMs(() => parseForPreview(input));
      // A generous bound: the quadratic parser needed minutes here.
      expect(full).toBeLessThan(10_000);
      // Linear: a quarter of the input costs about a quarter of the time (quadratic would be a sixteenth).
      if (full > 500) {
        // Both the least of three runs, so that one slowed-down run does not make the ratio.
        const quarter = cpuMs(() => parseForPreview(input.slice(0, input.length / 4)), 3);
        const fullAtBest = Math.min(
          full,
          cpuMs(() => parseForPreview(input), 2),
        );
        expect(fullAtBest / quarter).toBeLessThan(8);
      }
    }, 120_000);
  }
});

describe('links in the Markdown preview', () => {
  const links = (text: string) => {
    const found: Array<{ href: string | undefined; text: string }> = [];
    const visit = (nodes: ReturnType<typeof markdownTree>) => {
      for (const node of nodes) {
        if (node.type !== 'element') continue;
        if (node.tag === 'a') found.push({ href: node.href, text: nodeText(node) });
        visit(node.children);
      }
    };
    visit(markdownTree(text));
    return found;
  };

  it('are links, nested brackets and all, when their text is of any ordinary length', () => {
    expect(links('See [the *final* cut [v3]](https://example.com/cut) and [mail](mailto:a@example.com).')).toEqual([
      { href: 'https://example.com/cut', text: 'the final cut [v3]' },
      { href: 'mailto:a@example.com', text: 'mail' },
    ]);
    const long = 'word '.repeat(190); // 950 characters
    expect(links(`[${long}](https://example.com)`)).toEqual([{ href: 'https://example.com', text: long }]);
  });

  it('are text when their text runs past 1,000 characters, and the text is all still there', () => {
    const long = 'word '.repeat(220);
    const tree = markdownTree(`[${long}](https://example.com) then [ok](https://example.com/ok)`);
    expect(links(`[${long}](https://example.com) then [ok](https://example.com/ok)`)).toEqual([{ href: 'https://example.com/ok', text: 'ok' }]);
    expect(tree.map(nodeText).join('')).toContain(`[${long}](https://example.com) then ok`);
  });
});
