/**
 * /dashboard/members: who is in the current workspace, who is invited and the seats they take; for
 * owners and admins the invitations, role changes and removals, and the workspace's settings (its
 * name, and deleting it for its owner). Every member of a shared workspace can leave it. The page
 * loads again when the header switches to another workspace.
 */
import { useCallback, useEffect, useState } from 'react';
import { APP_PATHS, WORKSPACE_ROLE_TEXT, type TWorkspaceMember, type TWorkspaceMembers, type TWorkspaceSummary } from '@dropsite/shared';
import { failureMessage } from '../../auth/failure-message.ts';
import { queueToast } from '../../ui/toast.tsx';
import { WorkspaceFrame } from './workspace-frame.tsx';
import { getWorkspaceStore } from '../../workspaces/workspace-store.ts';
import { changeMemberRole, fetchMembers, removeMember, revokeInvitation } from '../../workspaces/workspaces-api.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { InviteDialog } from './invite-dialog.tsx';
import { MembersView } from './members-view.tsx';
import { DeleteWorkspaceSection, RenameSection } from './workspace-settings-section.tsx';
import '../../auth/auth.css';
import '../account/account-page.css';
import '../../chrome/workspace-switcher.css';
import './members.css';

export function MembersPage() {
  return (
    <WorkspaceFrame title="Members" returnTo={APP_PATHS.members}>
      {(workspace) => <WorkspaceMembers key={workspace.id} workspace={workspace} />}
    </WorkspaceFrame>
  );
}

type TLoad = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'ready'; data: TWorkspaceMembers };
type TDialog = { kind: 'invite' } | { kind: 'remove'; member: TWorkspaceMember } | { kind: 'leave'; you: TWorkspaceMember } | null;

function WorkspaceMembers({ workspace }: { workspace: TWorkspaceSummary }) {
  const [load, setLoad] = useState<TLoad>({ status: 'loading' });
  const [dialog, setDialog] = useState<TDialog>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [failure, setFailure] = useState<{ list: 'members' | 'invitations'; message: string } | null>(null);
  const [notice, setNotice] = useState('');

  const reload = useCallback(async () => {
    try {
      setLoad({ status: 'ready', data: await fetchMembers(workspace.id) });
    } catch (error) {
      setLoad((previous) => (previous.status === 'ready' ? previous : { status: 'failed', message: failureMessage(error) }));
    }
  }, [workspace.id]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const change = async (list: 'members' | 'invitations', id: string, run: () => Promise<unknown>, done: string) => {
    setBusyId(id);
    setFailure(null);
    setNotice('');
    try {
      await run();
      setNotice(done);
      await reload();
    } catch (error) {
      setFailure({ list, message: failureMessage(error) });
    }
    setBusyId(null);
  };

  const canManage = workspace.permissions.includes('members.manage');
  const canRename = workspace.permissions.includes('settings.manage');
  const canDelete = workspace.permissions.includes('workspace.delete') && !workspace.personal;

  return (
    <main id="main" className="dash container members" aria-busy={load.status === 'loading'}>
      <header className="members__head">
        <p className="eyebrow">{workspace.personal ? 'Personal workspace' : 'Workspace'}</p>
        <h1 className="members__title">{workspace.name}</h1>
        <p className="members__lede">
          {canManage
            ? 'Invite people to publish and manage sites with you, and choose what each of them can do.'
            : 'The people who work on this workspace’s sites. Its owner and admins manage who is in it.'}
        </p>
      </header>

      <p className="dash-notice" role="status">
        {notice}
      </p>

      {load.status === 'loading' && (
        <div className="members-section" aria-hidden="true">
          <div className="dash-skeleton dash-skeleton--title" />
          <div className="dash-skeleton dash-skeleton--lines" />
        </div>
      )}
      {load.status === 'failed' && (
        <div className="dash-inline-error" role="alert">
          <p>The members could not be loaded: {load.message}</p>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              setLoad({ status: 'loading' });
              void reload();
            }}
          >
            Retry
          </button>
        </div>
      )}
      {load.status === 'ready' && (
        <MembersView
          workspace={workspace}
          data={load.data}
          busyId={busyId}
          failure={failure}
          onInvite={() => setDialog({ kind: 'invite' })}
          onChangeRole={(member, role) =>
            void change(
              'members',
              member.creatorId,
              () => changeMemberRole(workspace.id, member.creatorId, role),
              `${member.name || member.email}’s role is now ${WORKSPACE_ROLE_TEXT[role].label}.`,
            )
          }
          onRemove={(member) => setDialog({ kind: 'remove', member })}
          onRevoke={(invitation) =>
            void change('invitations', invitation.id, () => revokeInvitation(workspace.id, invitation.id), `The invitation to ${invitation.email} was revoked.`)
          }
          onLeave={(you) => setDialog({ kind: 'leave', you })}
        />
      )}

      {(canRename || canDelete) && (
        <div className="account__sections members__settings">
          {canRename && <RenameSection workspace={workspace} />}
          {canDelete && <DeleteWorkspaceSection workspace={workspace} />}
        </div>
      )}

      {dialog?.kind === 'invite' && (
        <InviteDialog
          workspaceId={workspace.id}
          onClose={() => setDialog(null)}
          onInvited={(invitation) => {
            setNotice(`Invitation sent to ${invitation.email}.`);
            void reload();
          }}
        />
      )}
      {dialog?.kind === 'remove' && (
        <ConfirmDialog
          title={`Remove ${dialog.member.name || dialog.member.email}?`}
          confirmLabel="Remove from workspace"
          busyLabel="Removing…"
          onClose={() => setDialog(null)}
          onConfirm={async () => {
            await removeMember(workspace.id, dialog.member.creatorId);
            setNotice(`${dialog.member.name || dialog.member.email} was removed.`);
            await reload();
          }}
        >
          <p>They lose access to {workspace.name} and its sites at once. The sites they published stay in the workspace. You can invite them again later.</p>
        </ConfirmDialog>
      )}
      {dialog?.kind === 'leave' && (
        <ConfirmDialog
          title={`Leave ${workspace.name}?`}
          confirmLabel="Leave workspace"
          busyLabel="Leaving…"
          onClose={() => setDialog(null)}
          onConfirm={async () => {
            await removeMember(workspace.id, dialog.you.creatorId);
            queueToast(`You left ${workspace.name}`);
            await getWorkspaceStore().refresh();
            window.location.assign(APP_PATHS.dashboard);
          }}
        >
          <p>You lose access to its sites at once. Someone who manages it can invite you again.</p>
        </ConfirmDialog>
      )}
    </main>
  );
}
