/**
 * The frame of a page an emailed link opens (`?token=`) whose action runs when the creator presses
 * its button, never on opening: mail scanners open links. Verifying an address and undoing an
 * address change both use it; each says what its link does and what happened.
 */
import { type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { TCreatorPublic } from '@dropsite/shared';
import { failureMessage } from '../../auth/failure-message.ts';
import { AuthDone } from '../../auth/auth-form.tsx';
import { SIGN_IN_PATH } from '../../auth/auth-paths.ts';
import { getSessionStore } from '../../auth/session-store.ts';
import { AlertIcon } from '../../ui/icons.tsx';
import { AccountPageFrame } from './account-page-frame.tsx';

type TState = { status: 'ready' } | { status: 'busy' } | { status: 'done'; email: string } | { status: 'failed'; message: string };

export interface TEmailLinkAction {
  /** The tab's title, and the heading before the button is pressed. */
  title: string;
  /** What pressing the button does (shown with a token). */
  lede: ReactNode;
  /** Shown when the page was opened without its token. */
  noTokenLede: ReactNode;
  action: { label: string; busyLabel: string; run: (token: string) => Promise<TCreatorPublic> };
  /** The heading, text (for the account's address) and links shown once the action succeeded. */
  done: { title: string; text: (email: string) => ReactNode; actions: ReactNode };
  /** Offered instead of the button once it cannot be used (no token, or the action failed). */
  fallback?: ReactNode;
}

export function EmailLinkActionPage({ title, lede, noTokenLede, action, done, fallback }: TEmailLinkAction) {
  const token = useMemo(() => new URLSearchParams(window.location.search).get('token'), []);
  const [state, setState] = useState<TState>({ status: 'ready' });
  const headingId = useId();
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    document.title = `${title} · Dropsite`;
    button.current?.focus();
  }, [title]);

  const run = async () => {
    if (!token) return;
    setState({ status: 'busy' });
    try {
      const creator = await action.run(token);
      void getSessionStore().refresh();
      setState({ status: 'done', email: creator.email });
    } catch (error) {
      setState({ status: 'failed', message: failureMessage(error) });
    }
  };

  return (
    <AccountPageFrame>
      {state.status === 'done' ? (
        <AuthDone Heading="h1" headingId={headingId} title={done.title}>
          <p className="auth-form__lede">{done.text(state.email)}</p>
          <div className="auth-form__done-actions">{done.actions}</div>
        </AuthDone>
      ) : (
        <div className="auth-form">
          <h1 id={headingId} className="auth-form__title">
            {title}
          </h1>
          <p className="auth-form__lede">{token ? lede : noTokenLede}</p>
          {state.status === 'failed' && (
            <p className="auth-form__error ui-alert" role="alert">
              <AlertIcon size={16} />
              {state.message}
            </p>
          )}
          {token && state.status !== 'failed' ? (
            <button ref={button} type="button" className="button button--primary button--large auth-form__submit" onClick={() => void run()} disabled={state.status === 'busy'}>
              {state.status === 'busy' ? action.busyLabel : action.label}
            </button>
          ) : (
            fallback
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
