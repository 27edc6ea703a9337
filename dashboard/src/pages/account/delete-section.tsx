/** Deleting the account, confirmed by the address and the password (or a fresh sign-in link). */
import { useId, useState, type FormEvent } from 'react';
import { authApi } from '../../auth/auth-api.ts';
import { CurrentPasswordField, EmailField, FormFeedback, FreshSignInOffer, Section, runFormAction, type TFormState } from './account-parts.tsx';

export function DeleteSection({ email, hasPassword }: { email: string; hasPassword: boolean }) {
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
    await runFormAction(setState, async () => {
      await authApi.deleteAccount({ confirmEmail: typed.trim(), password });
      window.location.assign('/');
      return undefined;
    });
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
          <EmailField label={`Type ${email} to confirm`} autoComplete="off" value={typed} onValue={setTyped} autoFocus />
          {hasPassword ? <CurrentPasswordField label="Your password" value={password} onChange={setPassword} /> : <FreshSignInOffer email={email} action="delete your account" />}
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
