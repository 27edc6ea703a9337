/**
 * Content-Security-Policy of what the API serves to browsers: site pages (inline scripts allowed
 * by their SHA-256 only, read from the metadata the builder stored with the page's bytes), the shared
 * island bundles, the dashboard, and the wizard's sandboxed preview frame.
 */
import { z } from 'zod';
import { SCRIPT_HASHES_METADATA, inlineScriptHashes } from '@dropsite/builder';
import type { TConfig } from '../config/config.ts';

/** `sha256-…` as CSP writes it, without the quotes. */
export const ZScriptHashSchema = z.string().regex(/^sha256-[A-Za-z0-9+/]{43}=$/);
/** More than any page has (the template's boot, island and beacon scripts); a bound on the header. */
export const MAX_SCRIPT_HASHES = 32;
const ZStoredScriptHashesSchema = z
  .string()
  .transform((value) => (value === '' ? [] : value.split(' ')))
  .pipe(z.array(ZScriptHashSchema).max(MAX_SCRIPT_HASHES));

function policy(directives: Record<string, readonly string[]>): string {
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');
}

const SITE_DIRECTIVES = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  // Theme variables, island styles and a few style attributes (hero gradients) are inline; styles run no code.
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'media-src': ["'self'", 'blob:'],
  'connect-src': ["'self'"],
  'font-src': ["'self'", 'data:'],
  'worker-src': ["'self'", 'blob:'],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
} as const;

/**
 * The policy of a site page: scripts from our origin plus exactly the page's inline scripts.
 * Nothing loads from elsewhere and no page may frame it.
 */
export function siteCsp(scriptHashes: readonly string[]): string {
  return policy({ ...SITE_DIRECTIVES, 'script-src': ["'self'", ...scriptHashes.map((h) => `'${h}'`)] });
}

/**
 * The island bundles and PDF.js's worker under /_astro: a worker runs under its script's own
 * policy, so it gets one too (WebAssembly for PDF.js's image decoders, never eval).
 */
export const ASSET_CSP = policy({
  'default-src': ["'self'"],
  'script-src': ["'self'", "'wasm-unsafe-eval'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'base-uri': ["'none'"],
});

/**
 * Origins the dashboard's direct-to-storage uploads send chunks to (presigned S3 URLs): the
 * configured endpoint (and its bucket subdomains), or AWS itself.
 */
function uploadOrigins(config: Pick<TConfig, 'storage'>): string[] {
  if (config.storage.driver !== 's3') return [];
  if (!config.storage.endpoint) return ['https://*.amazonaws.com'];
  const url = new URL(config.storage.endpoint);
  return [url.origin, `${url.protocol}//*.${url.host}`];
}

/** The dashboard: its own bundles only, never framed; the preview is a frame of our own origin. */
export function dashboardCsp(config: Pick<TConfig, 'storage'>): string {
  return policy({
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'media-src': ["'self'", 'blob:'],
    'connect-src': ["'self'", ...uploadOrigins(config)],
    'font-src': ["'self'", 'data:'],
    'worker-src': ["'self'", 'blob:'],
    'frame-src': ["'self'"],
    'object-src': ["'none'"],
    'frame-ancestors': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
  });
}

/**
 * The wizard's preview frame: an opaque origin (sandbox without allow-same-origin), framed only by
 * the dashboard, running our loader and the preview's own inline scripts; the creator's files are
 * blob: URLs the frame makes itself, which the viewers also fetch.
 */
export function previewFrameCsp(scriptHashes: readonly string[]): string {
  return policy({
    sandbox: ['allow-scripts', 'allow-downloads'],
    ...SITE_DIRECTIVES,
    'script-src': ["'self'", ...scriptHashes.map((h) => `'${h}'`)],
    'connect-src': ["'self'", 'blob:'],
    'frame-ancestors': ["'self'"],
  });
}

/** Script hashes checked, by the metadata record they were read from. */
const checkedHashes = new WeakMap<Readonly<Record<string, string>>, string[] | undefined>();

/**
 * The inline script hashes stored with a page's bytes (the metadata the builder put with them), or
 * undefined when there are none or they are not hashes (a page stored before they were kept with it).
 */
export function storedScriptHashes(metadata: Readonly<Record<string, string>> | undefined): string[] | undefined {
  const value = metadata?.[SCRIPT_HASHES_METADATA];
  if (metadata === undefined || value === undefined) return undefined;
  // A page answered from memory keeps its metadata record: its hashes are checked once, not per view.
  if (checkedHashes.has(metadata)) return checkedHashes.get(metadata);
  const parsed = ZStoredScriptHashesSchema.safeParse(value);
  const hashes = parsed.success ? parsed.data : undefined;
  checkedHashes.set(metadata, hashes);
  return hashes;
}

/** The script hashes of a page built before the hashes were stored with it, read from its HTML. */
export function inlineScriptHashesOf(page: Buffer): string[] {
  return inlineScriptHashes(page.toString('utf8')).slice(0, MAX_SCRIPT_HASHES);
}
