/**
 * /sign-in: sign in, sign up (`?mode=sign-up`), the email link and the reset request, going back
 * to `?returnTo=` (a path of ours) when done. `?link=<token>` finishes an emailed sign-in, but only
 * when the creator presses the button: mail scanners open links, and must not use them up. The page
 * names the account first ('Continue as …'): a link someone else asked for their own address must
 * not sign this browser in to their account unnoticed.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { toSafeReturnPath } from '@dropsite/shared';
import { ApiRequestError } from '@dropsite/shared/browser/api-client';
import { failureMessage } from '../../auth/failure-message.ts';
import { authApi } from '../../auth/auth-api.ts';
import { AuthForm, type TAuthView } from '../../auth/auth-form.tsx';
import { SIGN_IN_PATH, afterSignInPath } from '../../auth/auth-paths.ts';
import { useSession } from '../../auth/session-store.ts';
import { AlertIcon, ArrowRightIcon } from '../../ui/icons.tsx';
import { AccountPageFrame } from './account-page-frame.tsx';

const TITLES: Record<TAuthView, string> = {
  'sign-in': 'Sign in · Dropsite',
  'sign-up': 'Create your account · Dropsite',
  'email-link': 'Email me a sign-in link · Dropsite',
  forgot: 'Reset your password · Dropsite',
};

export function SignInPage() {
  const params = useMemo(() => new URLSearchParams(window.location.search), []);
  const link = params.get('link');
  const returnTo = toSafeReturnPath(params.get('returnTo'));
  const initialView = params.get('mode') === 'sign-up' ? 'sign-up' : 'sign-in';
  const headingId = useId();

  useEffect(() => {
    document.title = link ? 'Finish signing in · Dropsite' : TITLES[initialView];
    // The page exists to be filled in: start in its first field.
    if (!link) document.querySelector<HTMLInputElement>('.account-frame input')?.focus();
  }, [link, initialView]);

  const onViewChange = (view: TAuthView) => {
    document.title = TITLES[view];
    // The address says which form is showing, so a reload or a shared link opens the same one.
    const next = new URLSearchParams();
    if (view === 'sign-up') next.set('mode', 'sign-up');
    // A return path that is not ours was never going to be used: it leaves the address too.
    if (returnTo) next.set('returnTo', returnTo);
    const query = next.toString();
    window.history.replaceState(null, '', query ? `${SIGN_IN_PATH}?${query}` : SIGN_IN_PATH);
  };

  return (
    <AccountPageFrame>
      {link ? (
        <EmailLinkConsumer token={link} headingId={headingId} />
      ) : (
        <>
          <AlreadySignedIn returnTo={returnTo} />
          <AuthForm initialView={initialView} returnTo={returnTo} headingId={headingId} headingLevel="h1" onViewChange={onViewChange} />
        </>
      )}
    </AccountPageFrame>
  );
}

/** A note above the form when this browser is signed in already: the form would switch accounts. */
function AlreadySignedIn({ returnTo }: { returnTo: string | null }) {
  const session = useSession();
  if (session.status !== 'signed-in') return null;
  return (
    <p className="account-frame__note">
      You are signed in as <strong>{session.creator.email}</strong>.{' '}
      <a href={afterSignInPath(returnTo)}>
        Continue
        <ArrowRightIcon size={14} />
      </a>
    </p>
  );
}

/** The account a link signs in to, once the server named it. */
interface TLinkAccount {
  email: string;
  addsSites: boolean;
}

type TLinkState =
  | { status: 'checking' }
  | { status: 'ready'; account: TLinkAccount }
  | { status: 'busy'; account: TLinkAccount }
  | { status: 'failed'; account: TLinkAccount | null; message: string; isExpired: boolean };

function failedState(error: unknown, account: TLinkAccount | null): TLinkState {
  const isExpired = error instanceof ApiRequestError && (error.status === 410 || error.status === 404 || error.status === 400);
  return { status: 'failed', account, message: failureMessage(error), isExpired };
}

function EmailLinkConsumer({ token, headingId }: { token: string; headingId: string }) {
  const [state, setState] = useState<TLinkState>({ status: 'checking' });
  const button = useRef<HTMLButtonElement>(null);
  const account = state.status === 'checking' ? null : state.account;

  useEffect(() => {
    let isCurrent = true;
    authApi.describeEmailLink(token).then(
      (reply) => isCurrent && setState({ status: 'ready', account: { email: reply.email, addsSites: reply.addsSites } }),
      (error: unknown) => isCurrent && setState(failedState(error, null)),
    );
    return () => {
      isCurrent = false;
    };
  }, [token]);
  const isReady = state.status === 'ready';
  useEffect(() => {
    if (isReady) button.current?.focus();
  }, [isReady]);

  const consume = async () => {
    if (!account) return;
    setState({ status: 'busy', account });
    try {
      const reply = await authApi.consumeEmailLink(token);
      window.location.assign(afterSignInPath(reply.returnTo));
    } catch (error) {
      setState(failedState(error, account));
    }
  };

  return (
    <div className="auth-form">
      <h1 id={headingId} className="auth-form__title">
        Finish signing in
      </h1>
      {state.status === 'checking' && (
        <p className="auth-form__lede" role="status">
          Checking your sign-in link...
        </p>
      )}
      {account && (
        <p className="auth-form__lede">
          This link signs you in as <strong>{account.email}</strong>
          {account.addsSites ? ', and adds the sites it was sent for to that account.' : '.'} If that is not your address, close this page: nothing happens until you press the
          button.
        </p>
      )}
      {state.status === 'failed' && (
        <p className="auth-form__error ui-alert" role="alert">
          <AlertIcon size={16} />
          {state.message}
        </p>
      )}
      {state.status === 'failed' && (state.isExpired || !account) ? (
        <a className="button button--primary button--large auth-form__submit" href={SIGN_IN_PATH}>
          Ask for a new link
        </a>
      ) : (
        account && (
          <button
            ref={button}
            type="button"
            className="button button--primary button--large auth-form__submit auth-form__continue"
            onClick={() => void consume()}
            disabled={state.status === 'busy'}
          >
            {state.status === 'busy' ? 'Signing in...' : `Continue as ${account.email}`}
          </button>
        )
      )}
    </div>
  );
}
