/**
 * 'Invite people': an address and a role (each role's summary under the choice), then POST
 * …/invitations. The API's refusal shows in the dialog, with a link to the plans when a better plan
 * cures it (the seat limit).
 */
import { useId, useState, type FormEvent } from 'react';
import { INVITABLE_ROLES, INVITATION_DAYS, WORKSPACE_ROLE_TEXT, ZInvitableRoleSchema, ZInviteMemberRequestSchema, type TWorkspaceInvitation } from '@dropsite/shared';
import type { TSendRequest } from '@dropsite/shared/browser/api-client';
import { BILLING_PATH } from '../../auth/auth-paths.ts';
import { failureMessage } from '../../auth/failure-message.ts';
import { AlertIcon } from '../../ui/icons.tsx';
import { SheetDialog } from '../../ui/sheet-dialog.tsx';
import { inviteMember } from '../../workspaces/workspaces-api.ts';
import { isPlanRefusal } from '../../workspaces/workspace-text.ts';

type TInvitableRole = (typeof INVITABLE_ROLES)[number];

export interface TInviteFailure {
  message: string;
  /** A better plan cures it: the message links to the plans. */
  isPlanLimit: boolean;
  /** The field it is about, when it is about one. */
  field: 'email' | null;
}

/** Checks the form and sends the invitation: the invitation made, or what went wrong in words. */
export async function sendInvitation(
  workspaceId: string,
  input: { email: string; role: string },
  send?: TSendRequest,
): Promise<{ invitation: TWorkspaceInvitation } | { failure: TInviteFailure }> {
  const parsed = ZInviteMemberRequestSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const isEmail = issue?.path[0] === 'email';
    return { failure: { message: isEmail ? (issue?.message ?? 'Enter a valid email address') : 'Choose a role', isPlanLimit: false, field: isEmail ? 'email' : null } };
  }
  try {
    return { invitation: await inviteMember(workspaceId, parsed.data, send) };
  } catch (error) {
    return { failure: { message: failureMessage(error), isPlanLimit: isPlanRefusal(error), field: null } };
  }
}

interface TInviteFormProps {
  email: string;
  role: TInvitableRole;
  failure: TInviteFailure | null;
  isBusy: boolean;
  titleId: string;
  onEmail: (email: string) => void;
  onRole: (role: TInvitableRole) => void;
  onSubmit: (event: FormEvent) => void;
  onCancel: () => void;
}

/** The dialog's form, as it looks for the state it is given. */
export function InviteForm({ email, role, failure, isBusy, titleId, onEmail, onRole, onSubmit, onCancel }: TInviteFormProps) {
  const emailId = useId();
  const roleId = useId();
  const summaryId = useId();
  const errorId = useId();
  return (
    <form className="workspace-dialog__form" onSubmit={onSubmit} noValidate>
      <h2 id={titleId} className="workspace-dialog__title">
        Invite people
      </h2>
      <p className="workspace-dialog__text">We email them a link to join. It works for {INVITATION_DAYS} days.</p>
      <div className="auth-field">
        <label htmlFor={emailId} className="auth-field__label">
          Email address
        </label>
        <input
          id={emailId}
          className="ui-field"
          type="email"
          autoCapitalize="off"
          spellCheck={false}
          autoComplete="off"
          maxLength={254}
          required
          value={email}
          aria-invalid={failure?.field === 'email' ? true : undefined}
          aria-describedby={failure ? errorId : undefined}
          onChange={(event) => onEmail(event.target.value)}
          // The dialog opens to type the address.
          autoFocus
        />
      </div>
      <div className="auth-field">
        <label htmlFor={roleId} className="auth-field__label">
          Role
        </label>
        <select
          id={roleId}
          className="ui-field"
          value={role}
          aria-describedby={summaryId}
          onChange={(event) => {
            const next = ZInvitableRoleSchema.safeParse(event.target.value);
            if (next.success) onRole(next.data);
          }}
        >
          {INVITABLE_ROLES.map((option) => (
            <option key={option} value={option}>
              {WORKSPACE_ROLE_TEXT[option].label}
            </option>
          ))}
        </select>
        <p id={summaryId} className="auth-form__hint">
          {WORKSPACE_ROLE_TEXT[role].summary}.
        </p>
      </div>
      {failure && (
        <p id={errorId} className="auth-form__error ui-alert" role="alert">
          <AlertIcon size={16} />
          <span>
            {failure.message}
            {failure.isPlanLimit && (
              <>
                {' '}
                <a className="plan-limit-link" href={BILLING_PATH}>
                  See plans and upgrade
                </a>
              </>
            )}
          </span>
        </p>
      )}
      <div className="workspace-dialog__actions">
        <button type="button" className="button button--secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button--primary" disabled={isBusy}>
          {isBusy ? 'Sending…' : 'Send invitation'}
        </button>
      </div>
    </form>
  );
}

export function InviteDialog({ workspaceId, onClose, onInvited }: { workspaceId: string; onClose: () => void; onInvited: (invitation: TWorkspaceInvitation) => void }) {
  const titleId = useId();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<TInvitableRole>('editor');
  const [failure, setFailure] = useState<TInviteFailure | null>(null);
  const [isBusy, setBusy] = useState(false);
  return (
    <SheetDialog className="workspace-dialog" labelledBy={titleId} onClose={onClose}>
      {(close) => (
        <InviteForm
          email={email}
          role={role}
          failure={failure}
          isBusy={isBusy}
          titleId={titleId}
          onEmail={setEmail}
          onRole={setRole}
          onCancel={close}
          onSubmit={(event) => {
            event.preventDefault();
            setBusy(true);
            setFailure(null);
            void sendInvitation(workspaceId, { email, role }).then((result) => {
              setBusy(false);
              if ('failure' in result) setFailure(result.failure);
              else {
                close();
                onInvited(result.invitation);
              }
            });
          }}
        />
      )}
    </SheetDialog>
  );
}
