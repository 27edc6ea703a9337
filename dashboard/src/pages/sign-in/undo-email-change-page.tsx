/**
 * /undo-email-change?token=: the link mailed to an account's previous address when a change of
 * address was asked or completed. When the creator presses the button (never on opening: mail
 * scanners open links) the account gets that address back, every device is signed out, the
 * password is removed, and this browser is signed in.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { failureMessage } from '../../auth/failure-message.ts';
import { authApi } from '../../auth/auth-api.ts';
import { AuthDone } from '../../auth/auth-form.tsx';
import { ACCOUNT_PATH, SIGN_IN_PATH } from '../../auth/auth-paths.ts';
import { getSessionStore } from '../../auth/session-store.ts';
import { AlertIcon } from '../../components/icons.tsx';
import { AccountPageFrame } from './account-page-frame.tsx';

type TState = { status: 'ready' } | { status: 'busy' } | { status: 'done'; email: string } | { status: 'failed'; message: string };

export function UndoEmailChangePage() {
  const token = useMemo(() => new URLSearchParams(window.location.search).get('token'), []);
  const [state, setState] = useState<TState>({ status: 'ready' });
  const headingId = useId();
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    document.title = 'Secure your account · Dropsite';
    button.current?.focus();
  }, []);

  const undo = async () => {
    if (!token) return;
    setState({ status: 'busy' });
    try {
      const creator = await authApi.undoEmailChange(token);
      void getSessionStore().refresh();
      setState({ status: 'done', email: creator.email });
    } catch (error) {
      setState({ status: 'failed', message: failureMessage(error) });
    }
  };

  return (
    <AccountPageFrame>
      {state.status === 'done' ? (
        <AuthDone Heading="h1" headingId={headingId} title="Your account is safe">
          <p className="auth-form__lede">
            Your account uses <strong>{state.email}</strong> again, and every other device is signed out. It has no password now: choose a new one on your account page within 10
            minutes, or sign in later with a link sent to this address.
          </p>
          <div className="auth-form__done-actions">
            <a className="button button--primary button--large" href={ACCOUNT_PATH}>
              Choose a Password
            </a>
          </div>
        </AuthDone>
      ) : (
        <div className="auth-form">
          <h1 id={headingId} className="auth-form__title">
            Secure your account
          </h1>
          {token ? (
            <p className="auth-form__lede">
              Press the button to keep this address for your Dropsite account. Every device is signed out and the password is removed; you stay signed in here.
            </p>
          ) : (
            <p className="auth-form__lede">This page needs the link from our email. Open the message again and use its button.</p>
          )}
          {state.status === 'failed' && (
            <p className="auth-form__error" role="alert">
              <AlertIcon size={16} />
              {state.message}
            </p>
          )}
          {token && state.status !== 'failed' && (
            <button ref={button} type="button" className="button button--primary button--large auth-form__submit" onClick={() => void undo()} disabled={state.status === 'busy'}>
              {state.status === 'busy' ? 'Securing...' : 'Secure My Account'}
            </button>
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
