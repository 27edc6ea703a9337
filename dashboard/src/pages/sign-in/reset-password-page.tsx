/**
 * /reset-password?token=: choose a new password from the emailed link (it works once, within an
 * hour). Done, the creator is signed in here and every other session has ended. Without a token
 * the page asks for the address to send a link to.
 */
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { APP_PATHS, PASSWORD_MIN_LENGTH } from '@dropsite/shared';
import { ApiRequestError } from '@dropsite/shared/browser/api-client';
import { failureMessage } from '../../auth/failure-message.ts';
import { authApi } from '../../auth/auth-api.ts';
import { AuthForm } from '../../auth/auth-form.tsx';
import { DASHBOARD_PATH, SIGN_IN_PATH } from '../../auth/auth-paths.ts';
import { NEW_PASSWORD_INPUT } from '../../auth/new-password-input.ts';
import { AlertIcon } from '../../ui/icons.tsx';
import { AccountPageFrame } from './account-page-frame.tsx';

export function ResetPasswordPage() {
  const token = useMemo(() => new URLSearchParams(window.location.search).get('token'), []);
  const headingId = useId();
  useEffect(() => {
    document.title = 'Choose a new password · Dropsite';
    document.querySelector<HTMLInputElement>('.account-frame input')?.focus();
  }, []);
  return <AccountPageFrame>{token ? <NewPasswordForm token={token} headingId={headingId} /> : <ResetRequest headingId={headingId} />}</AccountPageFrame>;
}

/** No token: the 'Forgot password?' form, as on /sign-in. */
function ResetRequest({ headingId }: { headingId: string }) {
  return <AuthForm initialView="forgot" returnTo={null} headingId={headingId} headingLevel="h1" />;
}

function NewPasswordForm({ token, headingId }: { token: string; headingId: string }) {
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; isExpired: boolean } | null>(null);
  const ids = { password: useId(), repeat: useId(), hint: useId() };
  const isMismatch = repeat !== '' && repeat !== password;
  const canSubmit = password.length >= PASSWORD_MIN_LENGTH && repeat === password && !isBusy;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canSubmit) return;
    setBusy(true);
    setError(null);
    try {
      await authApi.resetPassword({ token, password });
      window.location.assign(DASHBOARD_PATH);
      return;
    } catch (err) {
      const status = err instanceof ApiRequestError ? err.status : 500;
      setError({
        message: failureMessage(err),
        isExpired: status === 410 || status === 404,
      });
    }
    setBusy(false);
  };

  return (
    <div className="auth-form">
      <h1 id={headingId} className="auth-form__title">
        Choose a new password
      </h1>
      <p className="auth-form__lede">Once it is saved you are signed in here, and signed out everywhere else.</p>
      <form className="auth-form__fields" onSubmit={onSubmit} noValidate>
        <div className="auth-field">
          <label htmlFor={ids.password} className="auth-field__label">
            New password
          </label>
          <input className="ui-field" id={ids.password} {...NEW_PASSWORD_INPUT} value={password} onChange={(e) => setPassword(e.target.value)} aria-describedby={ids.hint} />
          <p id={ids.hint} className="auth-form__hint">
            At least {PASSWORD_MIN_LENGTH} characters.
          </p>
        </div>
        <div className="auth-field">
          <label htmlFor={ids.repeat} className="auth-field__label">
            Repeat the new password
          </label>
          <input
            className="ui-field"
            id={ids.repeat}
            type="password"
            autoComplete="new-password"
            maxLength={256}
            required
            value={repeat}
            onChange={(e) => setRepeat(e.target.value)}
            aria-invalid={isMismatch || undefined}
          />
          {isMismatch && <p className="auth-form__hint">The two passwords differ.</p>}
        </div>
        {error && (
          <p className="auth-form__error ui-alert" role="alert">
            <AlertIcon size={16} />
            {error.message}
          </p>
        )}
        {error?.isExpired ? (
          <a className="button button--primary button--large auth-form__submit" href={APP_PATHS['reset-password']}>
            Ask for a new link
          </a>
        ) : (
          <button type="submit" className="button button--primary button--large auth-form__submit" disabled={!canSubmit}>
            {isBusy ? 'Saving...' : 'Save New Password'}
          </button>
        )}
      </form>
      <p className="auth-form__switch">
        <a className="auth-form__inline-link" href={SIGN_IN_PATH}>
          Back to sign in
        </a>
      </p>
    </div>
  );
}
