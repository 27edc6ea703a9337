import { load } from 'cheerio';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { permissionsOf, type TWorkspaceMembers, type TWorkspaceRole, type TWorkspaceSummary } from '@dropsite/shared';
import type { TSendRequest } from '@dropsite/shared/browser/api-client';
import { InviteForm, sendInvitation, type TInviteFailure } from './invite-dialog.tsx';
import { MembersView } from './members-view.tsx';
import { seatsText } from '../../workspaces/workspace-text.ts';

const noop = () => undefined;

function workspaceAs(role: TWorkspaceRole, personal = false): TWorkspaceSummary {
  return { id: 'w2', name: 'Northlight Studio', personal, role, memberCount: 3, permissions: permissionsOf(role) };
}

/** Mara owns the workspace, Jon is an admin, Ivy an editor; `you` says which of them is looking. */
function members(you: 'mara' | 'jon' | 'ivy', seats = { used: 4, limit: 5 }): TWorkspaceMembers {
  return {
    members: [
      { creatorId: 'mara', name: 'Mara Lind', email: 'mara@studio.example', role: 'owner', joinedAt: '2026-11-01T09:00:00.000Z', isYou: you === 'mara' },
      { creatorId: 'jon', name: 'Jon Reyes', email: 'jon@studio.example', role: 'admin', joinedAt: '2026-11-20T09:00:00.000Z', isYou: you === 'jon' },
      { creatorId: 'ivy', name: '', email: 'ivy@studio.example', role: 'editor', joinedAt: '2026-12-02T09:00:00.000Z', isYou: you === 'ivy' },
    ],
    invitations: [
      { id: 'inv1', email: 'sam@client.example', role: 'viewer', invitedBy: 'Jon Reyes', createdAt: '2026-12-07T10:00:00.000Z', expiresAt: '2026-12-14T10:00:00.000Z' },
    ],
    seats,
  };
}

function render(workspace: TWorkspaceSummary, data: TWorkspaceMembers) {
  return load(
    renderToStaticMarkup(
      createElement(MembersView, {
        workspace,
        data,
        busyId: null,
        failure: null,
        onInvite: noop,
        onChangeRole: noop,
        onRemove: noop,
        onRevoke: noop,
        onLeave: noop,
      }),
    ),
  );
}

const rowOf = ($: ReturnType<typeof load>, text: string) => $('tbody tr').filter((_, row) => $(row).text().includes(text));

describe('the members page', () => {
  it('lists members (name, email, role, joined, You), the pending invitations and the seats they take', () => {
    const $ = render(workspaceAs('editor'), members('ivy'));
    const cells = (text: string) =>
      rowOf($, text)
        .find('td')
        .map((_, cell) => $(cell).text())
        .get();
    expect(cells('mara@')).toEqual(['Mara Lind', 'mara@studio.example', 'Owner', 'Nov 1, 2026']);
    // No name: the address stands in for it.
    expect(cells('ivy@')).toEqual(['ivy@studio.example' + 'You', 'ivy@studio.example', 'Editor', 'Dec 2, 2026']);
    expect(cells('sam@')).toEqual(['sam@client.example', 'Viewer', 'Jon Reyes', 'Dec 14, 2026']);
    expect($('.members-section__seats').text()).toBe('4 of 5 seats');
  });

  it('an editor reads the lists only: no invite, role select, remove or revoke; but can leave', () => {
    const $ = render(workspaceAs('editor'), members('ivy'));
    expect($('button:contains("Invite people")')).toHaveLength(0);
    expect($('select')).toHaveLength(0);
    expect($('button:contains("Remove")')).toHaveLength(0);
    expect($('button:contains("Revoke")')).toHaveLength(0);
    expect($('button:contains("Leave workspace")')).toHaveLength(1);
  });

  it('an admin invites, changes roles and removes, but not the owner’s row nor their own', () => {
    const $ = render(workspaceAs('admin'), members('jon'));
    expect($('button:contains("Invite people")')).toHaveLength(1);
    // Only Ivy's row can be changed: Mara owns the workspace, Jon is the admin looking.
    expect($('select')).toHaveLength(1);
    expect($(`label[for="${rowOf($, 'ivy@').find('select').attr('id')}"]`).text()).toBe('Role of ivy@studio.example');
    expect(
      rowOf($, 'ivy@')
        .find('option')
        .map((_, option) => $(option).text())
        .get(),
    ).toEqual(['Admin', 'Editor', 'Viewer']);
    expect(rowOf($, 'ivy@').find('select').val()).toBe('editor');
    expect(rowOf($, 'mara@').find('select, button')).toHaveLength(0);
    expect(rowOf($, 'jon@').find('select, button')).toHaveLength(0);
    expect(rowOf($, 'ivy@').find('button').attr('aria-label')).toBe('Remove ivy@studio.example');
    expect(rowOf($, 'sam@').find('button').attr('aria-label')).toBe('Revoke the invitation to sam@client.example');
  });

  it('offers the only owner no way out: the workspace would be left without one', () => {
    const $ = render(workspaceAs('owner', false), { ...members('mara'), seats: { used: 4, limit: 5 } });
    expect($('button:contains("Leave workspace")')).toHaveLength(0);
  });

  it('on the personal workspace there is nothing to leave', () => {
    const $ = render(workspaceAs('owner', true), { ...members('mara'), seats: { used: 1, limit: -1 } });
    expect($('button:contains("Leave workspace")')).toHaveLength(0);
  });

  it('says when the seats are all taken, with the way to a bigger plan, and when no one is invited', () => {
    const $ = render(workspaceAs('owner'), { ...members('mara', { used: 5, limit: 5 }), invitations: [] });
    expect($('[role=note]').text()).toBe('Every seat of your plan is taken: an invitation needs a free seat. See plans');
    expect($('[role=note] a').attr('href')).toBe('/billing');
    expect($('.members-empty').text()).toBe('No pending invitations.');
  });

  it('writes the seats as the plan counts them', () => {
    expect(seatsText({ used: 3, limit: 5 })).toBe('3 of 5 seats');
    expect(seatsText({ used: 3, limit: -1 })).toBe('3 seats (unlimited)');
    expect(seatsText({ used: 1, limit: -1 })).toBe('1 seat (unlimited)');
  });
});

describe('the invite dialog', () => {
  function fakeServer(status: number, body: unknown) {
    const sent: { method: string; path: string; body: unknown }[] = [];
    const send: TSendRequest = async (path, init) => {
      sent.push({ method: init.method ?? 'GET', path, body: typeof init.body === 'string' ? JSON.parse(init.body) : null });
      return new Response(JSON.stringify(body), { status });
    };
    return { send, sent };
  }

  function renderForm(failure: TInviteFailure | null) {
    return load(
      renderToStaticMarkup(
        createElement(InviteForm, {
          email: 'sam@client.example',
          role: 'viewer',
          failure,
          isBusy: false,
          titleId: 'invite-title',
          onEmail: noop,
          onRole: noop,
          onSubmit: noop,
          onCancel: noop,
        }),
      ),
    );
  }

  it('sends the address (trimmed, lower case) and the role, and answers the invitation made', async () => {
    const invitation = {
      id: 'inv2',
      email: 'sam@client.example',
      role: 'viewer',
      invitedBy: 'Jon Reyes',
      createdAt: '2026-12-08T10:00:00.000Z',
      expiresAt: '2026-12-15T10:00:00.000Z',
    };
    const server = fakeServer(201, invitation);
    expect(await sendInvitation('w2', { email: '  Sam@Client.example ', role: 'viewer' }, server.send)).toEqual({ invitation });
    expect(server.sent).toEqual([{ method: 'POST', path: '/api/workspaces/w2/invitations', body: { email: 'sam@client.example', role: 'viewer' } }]);
  });

  it('an address that is not one is refused before anything is sent', async () => {
    const server = fakeServer(201, {});
    expect(await sendInvitation('w2', { email: 'sam@', role: 'editor' }, server.send)).toEqual({
      failure: { message: 'Enter a valid email address', isPlanLimit: false, field: 'email' },
    });
    expect(server.sent).toHaveLength(0);
  });

  it('shows the API’s refusal in the dialog; the seat limit’s with a link to the plans', async () => {
    const seatLimit = 'Your plan has 5 seats and all of them are taken. Upgrade your plan or remove someone to invite more people.';
    const refused = await sendInvitation(
      'w2',
      { email: 'sam@client.example', role: 'editor' },
      fakeServer(403, { success: false, error: seatLimit, code: 'seat_limit_reached' }).send,
    );
    expect(refused).toEqual({ failure: { message: seatLimit, isPlanLimit: true, field: null } });
    if (!('failure' in refused)) throw new Error('expected a failure');

    const $ = renderForm(refused.failure);
    const alert = $('[role=alert]');
    expect(alert.text()).toBe(`${seatLimit} See plans and upgrade`);
    expect(alert.find('a').attr('href')).toBe('/billing');
    expect($('input[type=email]').attr('aria-describedby')).toBe(alert.attr('id'));

    const member = await sendInvitation(
      'w2',
      { email: 'ivy@studio.example', role: 'editor' },
      fakeServer(409, { success: false, error: 'ivy@studio.example is already a member' }).send,
    );
    if (!('failure' in member)) throw new Error('expected a failure');
    const other = renderForm(member.failure);
    expect(other('[role=alert]').text()).toBe('ivy@studio.example is already a member');
    expect(other('[role=alert] a')).toHaveLength(0);
  });

  it('offers the roles an invitation can give, each with what it may do', () => {
    const $ = renderForm(null);
    expect(
      $('select option')
        .map((_, option) => $(option).text())
        .get(),
    ).toEqual(['Admin', 'Editor', 'Viewer']);
    const select = $('select');
    expect($(`#${select.attr('aria-describedby')}`).text()).toBe('Read analytics, comments and approvals; export.');
    expect($('[role=alert]')).toHaveLength(0);
  });
});
