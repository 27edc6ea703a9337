/**
 * A visitor's own light/dark pick, on a site whose creator lets visitors switch: kept in
 * localStorage per site and applied to <html> as data-theme before the first paint. The style and
 * the hero layout are the creator's: nothing a visitor stored for them (the keys of earlier
 * versions) is read. Imports nothing, so browser scripts can use it without pulling the shared
 * schemas (and zod) into their bundles.
 */

/** The key a visitor's light/dark pick on one site is kept under. */
export function colorModeStorageKey(slug: string): string {
  return `dropsite-color-mode:${slug}`;
}

/**
 * A tiny script for <head>, run before the first paint, only on a site whose visitors may switch:
 * applies the visitor's stored pick ('light' or 'dark') in the site's style. Anything else stored,
 * or storage that throws (disabled, sandboxed), leaves the creator's mode.
 */
export function createColorModeBootScript(slug: string, style: string): string {
  return `(function(){try{var m=window.localStorage.getItem(${JSON.stringify(colorModeStorageKey(slug))});if(m==='light'||m==='dark')document.documentElement.setAttribute('data-theme',${JSON.stringify(`${style}-`)}+m)}catch(e){}})()`;
}
