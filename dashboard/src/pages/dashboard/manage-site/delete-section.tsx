/** Deleting the site, once its title is typed. */
import { useEffect, useId, useRef, useState } from 'react';
import { confirmsTitle, type TManagedProject } from '@dropsite/shared';
import { queueToast } from '../../../ui/toast.tsx';
import { deleteManagedProject } from '../manage-api.ts';
import { SettingsCard, errorMessage, type TSaveState } from './settings-card.tsx';
import '../../../ui/label-text.css';

export function DeleteSection({ project }: { project: TManagedProject }) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [save, setSave] = useState<TSaveState>({ status: 'idle' });
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  useEffect(() => {
    if (open) inputRef.current?.focus();
  }, [open]);
  // The title as typed: another dash or extra spaces still confirm it (the server compares the same way).
  const matches = confirmsTitle(typed, project.title);
  return (
    <SettingsCard title="Delete site" intro="The link stops working at once, and the files, comments and analytics are removed for good." tone="danger">
      {!open ? (
        <div className="manage-card__actions">
          <button type="button" className="button button--danger" onClick={() => setOpen(true)}>
            Delete site…
          </button>
        </div>
      ) : (
        <form
          className="manage-delete"
          onSubmit={(event) => {
            event.preventDefault();
            if (!matches) return;
            setSave({ status: 'saving' });
            deleteManagedProject(project.id, typed).then(
              () => {
                queueToast('Site deleted');
                window.location.assign('/dashboard');
              },
              (err: unknown) => setSave({ status: 'error', message: errorMessage(err) }),
            );
          }}
        >
          <label htmlFor={inputId} className="label-text">
            Type <strong>{project.title}</strong> to confirm
          </label>
          <input ref={inputRef} id={inputId} className="manage-input" value={typed} autoComplete="off" onChange={(e) => setTyped(e.target.value)} />
          {save.status === 'error' && (
            <p className="manage-card__error" role="alert">
              {save.message}
            </p>
          )}
          <div className="manage-card__actions">
            <button type="submit" className="button button--danger" disabled={!matches || save.status === 'saving'}>
              {save.status === 'saving' ? 'Deleting…' : 'Delete this site'}
            </button>
            <button
              type="button"
              className="button button--secondary"
              onClick={() => {
                setOpen(false);
                setTyped('');
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      )}
    </SettingsCard>
  );
}
