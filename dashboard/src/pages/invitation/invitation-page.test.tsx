import { load } from 'cheerio';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TCreatorPublic, TInvitationPreview } from '@dropsite/shared';
import type { TSendRequest } from '@dropsite/shared/browser/api-client';
import type { TSessionState } from '../../auth/session-store.ts';
import { InvitationView } from './invitation-page.tsx';
import { readInvitation, type TInvitationState } from './invitation-state.ts';

const TOKEN = 'inv_0123456789abcdefghij';
const noop = () => undefined;

const preview: TInvitationPreview = {
  workspaceName: 'Northlight Studio',
  invitedBy: 'Jon Reyes',
  email: 'sam@client.example',
  role: 'editor',
  expiresAt: '2026-12-14T10:00:00.000Z',
};

const creator = (email: string): TCreatorPublic => ({ id: 'c9', email, name: 'Sam', avatarUrl: '', emailVerified: true, createdAt: '2026-11-01T00:00:00.000Z' });
const signedIn = (email: string): TSessionState => ({ status: 'signed-in', creator: creator(email) });
const signedOut: TSessionState = { status: 'signed-out', creator: null };

function render(invitation: TInvitationState, session: TSessionState) {
  return load(
    renderToStaticMarkup(
      createElement(InvitationView, { token: TOKEN, invitation, session, isJoining: false, joinError: null, isSigningOut: false, onJoin: noop, onSignOut: noop }),
    ),
  );
}

/** Answers GET /api/invitations/:token with `status` and `body`. */
function answering(status: number, body: unknown) {
  const asked: string[] = [];
  const send: TSendRequest = async (path) => {
    asked.push(path);
    return new Response(JSON.stringify(body), { status });
  };
  return { send, asked };
}

describe('the invitation page', () => {
  it('reads the invitation from GET /api/invitations/:token; 404 is no longer valid, 410 expired (naming who sent it when the answer does)', async () => {
    const valid = answering(200, preview);
    expect(await readInvitation(TOKEN, valid.send)).toEqual({ status: 'valid', invitation: preview });
    expect(valid.asked).toEqual([`/api/invitations/${TOKEN}`]);

    expect(await readInvitation(TOKEN, answering(404, { success: false, error: 'Invitation not found' }).send)).toEqual({ status: 'unknown' });
    expect(await readInvitation(TOKEN, answering(410, { success: false, error: 'This invitation has expired', invitedBy: 'Jon Reyes' }).send)).toEqual({
      status: 'expired',
      invitedBy: 'Jon Reyes',
    });
    expect(await readInvitation(TOKEN, answering(410, { success: false, error: 'This invitation has expired' }).send)).toEqual({ status: 'expired', invitedBy: null });
    // A 200 of another shape is no invitation to show.
    expect(await readInvitation(TOKEN, answering(200, { workspaceName: 'x' }).send)).toEqual({ status: 'failed', message: 'Something went wrong on our side. Please try again.' });
  });

  it('signed in with the invited address: who invited them to what, as which role, and Join', () => {
    const $ = render({ status: 'valid', invitation: preview }, signedIn('Sam@Client.example'));
    expect($('h1').text()).toBe('Jon Reyes invited you to Northlight Studio as Editor');
    expect($('button').text()).toBe('Join Northlight Studio');
    expect($('a:contains("Sign In")')).toHaveLength(0);
  });

  it('signed in with another address: says which address it is for, and offers to sign out instead of joining', () => {
    const $ = render({ status: 'valid', invitation: preview }, signedIn('mara@studio.example'));
    expect($('h1').text()).toBe('Jon Reyes invited you to Northlight Studio as Editor');
    expect($('[role=note]').text()).toBe(
      'You are signed in as mara@studio.example, but this invitation is for sam@client.example. Sign out, then sign in or sign up with sam@client.example to join.',
    );
    expect(
      $('button')
        .map((_, b) => $(b).text())
        .get(),
    ).toEqual(['Sign out']);
  });

  it('signed out: sign in and sign up, each coming back to this invitation', () => {
    const $ = render({ status: 'valid', invitation: preview }, signedOut);
    expect($('a:contains("Sign In")').attr('href')).toBe(`/sign-in?returnTo=%2Finvite%2F${TOKEN}`);
    expect($('a:contains("Sign Up")').attr('href')).toBe(`/sign-in?mode=sign-up&returnTo=%2Finvite%2F${TOKEN}`);
    expect($('button')).toHaveLength(0);
  });

  it('expired: says so and whom to ask for a new one', () => {
    const said = ($: ReturnType<typeof load>) => `${$('h1').text()}. ${$('p').first().text()}`;
    expect(said(render({ status: 'expired', invitedBy: 'Jon Reyes' }, signedOut))).toBe('This invitation has expired. Ask Jon Reyes for a new one.');
    expect(said(render({ status: 'expired', invitedBy: null }, signedOut))).toBe('This invitation has expired. Ask the person who invited you for a new one.');
  });

  it('unknown, used or revoked: no longer valid, whoever is signed in', () => {
    const $ = render({ status: 'unknown' }, signedIn('sam@client.example'));
    expect($('h1').text()).toBe('This invitation is no longer valid');
    expect($('button')).toHaveLength(0);
  });
});
