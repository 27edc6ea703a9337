/**
 * The blog's articles: Markdown files beside this module, each with YAML front matter, read and
 * rendered once at build time (the prerender). Raw HTML in the Markdown is never passed through:
 * markdown-it escapes it, so an article's text cannot add markup or scripts to a page.
 */
import { JSON_SCHEMA, load } from 'js-yaml';
import MarkdownIt from 'markdown-it';
import { z } from 'zod';
import { BLOG_CATEGORIES } from './blog-filter.ts';

/** The pictures an article may name in its front matter, drawn as inline SVG (no image files). */
export const ARTICLE_IMAGES = ['gallery', 'delivery', 'sales'] as const;
export type TArticleImage = (typeof ARTICLE_IMAGES)[number];

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const ZFrontMatterSchema = z.strictObject({
  id: z.string().regex(SLUG),
  slug: z.string().regex(SLUG),
  title: z.string().trim().min(1).max(120),
  excerpt: z.string().trim().min(1).max(300),
  author: z.string().trim().min(1).max(80),
  /** A calendar day, 'YYYY-MM-DD' (read as text: the JSON schema does not turn it into a Date). */
  date: z.iso.date(),
  category: z.enum(BLOG_CATEGORIES),
  tags: z.array(z.string().trim().min(1).max(40)).max(12),
  featured: z.boolean().default(false),
  image: z.enum(ARTICLE_IMAGES).optional(),
  /** Minutes; computed from the word count when left out. */
  readTime: z.number().int().positive().optional(),
});

export interface TArticle {
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  author: string;
  date: string;
  category: (typeof BLOG_CATEGORIES)[number];
  tags: string[];
  featured: boolean;
  image?: TArticleImage;
  readTime: number;
  /** The body as HTML (raw HTML in the Markdown escaped). */
  html: string;
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;
const WORDS_PER_MINUTE = 225;

const markdown = new MarkdownIt({ html: false, linkify: false, typographer: true });

/** Markdown to HTML; raw HTML comes out as text. */
export function renderMarkdown(source: string): string {
  return markdown.render(source);
}

/** Minutes to read `text` at an unhurried pace, at least one. */
export function readingMinutes(text: string): number {
  const words = text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
  return Math.max(1, Math.round(words / WORDS_PER_MINUTE));
}

/** One article file: its front matter checked, its body rendered. Throws, naming the file, on anything malformed. */
export function parseArticle(source: string, fileName: string): TArticle {
  const match = FRONT_MATTER.exec(source);
  if (!match) throw new Error(`${fileName}: an article starts with front matter between two '---' lines.`);
  const parsed = ZFrontMatterSchema.safeParse(load(match[1] ?? '', { schema: JSON_SCHEMA }));
  if (!parsed.success) throw new Error(`${fileName}: ${z.prettifyError(parsed.error)}`);
  const body = match[2] ?? '';
  const { readTime, ...meta } = parsed.data;
  return { ...meta, readTime: readTime ?? readingMinutes(body), html: renderMarkdown(body) };
}

/** Featured first, then the newest; ties by title. Throws when two articles share an id or a slug. */
export function orderArticles(articles: readonly TArticle[]): TArticle[] {
  for (const key of ['id', 'slug'] as const) {
    const seen = new Set<string>();
    for (const article of articles) {
      if (seen.has(article[key])) throw new Error(`Two articles have the ${key} ${article[key]}.`);
      seen.add(article[key]);
    }
  }
  return [...articles].sort((a, b) => Number(b.featured) - Number(a.featured) || b.date.localeCompare(a.date) || a.title.localeCompare(b.title));
}

const SOURCES = import.meta.glob<string>('./*.md', { query: '?raw', import: 'default', eager: true });

/** Every article of the blog, in the list's order. */
export const ARTICLES: readonly TArticle[] = orderArticles(Object.entries(SOURCES).map(([file, source]) => parseArticle(source, file)));

/** The article's date as the page shows it ('26 November 2026'), the same wherever the build runs. */
export function formatArticleDate(date: string): string {
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
}
