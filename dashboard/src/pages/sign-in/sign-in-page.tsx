/**
 * /sign-in: sign in, sign up (`?mode=sign-up`), the email link and the reset request, going back
 * to `?returnTo=` (a path of ours) when done. `?link=<token>` finishes an emailed sign-in, but only
 * when the creator presses the button: mail scanners open links, and must not use them up.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { toSafeReturnPath } from '@dropsite/shared';
import { ApiRequestError } from '@dropsite/shared/browser/api-client';
import { failureMessage } from '../../auth/failure-message.ts';
import { authApi } from '../../auth/auth-api.ts';
import { AuthForm, type TAuthView } from '../../auth/auth-form.tsx';
import { SIGN_IN_PATH, afterSignInPath } from '../../auth/auth-paths.ts';
import { useSession } from '../../auth/session-store.ts';
import { AlertIcon, ArrowRightIcon } from '../../components/icons.tsx';
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

type TLinkState = { status: 'ready' } | { status: 'busy' } | { status: 'failed'; message: string; isExpired: boolean };

function EmailLinkConsumer({ token, headingId }: { token: string; headingId: string }) {
  const [state, setState] = useState<TLinkState>({ status: 'ready' });
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => button.current?.focus(), []);

  const consume = async () => {
    setState({ status: 'busy' });
    try {
      const reply = await authApi.consumeEmailLink(token);
      window.location.assign(afterSignInPath(reply.returnTo));
    } catch (error) {
      const isExpired = error instanceof ApiRequestError && (error.status === 410 || error.status === 404 || error.status === 400);
      setState({ status: 'failed', message: failureMessage(error), isExpired });
    }
  };

  return (
    <div className="auth-form">
      <h1 id={headingId} className="auth-form__title">
        Finish signing in
      </h1>
      <p className="auth-form__lede">You opened a sign-in link from your email. Press the button to sign in on this device; sites it was sent for are added to your account.</p>
      {state.status === 'failed' && (
        <p className="auth-form__error" role="alert">
          <AlertIcon size={16} />
          {state.message}
        </p>
      )}
      {state.status === 'failed' && state.isExpired ? (
        <a className="button button--primary button--large auth-form__submit" href={SIGN_IN_PATH}>
          Ask for a new link
        </a>
      ) : (
        <button ref={button} type="button" className="button button--primary button--large auth-form__submit" onClick={() => void consume()} disabled={state.status === 'busy'}>
          {state.status === 'busy' ? 'Signing in...' : 'Sign me in'}
        </button>
      )}
    </div>
  );
}
