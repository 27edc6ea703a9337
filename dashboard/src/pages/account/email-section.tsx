/** The creator's address: a change applies once the new address confirms its link, and can be cancelled until then. */
import { useId, useState, type FormEvent } from 'react';
import type { TCreatorPublic } from '@dropsite/shared';
import { authApi } from '../../auth/auth-api.ts';
import { CheckIcon } from '../../ui/icons.tsx';
import { CurrentPasswordField, EmailField, FormFeedback, FreshSignInOffer, Section, runFormAction, type TFormState } from './account-parts.tsx';

export function EmailSection({
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
    await runFormAction(setCancelState, async () => {
      await authApi.cancelEmailChange();
      await onChanged();
      setSentTo(null);
      return { status: 'done', message: `Change cancelled. The link we sent to ${pending} no longer works.` };
    });
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    await runFormAction(setState, async () => {
      const address = email.trim();
      await authApi.requestEmailChange({ email: address, password });
      setSentTo(address);
      setEmail('');
      setPassword('');
      setCancelState({ status: 'idle' });
      return { status: 'idle' };
    });
  };

  const resendVerification = () =>
    runFormAction(setVerifyState, async () => {
      await authApi.requestVerification();
      return { status: 'done', message: `We sent a new confirmation link to ${creator.email}.` };
    });

  return (
    <Section
      id={headingId}
      title="Email address"
      lede="Where we send sign-in links and, once confirmed, news of your sites. A new address takes over once you open the link we send it."
    >
      <div className="account-email">
        <span className="account-email__address">{creator.email}</span>
        {creator.emailVerified ? (
          <span className="account-badge ui-badge" data-tone="ok">
            <CheckIcon size={13} />
            Confirmed
          </span>
        ) : (
          <span className="account-badge ui-badge" data-tone="warn">
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
        <EmailField label="New email address" inputMode="email" autoComplete="email" value={email} onValue={setEmail} />
        {hasPassword ? <CurrentPasswordField value={password} onChange={setPassword} /> : <FreshSignInOffer email={creator.email} action="change your address" />}
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
