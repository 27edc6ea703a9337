/** Links in the Markdown preview: the text cap that keeps hostile input linear leaves ordinary links as they were. */
import { describe, expect, it } from 'vitest';
import { markdownTree, parseInline } from './markdown.ts';

describe('Markdown links', () => {
  it('keeps a link whose text is up to 1,000 characters, and shows a longer one as text', () => {
    const long = 'a'.repeat(999);
    expect(parseInline(`[${long}](https://example.com)`)).toEqual([{ type: 'link', text: long, href: 'https://example.com' }]);
    const tooLong = 'a'.repeat(1_001);
    expect(parseInline(`[${tooLong}](https://example.com)`)).toEqual([{ type: 'text', text: `[${tooLong}](https://example.com)` }]);
  });

  it('shows a bracket that opens no link as text and still finds the links after it', () => {
    expect(parseInline('[[see](https://example.com) and [no end')).toEqual([
      { type: 'text', text: '[' },
      { type: 'link', text: 'see', href: 'https://example.com' },
      { type: 'text', text: ' and [no end' },
    ]);
    expect(parseInline(`${'['.repeat(2_000)}x`)).toEqual([{ type: 'text', text: `${'['.repeat(2_000)}x` }]);
  });

  it('keeps links nested in emphasis and reference links', () => {
    expect(markdownTree('*[a](mailto:a@b.c)*\n\n[ref]\n\n[ref]: https://example.com/r')).toEqual([
      {
        type: 'element',
        tag: 'p',
        children: [{ type: 'element', tag: 'em', children: [{ type: 'element', tag: 'a', href: 'mailto:a@b.c', children: [{ type: 'text', text: 'a' }] }] }],
      },
      { type: 'element', tag: 'p', children: [{ type: 'element', tag: 'a', href: 'https://example.com/r', children: [{ type: 'text', text: 'ref' }] }] },
    ]);
  });
});
