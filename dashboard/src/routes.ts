/** Which page the dashboard app shows for a path. Navigation is by full page load, so this runs once per load. */
export type TPageId = 'landing' | 'sign-in' | 'reset-password' | 'verify-email' | 'undo-email-change' | 'account' | 'dashboard' | 'new-site' | 'project' | 'billing' | 'not-found';

/** The upload wizard for a signed-in creator, in the dashboard ('Create New Site'). */
export const NEW_SITE_PATH = '/dashboard/new';

export function resolvePage(pathname: string): TPageId {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/' || path === '/index.html') return 'landing';
  if (path === '/sign-in') return 'sign-in';
  if (path === '/reset-password') return 'reset-password';
  if (path === '/verify-email') return 'verify-email';
  if (path === '/undo-email-change') return 'undo-email-change';
  if (path === '/account') return 'account';
  if (path === '/dashboard') return 'dashboard';
  if (path === NEW_SITE_PATH) return 'new-site';
  if (path === '/billing') return 'billing';
  if (projectIdOfPath(path) !== null) return 'project';
  return 'not-found';
}

const PROJECT_PATH = /^\/dashboard\/projects\/([A-Za-z0-9_-]{16,64})\/?$/;

/** The project id of a /dashboard/projects/{id} path, or null for any other path. */
export function projectIdOfPath(pathname: string): string | null {
  return PROJECT_PATH.exec(pathname)?.[1] ?? null;
}
