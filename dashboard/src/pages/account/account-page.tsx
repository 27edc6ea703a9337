/**
 * /account: the creator's name, their address (a change applies once the new address confirms a
 * link, and can be cancelled until then), their password, the devices signed in (each can be
 * signed out, or all at once) and deleting the account, confirmed by typing the address and the
 * password. An account without a password proves itself for a new address, a first password or
 * deletion by a fresh sign-in link, which the page offers to send. Signed out, the page sends the
 * browser to /sign-in and back; the server checks every call regardless.
 */
import { useCallback, useEffect, useId, useState, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import { PASSWORD_MIN_LENGTH, type TAccountResponse, type TAccountSession, type TCreatorPublic } from '@dropsite/shared';
import { failureMessage } from '../../auth/failure-message.ts';
import { formatAlertTime } from '@dropsite/shared/browser/relative-time';
import { authApi } from '../../auth/auth-api.ts';
import { ACCOUNT_PATH, signInHref } from '../../auth/auth-paths.ts';
import { SessionCheckFailed } from '../../auth/session-check-failed.tsx';
import { getSessionStore, useSession } from '../../auth/session-store.ts';
import { signOutAndLeave } from '../../auth/sign-out.ts';
import { describeUserAgent } from '../../auth/user-agent.ts';
import { Avatar } from '../../components/avatar.tsx';
import { AlertIcon, CheckIcon } from '../../components/icons.tsx';
import { SiteFooter } from '../../components/site-footer.tsx';
import { SiteHeader } from '../../components/site-header.tsx';
import '../../auth/auth.css';
import './account-page.css';

/** Long enough to read why the page is leaving, short enough not to wait. */
const REDIRECT_DELAY_MS = 900;

export function AccountPage() {
  const session = useSession();

  useEffect(() => {
    document.title = 'Account · Dropsite';
  }, []);

  useEffect(() => {
    if (session.status !== 'signed-out') return;
    const timer = window.setTimeout(() => window.location.replace(signInHref('sign-in', ACCOUNT_PATH)), REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [session.status]);

  return (
    <>
      <SiteHeader isLandingPage={false} />
      <main className="account container" aria-busy={session.status === 'loading'}>
        {session.status === 'signed-in' ? (
          <AccountSettings creator={session.creator} />
        ) : session.status === 'signed-out' ? (
          <div className="account__message">
            <h1>Please sign in to see your account</h1>
            <p role="status">Redirecting...</p>
          </div>
        ) : session.status === 'error' ? (
          <SessionCheckFailed className="account__message" />
        ) : (
          <div className="account__message" role="status">
            <span className="account__spinner" aria-hidden="true" />
            <span className="visually-hidden">Checking your sign-in…</span>
          </div>
        )}
      </main>
      <SiteFooter />
    </>
  );
}

type TLoad = { status: 'loading' } | { status: 'ready'; account: TAccountResponse } | { status: 'failed'; message: string };

function AccountSettings({ creator }: { creator: TCreatorPublic }) {
  const [load, setLoad] = useState<TLoad>({ status: 'loading' });
  const reload = useCallback(async () => {
    try {
      setLoad({ status: 'ready', account: await authApi.fetchAccount() });
    } catch (error) {
      setLoad({ status: 'failed', message: failureMessage(error) });
    }
  }, []);
  useEffect(() => void reload(), [reload]);

  const account = load.status === 'ready' ? load.account : null;
  const current = account?.creator ?? creator;
  const hasPassword = account?.hasPassword ?? true;

  return (
    <>
      <header className="account__head">
        <Avatar creator={current} size="large" />
        <div>
          <h1 className="account__title">Account</h1>
          <p className="account__lede">{current.email}</p>
        </div>
      </header>

      {load.status === 'failed' && (
        <p className="auth-form__error ui-alert account__load-error" role="alert">
          <AlertIcon size={16} />
          Your account could not be loaded: {load.message}{' '}
          <button type="button" className="auth-form__inline-link" onClick={() => void reload()}>
            Try again
          </button>
        </p>
      )}

      <div className="account__sections">
        <ProfileSection creator={current} onSaved={reload} />
        <EmailSection creator={current} pendingEmail={account?.pendingEmail ?? null} hasPassword={hasPassword} onChanged={reload} />
        <PasswordSection email={current.email} hasPassword={hasPassword} onSaved={reload} />
        <SessionsSection sessions={account?.sessions ?? null} onChanged={reload} />
        <DeleteSection email={current.email} hasPassword={hasPassword} />
      </div>
    </>
  );
}

function Section({ id, title, lede, tone, children }: { id: string; title: string; lede: ReactNode; tone?: 'danger'; children: ReactNode }) {
  return (
    <section className="account-section" aria-labelledby={id} data-tone={tone}>
      <div className="account-section__intro">
        <h2 id={id}>{title}</h2>
        <p>{lede}</p>
      </div>
      <div className="account-section__body">{children}</div>
    </section>
  );
}

type TFormState = { status: 'idle' } | { status: 'busy' } | { status: 'done'; message: string } | { status: 'failed'; message: string };

function FormFeedback({ state }: { state: TFormState }) {
  if (state.status === 'failed')
    return (
      <p className="auth-form__error ui-alert" role="alert">
        <AlertIcon size={16} />
        {state.message}
      </p>
    );
  if (state.status === 'done')
    return (
      <p className="account__done" role="status">
        <CheckIcon size={16} />
        {state.message}
      </p>
    );
  return null;
}

function TextField({ label, hint, ...input }: { label: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const hintId = useId();
  return (
    <div className="auth-field">
      <label htmlFor={id} className="auth-field__label">
        {label}
      </label>
      <input id={id} className="ui-field" aria-describedby={hint ? hintId : undefined} {...input} />
      {hint && (
        <p id={hintId} className="auth-form__hint">
          {hint}
        </p>
      )}
    </div>
  );
}

/**
 * For an account without a password: its address, a first password and deletion need a session a
 * sign-in link opened within the last 10 minutes; this sends one to the current address.
 */
function FreshSignInOffer({ email, action }: { email: string; action: string }) {
  const [state, setState] = useState<TFormState>({ status: 'idle' });

  const send = async () => {
    setState({ status: 'busy' });
    try {
      await authApi.requestEmailLink({ email, returnTo: ACCOUNT_PATH });
      setState({ status: 'done', message: `We sent a sign-in link to ${email}. Open it in this browser, then ${action} within 10 minutes.` });
    } catch (error) {
      setState({ status: 'failed', message: failureMessage(error) });
    }
  };

  return (
    <div className="account-fresh-sign-in">
      <p className="auth-form__hint">
        Your account has no password, so we check it’s you with a sign-in link first: open the one we email to {email}, then {action} within 10 minutes.
      </p>
      <div className="account-form__actions">
        <button type="button" className="button button--secondary" onClick={() => void send()} disabled={state.status === 'busy'}>
          {state.status === 'busy' ? 'Sending...' : 'Email Me a Sign-in Link'}
        </button>
      </div>
      <FormFeedback state={state} />
    </div>
  );
}

function ProfileSection({ creator, onSaved }: { creator: TCreatorPublic; onSaved: () => Promise<void> }) {
  const headingId = useId();
  const [name, setName] = useState(creator.name);
  const [state, setState] = useState<TFormState>({ status: 'idle' });
  const isChanged = name.trim() !== '' && name.trim() !== creator.name;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!isChanged) return;
    setState({ status: 'busy' });
    try {
      await authApi.updateName(name.trim());
      await Promise.all([onSaved(), getSessionStore().refresh()]);
      setState({ status: 'done', message: 'Name saved.' });
    } catch (error) {
      setState({ status: 'failed', message: failureMessage(error) });
    }
  };

  return (
    <Section id={headingId} title="Profile" lede="Your name greets you in the dashboard. Visitors see it only where you put it on a site.">
      <form className="account-form" onSubmit={onSubmit}>
        <TextField
          label="Name"
          type="text"
          autoComplete="name"
          maxLength={100}
          required
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setState({ status: 'idle' });
          }}
        />
        <FormFeedback state={state} />
        <div className="account-form__actions">
          <button type="submit" className="button button--primary" disabled={!isChanged || state.status === 'busy'}>
            {state.status === 'busy' ? 'Saving...' : 'Save Name'}
          </button>
        </div>
      </form>
    </Section>
  );
}

function EmailSection({
  creator,
  pendingEmail,
  hasPassword,
  onChanged,
}: {
  creator: TCreatorPublic;
  pendingEmail: string | null;
  hasPassword: boolean;
  onChanged: () => Promise<void>;
}) {
  const headingId = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [state, setState] = useState<TFormState>({ status: 'idle' });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [verifyState, setVerifyState] = useState<TFormState>({ status: 'idle' });
  const [cancelState, setCancelState] = useState<TFormState>({ status: 'idle' });
  const pending = sentTo ?? pendingEmail;

  const cancelChange = async () => {
    if (!pending) return;
    setCancelState({ status: 'busy' });
    try {
      await authApi.cancelEmailChange();
      await onChanged();
      setSentTo(null);
      setCancelState({ status: 'done', message: `Change cancelled. The link we sent to ${pending} no longer works.` });
    } catch (error) {
      setCancelState({ status: 'failed', message: failureMessage(error) });
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setState({ status: 'busy' });
    try {
      const address = email.trim();
      await authApi.requestEmailChange({ email: address, password });
      setSentTo(address);
      setEmail('');
      setPassword('');
      setState({ status: 'idle' });
      setCancelState({ status: 'idle' });
    } catch (error) {
      setState({ status: 'failed', message: failureMessage(error) });
    }
  };

  const resendVerification = async () => {
    setVerifyState({ status: 'busy' });
    try {
      await authApi.requestVerification();
      setVerifyState({ status: 'done', message: `We sent a new confirmation link to ${creator.email}.` });
    } catch (error) {
      setVerifyState({ status: 'failed', message: failureMessage(error) });
    }
  };

  return (
    <Section
      id={headingId}
      title="Email address"
      lede="Where we send sign-in links and, once confirmed, news of your sites. A new address takes over once you open the link we send it."
    >
      <div className="account-email">
        <span className="account-email__address">{creator.email}</span>
        {creator.emailVerified ? (
          <span className="account-badge" data-tone="ok">
            <CheckIcon size={13} />
            Confirmed
          </span>
        ) : (
          <span className="account-badge" data-tone="warn">
            Not confirmed
          </span>
        )}
      </div>
      {!creator.emailVerified && (
        <div className="account-email__verify">
          <p className="auth-form__hint">Until you confirm it we send this address nothing but sign-in links.</p>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => void resendVerification()}
            disabled={verifyState.status === 'busy' || verifyState.status === 'done'}
          >
            {verifyState.status === 'busy' ? 'Sending...' : 'Send confirmation link'}
          </button>
          <FormFeedback state={verifyState} />
        </div>
      )}
      {pending && (
        <div className="account-pending-change">
          <p className="account-pending" role="status">
            Waiting for confirmation: we sent a link to <strong>{pending}</strong>. Your address stays {creator.email} until you open it.
          </p>
          <div className="account-form__actions">
            <button type="button" className="button button--secondary" onClick={() => void cancelChange()} disabled={cancelState.status === 'busy'}>
              {cancelState.status === 'busy' ? 'Cancelling...' : 'Cancel Change'}
              <span className="visually-hidden"> to {pending}</span>
            </button>
          </div>
        </div>
      )}
      <FormFeedback state={cancelState} />
      <form className="account-form" onSubmit={onSubmit}>
        <TextField
          label="New email address"
          type="email"
          inputMode="email"
          autoComplete="email"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={320}
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        {hasPassword ? (
          <TextField
            label="Current password"
            type="password"
            autoComplete="current-password"
            maxLength={256}
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        ) : (
          <FreshSignInOffer email={creator.email} action="change your address" />
        )}
        <FormFeedback state={state} />
        <div className="account-form__actions">
          <button type="submit" className="button button--primary" disabled={email.trim() === '' || state.status === 'busy'}>
            {state.status === 'busy' ? 'Sending...' : 'Change Email'}
          </button>
        </div>
      </form>
    </Section>
  );
}

function PasswordSection({ email, hasPassword, onSaved }: { email: string; hasPassword: boolean; onSaved: () => Promise<void> }) {
  const headingId = useId();
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [state, setState] = useState<TFormState>({ status: 'idle' });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setState({ status: 'busy' });
    try {
      await authApi.changePassword({ currentPassword, newPassword });
      setCurrent('');
      setNew('');
      await onSaved();
      setState({ status: 'done', message: hasPassword ? 'Password changed. Every other device has been signed out.' : 'Password saved. Every other device has been signed out.' });
    } catch (error) {
      setState({ status: 'failed', message: failureMessage(error) });
    }
  };

  return (
    <Section
      id={headingId}
      title="Password"
      lede={
        hasPassword
          ? "Changing it signs out every other device. Forgot it? Sign out and use 'Forgot password?'."
          : 'You sign in with links we email you. Choose a password to sign in with it too; saving it signs out every other device.'
      }
    >
      <form className="account-form" onSubmit={onSubmit}>
        {hasPassword ? (
          <TextField
            label="Current password"
            type="password"
            autoComplete="current-password"
            maxLength={256}
            required
            value={currentPassword}
            onChange={(e) => setCurrent(e.target.value)}
          />
        ) : (
          <FreshSignInOffer email={email} action="choose your password" />
        )}
        <TextField
          label="New password"
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
          type="password"
          autoComplete="new-password"
          minLength={PASSWORD_MIN_LENGTH}
          maxLength={256}
          required
          value={newPassword}
          onChange={(e) => setNew(e.target.value)}
        />
        <FormFeedback state={state} />
        <div className="account-form__actions">
          <button type="submit" className="button button--primary" disabled={newPassword.length < PASSWORD_MIN_LENGTH || state.status === 'busy'}>
            {state.status === 'busy' ? 'Saving...' : hasPassword ? 'Change Password' : 'Save Password'}
          </button>
        </div>
      </form>
    </Section>
  );
}

function SessionsSection({ sessions, onChanged }: { sessions: TAccountSession[] | null; onChanged: () => Promise<void> }) {
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
                    <span className="account-badge" data-tone="ok">
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

function DeleteSection({ email, hasPassword }: { email: string; hasPassword: boolean }) {
  const headingId = useId();
  const [isConfirming, setConfirming] = useState(false);
  const [typed, setTyped] = useState('');
  const [password, setPassword] = useState('');
  const [state, setState] = useState<TFormState>({ status: 'idle' });
  const matches = typed.trim().toLowerCase() === email.toLowerCase();
  const isReady = matches && (!hasPassword || password !== '');

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!isReady) return;
    setState({ status: 'busy' });
    try {
      await authApi.deleteAccount({ confirmEmail: typed.trim(), password });
      window.location.assign('/');
    } catch (error) {
      setState({ status: 'failed', message: failureMessage(error) });
    }
  };

  return (
    <Section
      id={headingId}
      title="Delete account"
      tone="danger"
      lede="Your account, every site you published with it and all their files are removed. The sites stop answering at once. A paid plan is cancelled at once: nothing more is charged, and the rest of its period is not refunded. This cannot be undone."
    >
      {isConfirming ? (
        <form className="account-form" onSubmit={onSubmit}>
          <TextField
            label={`Type ${email} to confirm`}
            type="email"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            maxLength={320}
            required
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoFocus
          />
          {hasPassword ? (
            <TextField
              label="Your password"
              type="password"
              autoComplete="current-password"
              maxLength={256}
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          ) : (
            <FreshSignInOffer email={email} action="delete your account" />
          )}
          <FormFeedback state={state} />
          <div className="account-form__actions">
            <button
              type="button"
              className="button button--secondary"
              onClick={() => {
                setConfirming(false);
                setTyped('');
                setPassword('');
                setState({ status: 'idle' });
              }}
            >
              Cancel
            </button>
            <button type="submit" className="button account-danger-button" disabled={!isReady || state.status === 'busy'}>
              {state.status === 'busy' ? 'Deleting...' : 'Delete my account and sites'}
            </button>
          </div>
        </form>
      ) : (
        <div className="account-form__actions">
          <button type="button" className="button account-danger-button" onClick={() => setConfirming(true)}>
            Delete account…
          </button>
        </div>
      )}
    </Section>
  );
}
