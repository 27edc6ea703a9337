/** Which page the dashboard app shows for a path. Navigation is by full page load, so this runs once per load. */
export type TPageId = 'landing' | 'not-found';

export function resolvePage(pathname: string): TPageId {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/' || path === '/index.html') return 'landing';
  return 'not-found';
}
