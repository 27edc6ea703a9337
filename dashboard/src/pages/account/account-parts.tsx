/** What the account page's sections are made of: the section, a field, how a form went and the offer of a fresh sign-in link. */
import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { failureMessage } from '../../auth/failure-message.ts';
import { authApi } from '../../auth/auth-api.ts';
import { ACCOUNT_PATH } from '../../auth/auth-paths.ts';
import { AlertIcon, CheckIcon } from '../../ui/icons.tsx';

export function Section({ id, title, lede, tone, children }: { id: string; title: string; lede: ReactNode; tone?: 'danger'; children: ReactNode }) {
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

export type TFormState = { status: 'idle' } | { status: 'busy' } | { status: 'done'; message: string } | { status: 'failed'; message: string };

/**
 * Runs a section's request: busy while it runs, then the state the request ends in (none: the state
 * stays as it is, e.g. while the page goes elsewhere), or the failure's message.
 */
export async function runFormAction(setState: (state: TFormState) => void, request: () => Promise<TFormState | undefined>): Promise<void> {
  setState({ status: 'busy' });
  try {
    const next = await request();
    if (next) setState(next);
  } catch (error) {
    setState({ status: 'failed', message: failureMessage(error) });
  }
}

export function FormFeedback({ state }: { state: TFormState }) {
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

export function TextField({ label, hint, ...input }: { label: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
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

/** The account's password, asked before a change that needs it. */
export function CurrentPasswordField({ label = 'Current password', value, onChange }: { label?: string; value: string; onChange: (value: string) => void }) {
  return <TextField label={label} type="password" autoComplete="current-password" maxLength={256} required value={value} onChange={(e) => onChange(e.target.value)} />;
}

/** An email address to type in full (no capitals, no spelling fixes, the longest an address can be). */
export function EmailField({ onValue, ...input }: { label: string; value: string; onValue: (value: string) => void } & InputHTMLAttributes<HTMLInputElement>) {
  return <TextField type="email" autoCapitalize="off" spellCheck={false} maxLength={320} required onChange={(e) => onValue(e.target.value)} {...input} />;
}

/**
 * For an account without a password: its address, a first password and deletion need a session a
 * sign-in link opened within the last 10 minutes; this sends one to the current address.
 */
export function FreshSignInOffer({ email, action }: { email: string; action: string }) {
  const [state, setState] = useState<TFormState>({ status: 'idle' });

  const send = () =>
    runFormAction(setState, async () => {
      await authApi.requestEmailLink({ email, returnTo: ACCOUNT_PATH });
      return { status: 'done', message: `We sent a sign-in link to ${email}. Open it in this browser, then ${action} within 10 minutes.` };
    });

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
