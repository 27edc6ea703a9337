/** Which page the dashboard app shows for a path. Navigation is by full page load, so this runs once per load. */
export type TPageId = 'landing' | 'sign-in' | 'reset-password' | 'verify-email' | 'account' | 'not-found';

export function resolvePage(pathname: string): TPageId {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/' || path === '/index.html') return 'landing';
  if (path === '/sign-in') return 'sign-in';
  if (path === '/reset-password') return 'reset-password';
  if (path === '/verify-email') return 'verify-email';
  if (path === '/account') return 'account';
  return 'not-found';
}
