/**
 * /verify-email?token=: confirms an address (a new account's, or the new one of an address
 * change) when the creator presses the button, never on opening: mail scanners open links.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { ApiRequestError } from '@dropsite/shared/browser/api-client';
import { authApi } from '../../auth/auth-api.ts';
import { ACCOUNT_PATH, DASHBOARD_PATH, SIGN_IN_PATH } from '../../auth/auth-paths.ts';
import { getSessionStore } from '../../auth/session-store.ts';
import { AlertIcon, CheckIcon } from '../../components/icons.tsx';
import { AccountPageFrame } from './account-page-frame.tsx';

type TState = { status: 'ready' } | { status: 'busy' } | { status: 'done'; email: string } | { status: 'failed'; message: string };

export function VerifyEmailPage() {
  const token = useMemo(() => new URLSearchParams(window.location.search).get('token'), []);
  const [state, setState] = useState<TState>({ status: 'ready' });
  const headingId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const doneHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    document.title = 'Confirm your email address · Dropsite';
    button.current?.focus();
  }, []);
  useEffect(() => {
    if (state.status === 'done') doneHeading.current?.focus();
  }, [state.status]);

  const confirm = async () => {
    if (!token) return;
    setState({ status: 'busy' });
    try {
      const creator = await authApi.verifyEmail(token);
      void getSessionStore().refresh();
      setState({ status: 'done', email: creator.email });
    } catch (error) {
      const status = error instanceof ApiRequestError ? error.status : 500;
      setState({
        status: 'failed',
        message:
          status > 0 && status < 500
            ? (error as ApiRequestError).message
            : status === 0
              ? 'No connection. Check your network and try again.'
              : 'Something went wrong on our side. Please try again.',
      });
    }
  };

  return (
    <AccountPageFrame>
      {state.status === 'done' ? (
        <div className="auth-form auth-form--done" role="status">
          <span className="auth-form__done-mark" aria-hidden="true">
            <CheckIcon size={26} />
          </span>
          <h1 id={headingId} ref={doneHeading} tabIndex={-1} className="auth-form__title">
            Email address confirmed
          </h1>
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
        </div>
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
