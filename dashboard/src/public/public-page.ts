/** A public page of the route table: prerendered to HTML at build time, enhanced by islands in the browser. */
import type { ComponentType } from 'react';

export interface TPublicPage {
  /** The path it answers, without a trailing slash ('/faq', '/blog/agency-delivery'). */
  path: string;
  /** The document title (the product name is appended). */
  title: string;
  /** The meta description and the link preview's text. */
  description: string;
  /** The page's markup; rendered once at build time with react-dom/server, never hydrated. */
  Page: ComponentType;
  /** 'article' for blog articles; 'website' otherwise. */
  ogType?: 'website' | 'article';
  /** Left out of the sitemap (the 404 page). */
  unlisted?: boolean;
  /** The page's canonical path when it repeats another page ('/blog-page' → '/blog'); its own path otherwise. */
  canonical?: string;
}
