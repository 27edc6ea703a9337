/**
 * /verify-email?token=: confirms an address (a new account's, or the new one of an address
 * change) when the creator presses the button, never on opening: mail scanners open links.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { failureMessage } from '../../auth/failure-message.ts';
import { authApi } from '../../auth/auth-api.ts';
import { AuthDone } from '../../auth/auth-form.tsx';
import { ACCOUNT_PATH, DASHBOARD_PATH, SIGN_IN_PATH } from '../../auth/auth-paths.ts';
import { getSessionStore } from '../../auth/session-store.ts';
import { AlertIcon } from '../../components/icons.tsx';
import { AccountPageFrame } from './account-page-frame.tsx';

type TState = { status: 'ready' } | { status: 'busy' } | { status: 'done'; email: string } | { status: 'failed'; message: string };

export function VerifyEmailPage() {
  const token = useMemo(() => new URLSearchParams(window.location.search).get('token'), []);
  const [state, setState] = useState<TState>({ status: 'ready' });
  const headingId = useId();
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    document.title = 'Confirm your email address · Dropsite';
    button.current?.focus();
  }, []);

  const confirm = async () => {
    if (!token) return;
    setState({ status: 'busy' });
    try {
      const creator = await authApi.verifyEmail(token);
      void getSessionStore().refresh();
      setState({ status: 'done', email: creator.email });
    } catch (error) {
      setState({ status: 'failed', message: failureMessage(error) });
    }
  };

  return (
    <AccountPageFrame>
      {state.status === 'done' ? (
        <AuthDone Heading="h1" headingId={headingId} title="Email address confirmed">
          <p className="auth-form__lede">
            <strong>{state.email}</strong> is confirmed. We will write to it when visitors react to your sites, and only when you have asked us to.
          </p>
          <div className="auth-form__done-actions">
            <a className="button button--primary button--large" href={DASHBOARD_PATH}>
              Go to Dashboard
            </a>
            <a className="button button--secondary button--large" href={ACCOUNT_PATH}>
              Account settings
            </a>
          </div>
        </AuthDone>
      ) : (
        <div className="auth-form">
          <h1 id={headingId} className="auth-form__title">
            Confirm your email address
          </h1>
          {token ? (
            <p className="auth-form__lede">Press the button to confirm that this address is yours.</p>
          ) : (
            <p className="auth-form__lede">
              This page needs the link from our email. Open the message again and use its button, or sign in and ask for a new one from your account page.
            </p>
          )}
          {state.status === 'failed' && (
            <p className="auth-form__error" role="alert">
              <AlertIcon size={16} />
              {state.message}
            </p>
          )}
          {token && state.status !== 'failed' ? (
            <button ref={button} type="button" className="button button--primary button--large auth-form__submit" onClick={() => void confirm()} disabled={state.status === 'busy'}>
              {state.status === 'busy' ? 'Confirming...' : 'Confirm my email'}
            </button>
          ) : (
            <a className="button button--primary button--large auth-form__submit" href={ACCOUNT_PATH}>
              Go to my account
            </a>
          )}
          <p className="auth-form__switch">
            <a className="auth-form__inline-link" href={SIGN_IN_PATH}>
              Sign in
            </a>
          </p>
        </div>
      )}
    </AccountPageFrame>
  );
}
