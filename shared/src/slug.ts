/** Slug and id rules shared by the API and the dashboard. */
import { SLUG_LENGTH } from './constants.ts';

const SLUG_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** Paths of the app that can never be a site's slug. */
export const RESERVED_SLUGS = new Set([
  'api',
  'assets',
  '_astro',
  'site-assets',
  'dashboard',
  'billing',
  'sign-in',
  'sign-up',
  'templates',
  'faq',
  'help',
  'blog',
  'blog-page',
  'about-us',
  'contact',
  'feedback',
  'payment',
  'privacy-policy',
  'terms-of-service',
  'terms-conditions',
  'refund-cancellation',
  'photo-gallery',
  'portfolio-resume',
  'event-template',
  'product-template',
  'case-study-template',
  'pitch-template',
  'universal-file-template',
  'client-delivery',
  'hero-examples',
  'backend-data-test',
  'health',
  'favicon.ico',
  'robots.txt',
]);

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{6,62})[a-z0-9]$/;

/** True when a string has the shape of a site slug and is not a reserved path. */
export function isValidSlug(slug: string): boolean {
  return SLUG_PATTERN.test(slug) && !RESERVED_SLUGS.has(slug);
}

/** Generates a random, url-safe slug from an unambiguous alphabet (about 50 bits at 10 characters). */
export function generateSlug(randomBytes: (n: number) => Uint8Array, length = SLUG_LENGTH): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += SLUG_ALPHABET[b % SLUG_ALPHABET.length];
  return out;
}

export const ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/** True for ids the server issues (random, url-safe); anything else is refused before any lookup. */
export function isValidId(id: string): boolean {
  return ID_PATTERN.test(id);
}
