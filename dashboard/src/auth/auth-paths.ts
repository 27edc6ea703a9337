/** Where the account pages live, and how a flow remembers the page it started from. */
import { APP_PATHS, toSafeReturnPath } from '@dropsite/shared';

export const SIGN_IN_PATH = APP_PATHS['sign-in'];
export const ACCOUNT_PATH = APP_PATHS.account;
export const DASHBOARD_PATH = APP_PATHS.dashboard;
export const BILLING_PATH = APP_PATHS.billing;

export type TAuthMode = 'sign-in' | 'sign-up';

/** The page the browser is on, as a return path (null on the account pages themselves, and when prerendering). */
export function currentReturnPath(location: Pick<Location, 'pathname' | 'search' | 'hash'> | null = typeof window === 'undefined' ? null : window.location): string | null {
  if (!location) return null;
  return toSafeReturnPath(`${location.pathname}${location.search}${location.hash}`);
}

/** `/sign-in`, in sign-up mode when asked, remembering where to go back to. */
export function signInHref(mode: TAuthMode, returnTo: string | null): string {
  const params = new URLSearchParams();
  if (mode === 'sign-up') params.set('mode', 'sign-up');
  const back = toSafeReturnPath(returnTo);
  if (back) params.set('returnTo', back);
  const query = params.toString();
  return query ? `${SIGN_IN_PATH}?${query}` : SIGN_IN_PATH;
}

/** Where a finished sign-in goes: the page it started from, else the dashboard. */
export function afterSignInPath(returnTo: string | null | undefined): string {
  return toSafeReturnPath(returnTo) ?? DASHBOARD_PATH;
}
