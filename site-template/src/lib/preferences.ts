/**
 * The visitor's theme and hero layout (spec 2.1, 2.5, 4 'Theme and layout'): kept in
 * localStorage, applied to <html> as data attributes. A stored value is used only when it is
 * one of the known values. Imports nothing, so browser scripts can use it without pulling the
 * shared schemas (and zod) into their bundles.
 */

export const THEME_STORAGE_KEY = 'dropsite-theme';
export const HERO_LAYOUT_STORAGE_KEY = 'dropsite-hero-layout';

/**
 * A tiny script for <head>, run before the first paint: applies the stored theme and hero
 * layout when they are among the valid values. Storage can throw (disabled, sandboxed): then
 * the site's own theme and the default layout stay.
 */
export function createPreferenceBootScript(themeIds: readonly string[], heroLayouts: readonly string[]): string {
  return `(function(){try{var d=document.documentElement,s=window.localStorage,t=s.getItem(${JSON.stringify(THEME_STORAGE_KEY)}),l=s.getItem(${JSON.stringify(
    HERO_LAYOUT_STORAGE_KEY,
  )});if(${JSON.stringify(themeIds)}.indexOf(t)>-1)d.setAttribute('data-theme',t);if(${JSON.stringify(heroLayouts)}.indexOf(l)>-1)d.setAttribute('data-hero-layout',l)}catch(e){}})()`;
}
