/**
 * The members page once its data is here: the members (name, email, role, joined, 'You'), the
 * pending invitations and the seats they take. What the caller's role may not do is not shown:
 * with `members.manage` (owners and admins) each row has its role select and Remove, each
 * invitation Revoke, and the page its Invite button; everyone else reads the lists.
 */
import { useId } from 'react';
import {
  INVITABLE_ROLES,
  WORKSPACE_ROLE_TEXT,
  type TWorkspaceInvitation,
  type TWorkspaceMember,
  type TWorkspaceMembers,
  type TWorkspaceRole,
  type TWorkspaceSummary,
} from '@dropsite/shared';
import { PlusIcon } from '../../ui/icons.tsx';
import { formatDay, seatsFull, seatsText } from '../../workspaces/workspace-text.ts';

export interface TMembersActions {
  onInvite: () => void;
  onChangeRole: (member: TWorkspaceMember, role: TWorkspaceRole) => void;
  onRemove: (member: TWorkspaceMember) => void;
  onRevoke: (invitation: TWorkspaceInvitation) => void;
  /** Leaving: the caller's own membership is removed. */
  onLeave: (you: TWorkspaceMember) => void;
}

interface TMembersViewProps extends TMembersActions {
  workspace: TWorkspaceSummary;
  data: TWorkspaceMembers;
  /** The row whose change is on its way (a member's creator id or an invitation's id). */
  busyId: string | null;
  /** A failed change, shown under the list it was made in. */
  failure: { list: 'members' | 'invitations'; message: string } | null;
}

/** Whether the caller may change this member's role or remove them: not themself, and never the owner (ownership moves only by a transfer). */
export function canEditMember(workspace: TWorkspaceSummary, member: TWorkspaceMember): boolean {
  return workspace.permissions.includes('members.manage') && !member.isYou && member.role !== 'owner';
}

export function MembersView({ workspace, data, busyId, failure, onInvite, onChangeRole, onRemove, onRevoke, onLeave }: TMembersViewProps) {
  const canManage = workspace.permissions.includes('members.manage');
  const membersTitle = useId();
  const invitationsTitle = useId();
  const seatsId = useId();
  const isFull = seatsFull(data.seats);
  const you = data.members.find((member) => member.isYou);

  return (
    <>
      <section className="members-section" aria-labelledby={membersTitle}>
        <div className="members-section__head">
          <div>
            <h2 id={membersTitle} className="members-section__title">
              Members
            </h2>
            <p id={seatsId} className="members-section__seats">
              {seatsText(data.seats)}
            </p>
          </div>
          {canManage && (
            <button type="button" className="button button--primary" onClick={onInvite} aria-describedby={seatsId}>
              <PlusIcon size={18} />
              Invite people
            </button>
          )}
        </div>
        {canManage && isFull && (
          <p className="members-note" role="note">
            Every seat of your plan is taken: an invitation needs a free seat.{' '}
            <a href="/billing" className="plan-limit-link">
              See plans
            </a>
          </p>
        )}
        <table className="members-table">
          <caption className="visually-hidden">Members of {workspace.name}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
              {canManage && (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {data.members.map((member) => (
              <MemberRow key={member.creatorId} workspace={workspace} member={member} isBusy={busyId === member.creatorId} onChangeRole={onChangeRole} onRemove={onRemove} />
            ))}
          </tbody>
        </table>
        {data.members.length === 1 && canManage && <p className="members-empty">Only you so far. Invite people to publish and manage sites with you.</p>}
        {failure?.list === 'members' && (
          <p className="members-error" role="alert">
            {failure.message}
          </p>
        )}
      </section>

      <section className="members-section" aria-labelledby={invitationsTitle}>
        <div className="members-section__head">
          <h2 id={invitationsTitle} className="members-section__title">
            Pending invitations
          </h2>
        </div>
        {data.invitations.length === 0 ? (
          <p className="members-empty">No pending invitations.</p>
        ) : (
          <table className="members-table">
            <caption className="visually-hidden">Pending invitations to {workspace.name}</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Invited by</th>
                <th scope="col">Expires</th>
                {canManage && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {data.invitations.map((invitation) => (
                <tr key={invitation.id}>
                  <td data-label="Email" className="members-table__strong">
                    {invitation.email}
                  </td>
                  <td data-label="Role">{WORKSPACE_ROLE_TEXT[invitation.role].label}</td>
                  <td data-label="Invited by">{invitation.invitedBy}</td>
                  <td data-label="Expires" className="members-table__date">
                    {formatDay(invitation.expiresAt)}
                  </td>
                  {canManage && (
                    <td className="members-table__actions">
                      <button
                        type="button"
                        className="button button--secondary members-table__button"
                        onClick={() => onRevoke(invitation)}
                        disabled={busyId === invitation.id}
                        aria-label={`Revoke the invitation to ${invitation.email}`}
                      >
                        {busyId === invitation.id ? 'Revoking…' : 'Revoke'}
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {failure?.list === 'invitations' && (
          <p className="members-error" role="alert">
            {failure.message}
          </p>
        )}
      </section>

      {!workspace.personal && you && (you.role !== 'owner' || data.members.filter((member) => member.role === 'owner').length > 1) && (
        <section className="members-section members-section--leave" aria-label="Leave workspace">
          <p className="members-section__text">You lose access to {workspace.name} and its sites. Someone who manages it can invite you again.</p>
          <button type="button" className="button button--secondary" onClick={() => onLeave(you)}>
            Leave workspace…
          </button>
        </section>
      )}
    </>
  );
}

function MemberRow({
  workspace,
  member,
  isBusy,
  onChangeRole,
  onRemove,
}: { workspace: TWorkspaceSummary; member: TWorkspaceMember; isBusy: boolean } & Pick<TMembersActions, 'onChangeRole' | 'onRemove'>) {
  const canManage = workspace.permissions.includes('members.manage');
  const canEdit = canEditMember(workspace, member);
  const selectId = useId();
  const displayName = member.name.trim() || member.email;
  return (
    <tr>
      <td data-label="Name" className="members-table__strong">
        <span>
          {displayName}
          {member.isYou && <span className="members-tag">You</span>}
        </span>
      </td>
      <td data-label="Email" className="members-table__email">
        {member.email}
      </td>
      <td data-label="Role">
        {canEdit ? (
          <>
            <label htmlFor={selectId} className="visually-hidden">
              Role of {displayName}
            </label>
            <select
              id={selectId}
              className="ui-field members-table__select"
              value={member.role}
              disabled={isBusy}
              onChange={(event) => onChangeRole(member, event.target.value as TWorkspaceRole)}
            >
              {INVITABLE_ROLES.map((role) => (
                <option key={role} value={role}>
                  {WORKSPACE_ROLE_TEXT[role].label}
                </option>
              ))}
            </select>
          </>
        ) : (
          WORKSPACE_ROLE_TEXT[member.role].label
        )}
      </td>
      <td data-label="Joined" className="members-table__date">
        {formatDay(member.joinedAt)}
      </td>
      {canManage && (
        <td className="members-table__actions">
          {canEdit && (
            <button
              type="button"
              className="button button--secondary members-table__button"
              onClick={() => onRemove(member)}
              disabled={isBusy}
              aria-label={`Remove ${displayName}`}
            >
              Remove
            </button>
          )}
        </td>
      )}
    </tr>
  );
}
