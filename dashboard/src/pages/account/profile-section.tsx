/** The creator's name. */
import { useId, useState, type FormEvent } from 'react';
import type { TCreatorPublic } from '@dropsite/shared';
import { failureMessage } from '../../auth/failure-message.ts';
import { authApi } from '../../auth/auth-api.ts';
import { getSessionStore } from '../../auth/session-store.ts';
import { FormFeedback, Section, TextField, type TFormState } from './account-parts.tsx';

export function ProfileSection({ creator, onSaved }: { creator: TCreatorPublic; onSaved: () => Promise<void> }) {
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
