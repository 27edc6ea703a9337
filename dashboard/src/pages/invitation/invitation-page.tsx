/**
 * /invite/:token: '<invitedBy> invited you to <workspace> as <Role>'. Signed in with the invited
 * address, 'Join <workspace>' accepts it and opens the dashboard in that workspace; signed in with
 * another address, the page says so and offers to sign out; signed out, it offers sign-in and
 * sign-up, which come back here. An unknown, used or revoked link, and an expired one, say so.
 */
import { useEffect, useState } from 'react';
import { APP_PATHS, WORKSPACE_ROLE_TEXT, invitationPagePath } from '@dropsite/shared';
import { failureMessage } from '../../auth/failure-message.ts';
import { signInHref } from '../../auth/auth-paths.ts';
import { useSession, type TSessionState } from '../../auth/session-store.ts';
import { signOutAndLeave } from '../../auth/sign-out.ts';
import { AlertIcon } from '../../ui/icons.tsx';
import { acceptInvitation } from '../../workspaces/workspaces-api.ts';
import { AccountPageFrame } from '../sign-in/account-page-frame.tsx';
import { formatDay } from '../../workspaces/workspace-text.ts';
import { isInvitedAddress, readInvitation, type TInvitationState } from './invitation-state.ts';
import '../../auth/auth.css';
import './invitation.css';

export function InvitationPage({ token }: { token: string }) {
  const session = useSession();
  const [invitation, setInvitation] = useState<TInvitationState>({ status: 'loading' });
  const [join, setJoin] = useState<{ status: 'idle' } | { status: 'busy' } | { status: 'failed'; message: string }>({ status: 'idle' });
  const [isSigningOut, setSigningOut] = useState(false);

  useEffect(() => {
    document.title = 'Invitation · Dropsite';
    let isCurrent = true;
    void readInvitation(token).then((state) => isCurrent && setInvitation(state));
    return () => {
      isCurrent = false;
    };
  }, [token]);

  const onJoin = async () => {
    setJoin({ status: 'busy' });
    try {
      await acceptInvitation(token);
      // The server made the joined workspace the current one: the dashboard opens in it.
      window.location.assign(APP_PATHS.dashboard);
    } catch (error) {
      setJoin({ status: 'failed', message: failureMessage(error) });
    }
  };

  return (
    <AccountPageFrame>
      <InvitationView
        token={token}
        invitation={invitation}
        session={session}
        isJoining={join.status === 'busy'}
        joinError={join.status === 'failed' ? join.message : null}
        isSigningOut={isSigningOut}
        onJoin={() => void onJoin()}
        onSignOut={() => {
          setSigningOut(true);
          void signOutAndLeave().then((left) => left || setSigningOut(false));
        }}
      />
    </AccountPageFrame>
  );
}

interface TInvitationViewProps {
  token: string;
  invitation: TInvitationState;
  session: TSessionState;
  isJoining: boolean;
  joinError: string | null;
  isSigningOut: boolean;
  onJoin: () => void;
  onSignOut: () => void;
}

/** The page for each state of the invitation and of the sign-in. */
export function InvitationView({ token, invitation, session, isJoining, joinError, isSigningOut, onJoin, onSignOut }: TInvitationViewProps) {
  if (invitation.status === 'loading' || (invitation.status === 'valid' && session.status === 'loading'))
    return (
      <div className="invitation" role="status">
        <span className="ui-spinner" aria-hidden="true" />
        <span className="visually-hidden">Loading the invitation…</span>
      </div>
    );
  if (invitation.status === 'unknown')
    return (
      <div className="invitation">
        <h1 className="invitation__title">This invitation is no longer valid</h1>
        <p className="invitation__text">It may have been used already or withdrawn. Ask the person who invited you to send a new one.</p>
        <a className="button button--secondary" href={APP_PATHS.landing}>
          Go to Dropsite
        </a>
      </div>
    );
  if (invitation.status === 'expired')
    return (
      <div className="invitation">
        <h1 className="invitation__title">This invitation has expired</h1>
        <p className="invitation__text">Ask {invitation.invitedBy ?? 'the person who invited you'} for a new one.</p>
        <a className="button button--secondary" href={APP_PATHS.landing}>
          Go to Dropsite
        </a>
      </div>
    );
  if (invitation.status === 'failed')
    return (
      <div className="invitation" role="alert">
        <h1 className="invitation__title">We couldn’t load this invitation</h1>
        <p className="invitation__text">{invitation.message}</p>
        <a className="button button--secondary" href={invitationPagePath(token)}>
          Try again
        </a>
      </div>
    );

  const { workspaceName, invitedBy, email, role, expiresAt } = invitation.invitation;
  const here = invitationPagePath(token);
  return (
    <div className="invitation">
      <p className="eyebrow">Invitation</p>
      <h1 className="invitation__title">
        {invitedBy} invited you to {workspaceName} as {WORKSPACE_ROLE_TEXT[role].label}
      </h1>
      <p className="invitation__text">
        As {WORKSPACE_ROLE_TEXT[role].label}: {WORKSPACE_ROLE_TEXT[role].summary}. The invitation is for <strong>{email}</strong> and works until {formatDay(expiresAt)}.
      </p>

      {session.status === 'signed-in' && isInvitedAddress(invitation.invitation, session.creator.email) && (
        <>
          {joinError && (
            <p className="auth-form__error ui-alert" role="alert">
              <AlertIcon size={16} />
              {joinError}
            </p>
          )}
          <button type="button" className="button button--primary button--large invitation__action" onClick={onJoin} disabled={isJoining}>
            {isJoining ? 'Joining…' : `Join ${workspaceName}`}
          </button>
        </>
      )}

      {session.status === 'signed-in' && !isInvitedAddress(invitation.invitation, session.creator.email) && (
        <>
          <p className="account-frame__note" role="note">
            You are signed in as <strong>{session.creator.email}</strong>, but this invitation is for <strong>{email}</strong>. Sign out, then sign in or sign up with {email} to
            join.
          </p>
          <button type="button" className="button button--primary button--large invitation__action" onClick={onSignOut} disabled={isSigningOut}>
            {isSigningOut ? 'Signing out...' : 'Sign out'}
          </button>
        </>
      )}

      {(session.status === 'signed-out' || session.status === 'error') && (
        <>
          <p className="invitation__text">Sign in with {email} to join, or sign up with that address if you are new to Dropsite. You come back here afterwards.</p>
          <div className="invitation__actions">
            <a className="button button--primary button--large" href={signInHref('sign-in', here)}>
              Sign In
            </a>
            <a className="button button--secondary button--large" href={signInHref('sign-up', here)}>
              Sign Up
            </a>
          </div>
        </>
      )}
    </div>
  );
}
