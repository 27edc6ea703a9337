/**
 * Spec 2 'Access guard': a spinner while the sign-in state loads, then the signed-in creator's page,
 * or 'Please sign in to access your dashboard' and 'Redirecting...' on the way to /sign-in. The
 * redirect is convenience only: every call these pages make is checked by the server.
 */
import { useEffect, type ReactNode } from 'react';
import type { TCreatorPublic } from '@dropsite/shared';
import { signInHref } from './auth-paths.ts';
import { SessionCheckFailed } from './session-check-failed.tsx';
import { useSession } from './session-store.ts';
import { DashboardLoading } from '../ui/dashboard-loading.tsx';

/** How long the signed-out message stays before the browser leaves for /sign-in. */
const REDIRECT_DELAY_MS = 900;

export function AccessGuard({ returnTo, children }: { returnTo: string; children: (creator: TCreatorPublic) => ReactNode }) {
  const session = useSession();

  useEffect(() => {
    if (session.status !== 'signed-out') return;
    // Long enough to read why, short enough not to wait; replace() keeps Back from returning here.
    const timer = window.setTimeout(() => window.location.replace(signInHref('sign-in', returnTo)), REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [session.status, returnTo]);

  if (session.status === 'signed-in') return children(session.creator);
  return (
    <main id="main" className="dash-guard container" aria-busy={session.status === 'loading'}>
      {session.status === 'loading' && <DashboardLoading label="Checking your sign-in…" />}
      {session.status === 'signed-out' && (
        <div className="dash-guard__message">
          <h1>Please sign in to access your dashboard</h1>
          <p role="status">Redirecting...</p>
        </div>
      )}
      {session.status === 'error' && <SessionCheckFailed className="dash-guard__message" />}
    </main>
  );
}
