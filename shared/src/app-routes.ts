/**
 * The dashboard app's pages and their paths, listed once: the server serves the app's document at
 * these paths (everything else is a prerendered public page, a site or the 404 page), the app's
 * router picks the page from them, and links, redirects and emailed links are written with them.
 */
import { isValidId } from './slug.ts';

/** Each page of the app at its own path (the landing page is prerendered; the app draws the others in the browser). */
export const APP_PATHS = {
  landing: '/',
  'sign-in': '/sign-in',
  'reset-password': '/reset-password',
  'verify-email': '/verify-email',
  'undo-email-change': '/undo-email-change',
  account: '/account',
  dashboard: '/dashboard',
  /** The upload wizard for a signed-in creator ('Create New Site'). */
  'new-site': '/dashboard/new',
  billing: '/billing',
} as const;

/** A site of the creator's dashboard: /dashboard/projects/{id}, any well-formed id (the page asks the API whether it is theirs). */
const PROJECT_PAGE_PREFIX = `${APP_PATHS.dashboard}/projects/`;

/** Which page the app shows: one at a path of APP_PATHS, a project's page, or the not-found page. */
export type TAppPageId = keyof typeof APP_PATHS | 'project' | 'not-found';

/** The path of a project's page in the dashboard. */
export function projectPagePath(projectId: string): string {
  return `${PROJECT_PAGE_PREFIX}${encodeURIComponent(projectId)}`;
}

/** The project id of a /dashboard/projects/{id} path (one trailing slash allowed), or null for any other path. */
export function projectIdOfPath(pathname: string): string | null {
  if (!pathname.startsWith(PROJECT_PAGE_PREFIX)) return null;
  const id = pathname.slice(PROJECT_PAGE_PREFIX.length).replace(/\/$/, '');
  return isValidId(id) ? id : null;
}

const PAGE_BY_PATH = new Map<string, keyof typeof APP_PATHS>(Object.entries(APP_PATHS).map(([page, path]) => [path, page as keyof typeof APP_PATHS]));

/** The page the app shows at `pathname` (trailing slashes ignored; `/index.html` is the landing page). */
export function resolveAppPage(pathname: string): TAppPageId {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/index.html') return 'landing';
  return PAGE_BY_PATH.get(path) ?? (projectIdOfPath(path) === null ? 'not-found' : 'project');
}

/** Whether the app has a page at exactly `pathname`, as the server sees it (no trailing slash but the root's). */
export function isAppPagePath(pathname: string): boolean {
  return PAGE_BY_PATH.has(pathname) || (!pathname.endsWith('/') && projectIdOfPath(pathname) !== null);
}
