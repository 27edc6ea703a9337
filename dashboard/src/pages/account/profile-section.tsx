/** The creator's name. */
import { useId, useState, type FormEvent } from 'react';
import type { TCreatorPublic } from '@dropsite/shared';
import { authApi } from '../../auth/auth-api.ts';
import { getSessionStore } from '../../auth/session-store.ts';
import { FormFeedback, Section, TextField, runFormAction, type TFormState } from './account-parts.tsx';

export function ProfileSection({ creator, onSaved }: { creator: TCreatorPublic; onSaved: () => Promise<void> }) {
  const headingId = useId();
  const [name, setName] = useState(creator.name);
  const [state, setState] = useState<TFormState>({ status: 'idle' });
  const isChanged = name.trim() !== '' && name.trim() !== creator.name;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!isChanged) return;
    await runFormAction(setState, async () => {
      await authApi.updateName(name.trim());
      await Promise.all([onSaved(), getSessionStore().refresh()]);
      return { status: 'done', message: 'Name saved.' };
    });
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
