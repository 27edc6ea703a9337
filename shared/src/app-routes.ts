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
  /** The current workspace's members, invitations and settings. */
  members: '/dashboard/members',
  /** The current workspace's audit log (owners and admins). */
  audit: '/dashboard/audit',
  billing: '/billing',
} as const;

/** A site of the creator's dashboard: /dashboard/projects/{id}, any well-formed id (the page asks the API whether it is theirs). */
const PROJECT_PAGE_PREFIX = `${APP_PATHS.dashboard}/projects/`;

/** An invitation to a workspace: /invite/{token}, the token as the invitation's email carries it. */
const INVITATION_PAGE_PREFIX = '/invite/';
/** What an invitation token may look like in a path (url-safe characters only). */
const INVITATION_TOKEN = /^[A-Za-z0-9_-]{16,200}$/;

/** Which page the app shows: one at a path of APP_PATHS, a project's page, an invitation, or the not-found page. */
export type TAppPageId = keyof typeof APP_PATHS | 'project' | 'invitation' | 'not-found';

/** The path of an invitation's page, the link its email carries. */
export function invitationPagePath(token: string): string {
  return `${INVITATION_PAGE_PREFIX}${encodeURIComponent(token)}`;
}

/** The token of an /invite/{token} path (one trailing slash allowed), or null for any other path. */
export function invitationTokenOfPath(pathname: string): string | null {
  if (!pathname.startsWith(INVITATION_PAGE_PREFIX)) return null;
  const token = pathname.slice(INVITATION_PAGE_PREFIX.length).replace(/\/$/, '');
  return INVITATION_TOKEN.test(token) ? token : null;
}

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
  const page = PAGE_BY_PATH.get(path);
  if (page) return page;
  if (projectIdOfPath(path) !== null) return 'project';
  return invitationTokenOfPath(path) === null ? 'not-found' : 'invitation';
}

/** Whether the app has a page at exactly `pathname`, as the server sees it (no trailing slash but the root's). */
export function isAppPagePath(pathname: string): boolean {
  if (PAGE_BY_PATH.has(pathname)) return true;
  return !pathname.endsWith('/') && (projectIdOfPath(pathname) !== null || invitationTokenOfPath(pathname) !== null);
}
