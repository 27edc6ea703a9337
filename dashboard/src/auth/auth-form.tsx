/**
 * Sign in, sign up, 'Email me a sign-in link' and 'Forgot password?': one form in four views,
 * the same in the header's modal and on /sign-in. A finished sign-in loads the page the flow
 * started from; a finished sign-up says where to go on: the link mailed to the address, which makes
 * the account, signs in and claims the sites of this browser (the server answers a sign-up alike
 * whether or not the address has an account, so the page cannot say more).
 */
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ANONYMOUS_WINDOW_DAYS, PASSWORD_MIN_LENGTH } from '@dropsite/shared';
import { failureMessage } from './failure-message.ts';
import { AlertIcon, CheckIcon } from '../ui/icons.tsx';
import { fetchAnonymousProjects, fetchAnonymousSession } from '../dashboard-api/engagement-api.ts';
import { authApi } from './auth-api.ts';
import { afterSignInPath, type TAuthMode } from './auth-paths.ts';
import './auth.css';

export type TAuthView = TAuthMode | 'email-link' | 'forgot';

type TOutcome = { kind: 'link-sent'; email: string } | { kind: 'reset-sent'; email: string } | { kind: 'sign-up-sent'; email: string; sitesToClaim: number | null };

interface TAuthFormProps {
  initialView: TAuthView;
  /** Where the browser goes once signed in (a same-origin path; the dashboard when null). */
  returnTo: string | null;
  /** The id of the element that names the form: the modal's or the page's heading. */
  headingId: string;
  /** Heading level: a modal's title is an h2, the page's an h1. */
  headingLevel: 'h1' | 'h2';
  onViewChange?: (view: TAuthView) => void;
}

const HEADINGS: Record<TAuthView, { title: string; lede: string }> = {
  'sign-in': { title: 'Welcome back', lede: 'Sign in to see your sites, their visitors and their feedback.' },
  'sign-up': { title: 'Create your free account', lede: `Keep every site you publish, and every reaction to it, beyond the ${ANONYMOUS_WINDOW_DAYS}-day window.` },
  'email-link': { title: 'Email me a sign-in link', lede: 'No password needed: we send you a link that signs you in. New here? It creates your account.' },
  forgot: { title: 'Reset your password', lede: 'Tell us the address of your account and we send you a link to choose a new password.' },
};

/** How many sites this browser published anonymously (null when the server could not say). */
async function countSitesToClaim(): Promise<number | null> {
  try {
    const session = await fetchAnonymousSession();
    return session ? (await fetchAnonymousProjects(session.sessionId)).length : 0;
  } catch {
    return null;
  }
}

export function AuthForm({ initialView, returnTo, headingId, headingLevel, onViewChange }: TAuthFormProps) {
  const [view, setView] = useState<TAuthView>(initialView);
  const [outcome, setOutcome] = useState<TOutcome | null>(null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const [isPasswordShown, setPasswordShown] = useState(false);
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const firstField = useRef<HTMLInputElement>(null);
  const ids = { name: useId(), email: useId(), password: useId(), passwordHint: useId(), error: useId() };
  const Heading = headingLevel;

  // Switching views keeps what was typed (name, address and password): the fields are the same form's.
  const goTo = (next: TAuthView) => {
    setView(next);
    setError(null);
    onViewChange?.(next);
  };

  useEffect(() => {
    // Focus follows a change of view, not the first render: the modal and the page focus their own start.
    if (view !== initialView || outcome) firstField.current?.focus();
  }, [view, initialView, outcome]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (isBusy) return;
    setBusy(true);
    setError(null);
    try {
      const address = email.trim();
      if (view === 'sign-in') {
        await authApi.signIn({ email: address, password });
        window.location.assign(afterSignInPath(returnTo));
        return;
      }
      if (view === 'sign-up') {
        await authApi.signUp({ email: address, password, name: name.trim(), returnTo });
        setOutcome({ kind: 'sign-up-sent', email: address, sitesToClaim: await countSitesToClaim() });
      } else if (view === 'email-link') {
        await authApi.requestEmailLink({ email: address, returnTo });
        setOutcome({ kind: 'link-sent', email: address });
      } else {
        await authApi.requestPasswordReset(address);
        setOutcome({ kind: 'reset-sent', email: address });
      }
    } catch (err) {
      setError(failureMessage(err));
    }
    setBusy(false);
  };

  if (outcome)
    return (
      <AuthOutcome
        outcome={outcome}
        headingId={headingId}
        Heading={Heading}
        onBack={() => {
          setOutcome(null);
          goTo('sign-in');
        }}
      />
    );

  const heading = HEADINGS[view];
  const needsPassword = view === 'sign-in' || view === 'sign-up';
  const isComplete = email.trim() !== '' && (!needsPassword || password.length >= (view === 'sign-up' ? PASSWORD_MIN_LENGTH : 1)) && (view !== 'sign-up' || name.trim() !== '');

  return (
    <div className="auth-form" data-view={view}>
      <Heading id={headingId} className="auth-form__title">
        {heading.title}
      </Heading>
      <p className="auth-form__lede">{heading.lede}</p>

      <form className="auth-form__fields" onSubmit={onSubmit} noValidate aria-describedby={error ? ids.error : undefined}>
        {view === 'sign-up' && (
          <Field id={ids.name} label="Your name">
            <input
              className="ui-field"
              ref={firstField}
              id={ids.name}
              type="text"
              autoComplete="name"
              required
              maxLength={100}
              value={name}
              onChange={(e) => setName(e.target.value)}
              readOnly={isBusy}
            />
          </Field>
        )}
        <Field id={ids.email} label="Email address">
          <input
            className="ui-field"
            ref={view === 'sign-up' ? undefined : firstField}
            id={ids.email}
            type="email"
            inputMode="email"
            autoComplete={view === 'sign-up' ? 'email' : 'username'}
            autoCapitalize="off"
            spellCheck={false}
            required
            maxLength={320}
            placeholder="you@studio.com"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            readOnly={isBusy}
          />
        </Field>
        {needsPassword && (
          <Field
            id={ids.password}
            label="Password"
            action={
              view === 'sign-in' ? (
                <button type="button" className="auth-form__inline-link" onClick={() => goTo('forgot')}>
                  Forgot password?
                </button>
              ) : null
            }
          >
            <div className="auth-form__password">
              <input
                className="ui-field"
                id={ids.password}
                type={isPasswordShown ? 'text' : 'password'}
                autoComplete={view === 'sign-up' ? 'new-password' : 'current-password'}
                required
                minLength={view === 'sign-up' ? PASSWORD_MIN_LENGTH : undefined}
                maxLength={256}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                readOnly={isBusy}
                aria-describedby={view === 'sign-up' ? ids.passwordHint : undefined}
              />
              <button type="button" className="quiet-button auth-form__reveal" aria-pressed={isPasswordShown} onClick={() => setPasswordShown((shown) => !shown)}>
                {isPasswordShown ? 'Hide' : 'Show'}
              </button>
            </div>
            {view === 'sign-up' && (
              <p id={ids.passwordHint} className="auth-form__hint">
                At least {PASSWORD_MIN_LENGTH} characters.
              </p>
            )}
          </Field>
        )}

        {error && (
          <p id={ids.error} className="auth-form__error ui-alert" role="alert">
            <AlertIcon size={16} />
            {error}
          </p>
        )}

        <button type="submit" className="button button--primary button--large auth-form__submit" disabled={!isComplete || isBusy} aria-busy={isBusy || undefined}>
          {submitLabel(view, isBusy)}
        </button>
      </form>

      {needsPassword && (
        <>
          <p className="auth-form__or" aria-hidden="true">
            <span>or</span>
          </p>
          <button type="button" className="button button--secondary auth-form__alt" onClick={() => goTo('email-link')}>
            Email me a sign-in link
          </button>
        </>
      )}

      <p className="auth-form__switch">
        {view === 'sign-up' ? (
          <>
            Already have an account?{' '}
            <button type="button" className="auth-form__inline-link" onClick={() => goTo('sign-in')}>
              Sign in
            </button>
          </>
        ) : view === 'sign-in' ? (
          <>
            New to Dropsite?{' '}
            <button type="button" className="auth-form__inline-link" onClick={() => goTo('sign-up')}>
              Create a free account
            </button>
          </>
        ) : (
          <button type="button" className="auth-form__inline-link" onClick={() => goTo('sign-in')}>
            Back to sign in
          </button>
        )}
      </p>
    </div>
  );
}

function submitLabel(view: TAuthView, isBusy: boolean): string {
  switch (view) {
    case 'sign-in':
      return isBusy ? 'Signing in...' : 'Sign In';
    case 'sign-up':
      return isBusy ? 'Creating your account...' : 'Create Account';
    case 'email-link':
      return isBusy ? 'Sending...' : 'Email Me a Link';
    case 'forgot':
      return isBusy ? 'Sending...' : 'Send Reset Link';
  }
}

function Field({ id, label, action, children }: { id: string; label: string; action?: ReactNode; children: ReactNode }) {
  return (
    <div className="auth-field">
      <div className="auth-field__top">
        <label htmlFor={id} className="auth-field__label">
          {label}
        </label>
        {action}
      </div>
      {children}
    </div>
  );
}

/** A finished step: the check mark and its heading, focused as it appears so a screen reader goes on from there, then what follows. */
export function AuthDone({ Heading, headingId, title, children }: { Heading: 'h1' | 'h2'; headingId: string; title: ReactNode; children: ReactNode }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <div className="auth-form auth-form--done" role="status">
      <span className="auth-form__done-mark" aria-hidden="true">
        <CheckIcon size={26} />
      </span>
      <Heading id={headingId} ref={headingRef} tabIndex={-1} className="auth-form__title">
        {title}
      </Heading>
      {children}
    </div>
  );
}

function AuthOutcome({ outcome, headingId, Heading, onBack }: { outcome: TOutcome; headingId: string; Heading: 'h1' | 'h2'; onBack: () => void }) {
  return (
    <AuthDone Heading={Heading} headingId={headingId} title="Check your inbox">
      {outcome.kind === 'sign-up-sent' ? (
        <>
          <p className="auth-form__lede">
            We sent a link to <strong>{outcome.email}</strong>. Open it within 24 hours to finish creating your account: it signs you in, and from then on your password does too.
          </p>
          {outcome.sitesToClaim !== null && outcome.sitesToClaim > 0 && (
            <p className="auth-form__claim">
              The link also moves {outcome.sitesToClaim === 1 ? 'the site' : `the ${outcome.sitesToClaim} sites`} you published from this browser into your account, with everything
              visitors did on {outcome.sitesToClaim === 1 ? 'it' : 'them'}.
            </p>
          )}
        </>
      ) : outcome.kind === 'link-sent' ? (
        <p className="auth-form__lede">
          We sent a sign-in link to <strong>{outcome.email}</strong>. It works once, within 15 minutes. Open it in this browser or any other.
        </p>
      ) : (
        <p className="auth-form__lede">
          If an account uses <strong>{outcome.email}</strong>, we sent it a link to choose a new password. The link works once, within an hour.
        </p>
      )}
      <p className="auth-form__hint">Nothing after a few minutes? Look in your spam folder, or check the address and try again.</p>
      <button type="button" className="button button--secondary button--large auth-form__alt" onClick={onBack}>
        Back to sign in
      </button>
    </AuthDone>
  );
}
