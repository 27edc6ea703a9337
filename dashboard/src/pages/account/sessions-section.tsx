/** The devices signed in: each can be signed out, or all at once. */
import { useId, useState } from 'react';
import type { TAccountSession } from '@dropsite/shared';
import { failureMessage } from '../../auth/failure-message.ts';
import { formatAlertTime } from '@dropsite/shared/browser/relative-time';
import { authApi } from '../../auth/auth-api.ts';
import { signOutAndLeave } from '../../auth/sign-out.ts';
import { describeUserAgent } from '../../auth/user-agent.ts';
import { FormFeedback, Section, type TFormState } from './account-parts.tsx';

export function SessionsSection({ sessions, onChanged }: { sessions: TAccountSession[] | null; onChanged: () => Promise<void> }) {
  const headingId = useId();
  const [busyId, setBusyId] = useState<string | null>(null);
  const [state, setState] = useState<TFormState>({ status: 'idle' });
  const now = Date.now();

  const endSession = async (session: TAccountSession) => {
    setBusyId(session.id);
    if (session.current) {
      if (!(await signOutAndLeave())) {
        setBusyId(null);
        setState({ status: 'failed', message: 'No connection. Check your network and try again.' });
      }
      return;
    }
    try {
      await authApi.endSession(session.id);
      await onChanged();
      setState({ status: 'idle' });
    } catch (error) {
      setState({ status: 'failed', message: failureMessage(error) });
    }
    setBusyId(null);
  };

  const signOutEverywhere = async () => {
    setBusyId('*');
    try {
      await authApi.signOutEverywhere();
      window.location.assign('/');
    } catch (error) {
      setBusyId(null);
      setState({ status: 'failed', message: failureMessage(error) });
    }
  };

  return (
    <Section id={headingId} title="Where you’re signed in" lede="Each browser you signed in with. Sign out any you do not recognise, or all of them at once.">
      {sessions === null ? (
        <p className="auth-form__hint">Loading your sessions…</p>
      ) : (
        <ul className="account-sessions" role="list">
          {sessions.map((session) => (
            <li key={session.id} className="account-session">
              <div className="account-session__what">
                <p className="account-session__device">
                  {describeUserAgent(session.userAgent)}
                  {session.current && (
                    <span className="account-badge ui-badge" data-tone="ok">
                      This device
                    </span>
                  )}
                </p>
                <p className="account-session__when">
                  Signed in {formatAlertTime(Date.parse(session.createdAt), now)}
                  {session.lastUsedAt ? ` · last active ${formatAlertTime(Date.parse(session.lastUsedAt), now)}` : ''}
                </p>
              </div>
              <button type="button" className="button button--secondary account-session__end" onClick={() => void endSession(session)} disabled={busyId !== null}>
                {busyId === session.id ? 'Signing out...' : 'Sign out'}
                {!session.current && <span className="visually-hidden"> {describeUserAgent(session.userAgent)}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
      <FormFeedback state={state} />
      <div className="account-form__actions">
        <button type="button" className="button button--secondary" onClick={() => void signOutEverywhere()} disabled={busyId !== null}>
          {busyId === '*' ? 'Signing out...' : 'Sign out everywhere'}
        </button>
      </div>
    </Section>
  );
}
