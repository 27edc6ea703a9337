/** Signed-in creators for tests, made without HTTP by the real account and session modules. */
import { createBrowser, type TBrowser } from './site-fixtures.ts';
import type { TTestApp } from './test-app.ts';
import type { TAppDeps } from '@dropsite/control-api';
import { CREATOR_SESSION_COOKIE, cookieName, insertCreator, hashPassword, createSession, newId } from '@dropsite/control-api/internals';

export interface TTestCreator {
  id: string;
  email: string;
  /** A `Cookie` request header value carrying the creator's session cookie. */
  cookie: string;
}

export async function createSignedInCreator(deps: TAppDeps, input: { email: string; name?: string; password?: string; verified?: boolean }): Promise<TTestCreator> {
  const id = newId();
  const now = deps.clock.now();
  const email = input.email.trim().toLowerCase();
  await insertCreator(deps.db, {
    id,
    email,
    name: input.name ?? email.split('@')[0] ?? 'Creator',
    passwordHash: input.password === undefined ? null : await hashPassword(input.password),
    emailVerifiedAt: input.verified === false ? null : now,
    now,
  });
  const session = await createSession(deps, id, 'test');
  return { id, email, cookie: `${cookieName(deps.config, CREATOR_SESSION_COOKIE)}=${session.token}` };
}

/** A browser of the test app carrying the creator's session cookie. */
export function browserSignedInAs(app: TTestApp, creator: TTestCreator): TBrowser {
  const browser = createBrowser(app);
  const eq = creator.cookie.indexOf('=');
  browser.cookies.set(creator.cookie.slice(0, eq), creator.cookie.slice(eq + 1));
  return browser;
}
