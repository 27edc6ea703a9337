/**
 * The inline scripts a rendered site runs (the theme and layout boot script before first paint,
 * Astro's island loaders, the view beacon), named by their SHA-256 so the API's Content-Security-Policy
 * can allow exactly them instead of every inline script. Sites are static HTML rendered once, so
 * hashes (not nonces) fit: the builder stores them with the page and each of its variants, in the
 * object's own metadata (SCRIPT_HASHES_METADATA), and the API puts them in the header it sends with
 * the bytes it read them with.
 */
import { createHash } from 'node:crypto';

/**
 * The metadata name a stored page keeps its inline scripts' hashes under: `sha256-…` sources,
 * without quotes, separated by single spaces (the API checks them with its own schema).
 */
export const SCRIPT_HASHES_METADATA = 'script-hashes';

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const SRC_ATTRIBUTE = /(?:^|\s)src\s*=/i;
const TYPE_ATTRIBUTE = /(?:^|\s)type\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;
/** Types a browser runs as script; anything else (JSON data blocks) is inert and needs no hash. */
const SCRIPT_TYPES = new Set(['', 'module', 'text/javascript', 'application/javascript', 'text/ecmascript', 'application/ecmascript']);

/** The CSP hash of one inline script's text, exactly as it stands between its tags. */
export function scriptHash(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}

/** Hashes of every inline script of the document a browser would run, each once, in order. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(SCRIPT)) {
    const attributes = match[1] ?? '';
    if (SRC_ATTRIBUTE.test(attributes)) continue;
    const type = TYPE_ATTRIBUTE.exec(attributes);
    const typeValue = (type?.[1] ?? type?.[2] ?? type?.[3] ?? '').trim().toLowerCase();
    if (!SCRIPT_TYPES.has(typeValue)) continue;
    // The browser hashes the text after HTML's newline normalisation (CR LF and CR become LF).
    hashes.add(scriptHash((match[2] ?? '').replace(/\r\n?/g, '\n')));
  }
  return [...hashes];
}
