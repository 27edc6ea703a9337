/** 'Create workspace': its name, then POST /api/workspaces and a switch to it. */
import { useId, useState, type FormEvent } from 'react';
import { WORKSPACE_NAME_MAX, ZWorkspaceNameSchema } from '@dropsite/shared';
import { failureMessage } from '../auth/failure-message.ts';
import { AlertIcon } from '../ui/icons.tsx';
import { SheetDialog } from '../ui/sheet-dialog.tsx';
import { getWorkspaceStore } from '../workspaces/workspace-store.ts';
import '../auth/auth.css';
import './workspace-switcher.css';

export function CreateWorkspaceDialog({ onClose, onCreated }: { onClose: () => void; onCreated: () => void }) {
  const titleId = useId();
  const textId = useId();
  const nameId = useId();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);

  return (
    <SheetDialog className="workspace-dialog" labelledBy={titleId} describedBy={textId} onClose={onClose}>
      {(close) => {
        const onSubmit = async (event: FormEvent) => {
          event.preventDefault();
          const parsed = ZWorkspaceNameSchema.safeParse(name);
          if (!parsed.success) {
            setError(parsed.error.issues[0]?.message ?? 'Give the workspace a name');
            return;
          }
          setBusy(true);
          setError(null);
          try {
            await getWorkspaceStore().create(parsed.data);
            close();
            onCreated();
          } catch (failure) {
            setError(failureMessage(failure));
            setBusy(false);
          }
        };
        return (
          <form className="workspace-dialog__form" onSubmit={(event) => void onSubmit(event)} noValidate>
            <h2 id={titleId} className="workspace-dialog__title">
              Create workspace
            </h2>
            <p id={textId} className="workspace-dialog__text">
              A workspace has its own sites, members and plan. You are its owner, and the dashboard switches to it.
            </p>
            <div className="auth-field">
              <label htmlFor={nameId} className="auth-field__label">
                Name
              </label>
              <input
                id={nameId}
                className="ui-field"
                value={name}
                maxLength={WORKSPACE_NAME_MAX}
                autoComplete="off"
                required
                aria-invalid={error ? true : undefined}
                onChange={(event) => setName(event.target.value)}
                autoFocus
              />
            </div>
            {error && (
              <p className="auth-form__error ui-alert" role="alert">
                <AlertIcon size={16} />
                {error}
              </p>
            )}
            <div className="workspace-dialog__actions">
              <button type="button" className="button button--secondary" onClick={close}>
                Cancel
              </button>
              <button type="submit" className="button button--primary" disabled={isBusy}>
                {isBusy ? 'Creating…' : 'Create workspace'}
              </button>
            </div>
          </form>
        );
      }}
    </SheetDialog>
  );
}
