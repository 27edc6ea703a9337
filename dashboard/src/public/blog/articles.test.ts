import { describe, expect, it } from 'vitest';
import { ARTICLES, formatArticleDate, orderArticles, parseArticle, readingMinutes, renderMarkdown, type TArticle } from './articles.ts';

const FRONT = `---
id: sample-id
slug: sample-slug
title: A sample
excerpt: What it is about.
author: The Dropsite team
date: '2026-11-20'
category: Sales
tags: [one, two]
---
`;

describe('parseArticle', () => {
  it('reads the front matter and renders the body', () => {
    const article = parseArticle(`${FRONT}## Heading\n\nSome *text* and a [link](/templates).\n`, 'sample.md');
    expect(article).toMatchObject({ id: 'sample-id', slug: 'sample-slug', title: 'A sample', date: '2026-11-20', category: 'Sales', tags: ['one', 'two'], featured: false });
    expect(article.html).toContain('<h2>Heading</h2>');
    expect(article.html).toContain('<em>text</em>');
    expect(article.html).toContain('<a href="/templates">link</a>');
  });

  it('computes the reading time from the word count unless the front matter gives one', () => {
    const words = Array.from({ length: 900 }, () => 'word').join(' ');
    expect(parseArticle(`${FRONT}${words}\n`, 'a.md').readTime).toBe(4);
    expect(parseArticle(FRONT.replace('---\n\n', '').replace('tags: [one, two]\n', 'tags: [one, two]\nreadTime: 9\n') + words, 'a.md').readTime).toBe(9);
  });

  it('refuses a file without front matter, an unknown category and an unknown key, naming the file', () => {
    expect(() => parseArticle('# Just text\n', 'bare.md')).toThrow(/bare\.md/);
    expect(() => parseArticle(FRONT.replace('category: Sales', 'category: Gardening'), 'cat.md')).toThrow(/cat\.md/);
    expect(() => parseArticle(FRONT.replace('author:', 'likes: 3\nauthor:'), 'extra.md')).toThrow(/extra\.md/);
    expect(() => parseArticle(FRONT.replace("'2026-11-20'", "'20 Nov'"), 'date.md')).toThrow(/date\.md/);
  });
});

describe('renderMarkdown', () => {
  it('escapes raw HTML instead of passing it through', () => {
    const html = renderMarkdown('Hello <script>alert(1)</script>\n\n<img src=x onerror=alert(2)>\n');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(2)&gt;');
  });

  it('refuses script links', () => {
    const html = renderMarkdown('[click](javascript:alert(1))');
    expect(html).not.toContain('href="javascript:');
  });
});

describe('readingMinutes', () => {
  it('is at least one minute and ignores bare punctuation', () => {
    expect(readingMinutes('')).toBe(1);
    expect(readingMinutes(`${'word '.repeat(450)} - * #`)).toBe(2);
  });
});

describe('orderArticles', () => {
  const article = (over: Partial<TArticle>): TArticle => ({
    id: 'a',
    slug: 'a',
    title: 'A',
    excerpt: '',
    author: '',
    date: '2026-01-01',
    category: 'Sales',
    tags: [],
    featured: false,
    readTime: 1,
    html: '',
    ...over,
  });

  it('puts the featured article first, then the newest', () => {
    const ordered = orderArticles([
      article({ id: 'old', slug: 'old', date: '2026-01-01' }),
      article({ id: 'new', slug: 'new', date: '2026-03-01' }),
      article({ id: 'featured', slug: 'featured', date: '2025-12-01', featured: true }),
    ]);
    expect(ordered.map((a) => a.id)).toEqual(['featured', 'new', 'old']);
  });

  it('refuses two articles with one slug', () => {
    expect(() => orderArticles([article({ id: 'x' }), article({ id: 'y' })])).toThrow(/slug a/);
  });
});

describe('the blog’s articles', () => {
  it('are the three articles, the photography one featured and first', () => {
    expect(ARTICLES.map((a) => a.slug)).toEqual(['photographer-client-galleries', expect.any(String), expect.any(String)]);
    expect(new Set(ARTICLES.map((a) => a.slug))).toEqual(new Set(['photographer-client-galleries', 'agency-delivery', 'sales-file-sharing']));
    expect(ARTICLES.filter((a) => a.featured).map((a) => a.slug)).toEqual(['photographer-client-galleries']);
    expect(Object.fromEntries(ARTICLES.map((a) => [a.slug, a.category]))).toEqual({
      'photographer-client-galleries': 'Photography',
      'agency-delivery': 'Agency Tools',
      'sales-file-sharing': 'Sales',
    });
  });

  it('link only to pages that exist', () => {
    const existing = new Set(['/', '/templates', '/photo-gallery', '/client-delivery', '/pitch-template', '/product-template', ...ARTICLES.map((a) => `/blog/${a.slug}`)]);
    for (const article of ARTICLES) {
      for (const [, href] of article.html.matchAll(/href="([^"]*)"/g)) expect(existing, `${article.slug} links ${href}`).toContain(href);
    }
  });

  it('are each 600 to 1100 words long', () => {
    for (const article of ARTICLES) {
      const words = article.html
        .replace(/<[^>]+>/g, ' ')
        .split(/\s+/)
        .filter(Boolean).length;
      expect(words, article.slug).toBeGreaterThanOrEqual(600);
      expect(words, article.slug).toBeLessThanOrEqual(1100);
    }
  });
});

describe('formatArticleDate', () => {
  it('writes the day in words, whatever the time zone', () => {
    expect(formatArticleDate('2026-11-26')).toBe('26 November 2026');
  });
});
