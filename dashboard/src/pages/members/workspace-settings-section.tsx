/**
 * The workspace's settings on the members page (owners and admins): its name (PATCH), and for the
 * owner of a workspace that is not their personal one, deleting it with its name typed to confirm
 * (DELETE), as an account's deletion asks for its address.
 */
import { useId, useState, type FormEvent } from 'react';
import { APP_PATHS, WORKSPACE_NAME_MAX, ZWorkspaceNameSchema, type TWorkspaceSummary } from '@dropsite/shared';
import { queueToast } from '../../ui/toast.tsx';
import { FormFeedback, Section, TextField, runFormAction, type TFormState } from '../account/account-parts.tsx';
import { deleteWorkspace, renameWorkspace } from '../../workspaces/workspaces-api.ts';
import { getWorkspaceStore } from '../../workspaces/workspace-store.ts';

export function RenameSection({ workspace }: { workspace: TWorkspaceSummary }) {
  const headingId = useId();
  const [name, setName] = useState(workspace.name);
  const [state, setState] = useState<TFormState>({ status: 'idle' });
  const isUnchanged = name.trim() === workspace.name;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZWorkspaceNameSchema.safeParse(name);
    if (!parsed.success) {
      setState({ status: 'failed', message: parsed.error.issues[0]?.message ?? 'Give the workspace a name' });
      return;
    }
    await runFormAction(setState, async () => {
      await renameWorkspace(workspace.id, parsed.data);
      await getWorkspaceStore().refresh();
      return { status: 'done', message: 'Name saved.' };
    });
  };

  return (
    <Section id={headingId} title="Workspace name" lede="What members see in the workspace menu and in their invitations.">
      <form className="account-form" onSubmit={(event) => void onSubmit(event)} noValidate>
        <TextField label="Name" value={name} maxLength={WORKSPACE_NAME_MAX} autoComplete="off" required onChange={(event) => setName(event.target.value)} />
        <FormFeedback state={state} />
        <div className="account-form__actions">
          <button type="submit" className="button button--primary" disabled={isUnchanged || state.status === 'busy'}>
            {state.status === 'busy' ? 'Saving...' : 'Save name'}
          </button>
        </div>
      </form>
    </Section>
  );
}

/** Whether the name typed confirms the deletion: the server compares the same way (spaces around it ignored). */
export function confirmsWorkspaceName(typed: string, name: string): boolean {
  return typed.trim() === name.trim();
}

export function DeleteWorkspaceSection({ workspace }: { workspace: TWorkspaceSummary }) {
  const headingId = useId();
  const [isConfirming, setConfirming] = useState(false);
  const [typed, setTyped] = useState('');
  const [state, setState] = useState<TFormState>({ status: 'idle' });
  const matches = confirmsWorkspaceName(typed, workspace.name);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!matches) return;
    await runFormAction(setState, async () => {
      await deleteWorkspace(workspace.id, typed.trim());
      queueToast(`${workspace.name} was deleted`);
      window.location.assign(APP_PATHS.dashboard);
      return undefined;
    });
  };

  return (
    <Section
      id={headingId}
      title="Delete workspace"
      tone="danger"
      lede="The workspace, every site in it and all their files are removed, and its members lose access. The sites stop answering at once. This cannot be undone."
    >
      {isConfirming ? (
        <form className="account-form" onSubmit={(event) => void onSubmit(event)}>
          <TextField label={`Type ${workspace.name} to confirm`} autoComplete="off" value={typed} onChange={(event) => setTyped(event.target.value)} autoFocus />
          <FormFeedback state={state} />
          <div className="account-form__actions">
            <button
              type="button"
              className="button button--secondary"
              onClick={() => {
                setConfirming(false);
                setTyped('');
                setState({ status: 'idle' });
              }}
            >
              Cancel
            </button>
            <button type="submit" className="button account-danger-button" disabled={!matches || state.status === 'busy'}>
              {state.status === 'busy' ? 'Deleting...' : 'Delete workspace and its sites'}
            </button>
          </div>
        </form>
      ) : (
        <div className="account-form__actions">
          <button type="button" className="button account-danger-button" onClick={() => setConfirming(true)}>
            Delete workspace…
          </button>
        </div>
      )}
    </Section>
  );
}
