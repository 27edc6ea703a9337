/**
 * Which page the dashboard app shows for a path: the app's routes are listed once in shared
 * (app-routes.ts), which the server serves the app at too. Navigation is by full page load, so this
 * runs once per load.
 */
import { APP_PATHS, resolveAppPage, type TAppPageId } from '@dropsite/shared';

export { projectIdOfPath } from '@dropsite/shared';

export type TPageId = TAppPageId;

/** The upload wizard for a signed-in creator, in the dashboard ('Create New Site'). */
export const NEW_SITE_PATH = APP_PATHS['new-site'];

export function resolvePage(pathname: string): TPageId {
  return resolveAppPage(pathname);
}
