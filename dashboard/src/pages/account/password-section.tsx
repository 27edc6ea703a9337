/** The creator's password: changed with the current one, or chosen after a fresh sign-in link. */
import { useId, useState, type FormEvent } from 'react';
import { PASSWORD_MIN_LENGTH } from '@dropsite/shared';
import { authApi } from '../../auth/auth-api.ts';
import { NEW_PASSWORD_INPUT } from '../../auth/new-password-input.ts';
import { CurrentPasswordField, FormFeedback, FreshSignInOffer, Section, TextField, runFormAction, type TFormState } from './account-parts.tsx';

export function PasswordSection({ email, hasPassword, onSaved }: { email: string; hasPassword: boolean; onSaved: () => Promise<void> }) {
  const headingId = useId();
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [state, setState] = useState<TFormState>({ status: 'idle' });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    await runFormAction(setState, async () => {
      await authApi.changePassword({ currentPassword, newPassword });
      setCurrent('');
      setNew('');
      await onSaved();
      return { status: 'done', message: hasPassword ? 'Password changed. Every other device has been signed out.' : 'Password saved. Every other device has been signed out.' };
    });
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
        {hasPassword ? <CurrentPasswordField value={currentPassword} onChange={setCurrent} /> : <FreshSignInOffer email={email} action="choose your password" />}
        <TextField label="New password" hint={`At least ${PASSWORD_MIN_LENGTH} characters.`} {...NEW_PASSWORD_INPUT} value={newPassword} onChange={(e) => setNew(e.target.value)} />
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
