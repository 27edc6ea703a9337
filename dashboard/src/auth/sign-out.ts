import { authApi } from './auth-api.ts';

/** Pages only a signed-in creator can see: signing out there goes home instead of reloading them. */
const SIGNED_IN_PAGES = /^\/(?:account|dashboard)(?:\/|$)/;

/** Ends this session, then loads the page again signed out. False when the server could not be reached. */
export async function signOutAndLeave(): Promise<boolean> {
  try {
    await authApi.signOut();
  } catch {
    return false;
  }
  if (SIGNED_IN_PAGES.test(window.location.pathname)) window.location.assign('/');
  else window.location.reload();
  return true;
}
