/**
 * Moving the site to another workspace: offered to an owner or admin of the site's workspace who
 * administers another one too (the server checks both). The site keeps its link, files and what
 * visitors did; its storage counts in the workspace it goes to. Once moved, the dashboard switches
 * to that workspace and opens the site there.
 */
import { useId, useState } from 'react';
import { projectPagePath, type TManagedProject } from '@dropsite/shared';
import { queueToast } from '../../../ui/toast.tsx';
import { switchWorkspace, transferSite } from '../../../workspaces/workspaces-api.ts';
import { currentWorkspaceOf, useWorkspaces } from '../../../workspaces/workspace-store.ts';
import { SettingsCard, errorMessage, type TSaveState } from './settings-card.tsx';
import '../../../ui/label-text.css';

export function MoveSection({ project }: { project: TManagedProject }) {
  const workspaces = useWorkspaces();
  const selectId = useId();
  const [target, setTarget] = useState('');
  const [save, setSave] = useState<TSaveState>({ status: 'idle' });
  if (workspaces.status !== 'ready') return null;
  const current = currentWorkspaceOf(workspaces.list);
  const targets = workspaces.list.workspaces.filter((workspace) => workspace.id !== current?.id && workspace.permissions.includes('sites.transfer'));
  if (!current?.permissions.includes('sites.transfer') || targets.length === 0) return null;
  const chosen = targets.find((workspace) => workspace.id === target) ?? null;

  return (
    <SettingsCard
      title="Move to another workspace"
      intro={`The site is in ${current.name}. Moved, it keeps its link, files and everything visitors did; its storage counts in the workspace it goes to.`}
    >
      <form
        className="manage-move"
        onSubmit={(event) => {
          event.preventDefault();
          if (!chosen) return;
          setSave({ status: 'saving' });
          transferSite(project.id, chosen.id)
            .then(() => switchWorkspace(chosen.id))
            .then(
              () => {
                queueToast(`Site moved to ${chosen.name}`);
                window.location.assign(projectPagePath(project.id));
              },
              (err: unknown) => setSave({ status: 'error', message: errorMessage(err) }),
            );
        }}
      >
        <label htmlFor={selectId} className="label-text">
          Move to
        </label>
        <select id={selectId} className="manage-input" value={target} onChange={(event) => setTarget(event.target.value)}>
          <option value="">Choose a workspace</option>
          {targets.map((workspace) => (
            <option key={workspace.id} value={workspace.id}>
              {workspace.personal ? `${workspace.name} (Personal)` : workspace.name}
            </option>
          ))}
        </select>
        {save.status === 'error' && (
          <p className="manage-card__error" role="alert">
            {save.message}
          </p>
        )}
        <div className="manage-card__actions">
          <button type="submit" className="button button--secondary" disabled={!chosen || save.status === 'saving'}>
            {save.status === 'saving' ? 'Moving…' : 'Move site'}
          </button>
        </div>
      </form>
    </SettingsCard>
  );
}
