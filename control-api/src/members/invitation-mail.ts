/**
 * The invitation to a workspace: who invites the address, to which workspace, in which role, and the
 * link that joins. Names typed by members (theirs and the workspace's) are the only free text, and
 * only a plan with seats to give can send it (Business: unlimited; Free and Pro have the owner's seat
 * alone), at most INVITATIONS_PER_DAY a day per workspace.
 */
import { INVITATION_DAYS, WORKSPACE_ROLE_TEXT, type TWorkspaceRole } from '@dropsite/shared';
import { createElement as h, Fragment, type ReactElement } from 'react';
import { renderEmailHtml } from '../notifications/email-html.ts';
import type { TMailMessage } from '../notifications/mailer.ts';

export interface TInvitationMail {
  to: string;
  inviter: string;
  workspace: string;
  role: TWorkspaceRole;
  link: string;
}

const LIFETIME = `The link works once, for ${INVITATION_DAYS} days, and only for an account with this address (you can create one from the link).`;
const IGNORE = 'If you do not know them, you can ignore this message: nothing happens without the link.';

function InvitationEmail({ intro, role, link }: { intro: string; role: string; link: string }): ReactElement {
  return h(
    Fragment,
    null,
    h('p', null, intro),
    h('p', null, role),
    h('p', null, h('a', { href: link }, 'Join the workspace')),
    h('p', null, LIFETIME),
    h('p', null, IGNORE),
    h('p', null, 'Dropsite'),
  );
}

export function invitationMessage(mail: TInvitationMail): TMailMessage {
  const role = WORKSPACE_ROLE_TEXT[mail.role];
  const intro = `${mail.inviter} invited you to join the workspace “${mail.workspace}” on Dropsite, where they publish sites for their clients.`;
  const roleLine = `Your role: ${role.label}. ${role.summary}.`;
  const text = `${intro}\n\n${roleLine}\n\nJoin the workspace: ${mail.link}\n\n${LIFETIME}\n\n${IGNORE}\n\nDropsite\n`;
  return {
    to: mail.to,
    subject: `${mail.inviter} invited you to ${mail.workspace} on Dropsite`,
    text,
    html: renderEmailHtml(h(InvitationEmail, { intro, role: roleLine, link: mail.link })),
  };
}
