import { describe, expect, it } from 'vitest';
import { AppError } from '../http/app-error.ts';
import { isSiteOwner, requireSignedInCreator, type TAnonymousSession, type TPrincipal, type TSignedInCreator } from './principal.ts';

function principal(creator: TSignedInCreator | null, session: TAnonymousSession | null = null): TPrincipal {
  return {
    address: '127.0.0.1',
    visitorId: undefined,
    visitorIssuedAt: undefined,
    unlockTokenFor: () => undefined,
    anonymousSession: () => Promise.resolve(session),
    signedInCreator: () => Promise.resolve(creator),
  };
}

const ada: TSignedInCreator = { id: 'creator-ada', email: 'ada@example.com', name: 'Ada', avatarUrl: '', emailVerified: true, sessionId: 's1', linkSignedInAt: null };
const anon: TAnonymousSession = { id: 'anon-1', createdAt: 0, expiresAt: Number.MAX_SAFE_INTEGER, isExpired: false };

describe('the principal’s ownership of a project', () => {
  it('owns a project of the signed-in account, and no other account’s', async () => {
    expect(await isSiteOwner(principal(ada), { owner_creator_id: 'creator-ada', anonymous_session_id: null })).toBe(true);
    expect(await isSiteOwner(principal(ada), { owner_creator_id: 'creator-bo', anonymous_session_id: null })).toBe(false);
    expect(await isSiteOwner(principal(null), { owner_creator_id: 'creator-ada', anonymous_session_id: null })).toBe(false);
  });

  it('once claimed, a project belongs to the account, not to the anonymous session it was made in', async () => {
    expect(await isSiteOwner(principal(null, anon), { owner_creator_id: null, anonymous_session_id: 'anon-1' })).toBe(true);
    expect(await isSiteOwner(principal(null, anon), { owner_creator_id: 'creator-ada', anonymous_session_id: 'anon-1' })).toBe(false);
    expect(await isSiteOwner(principal(ada, anon), { owner_creator_id: 'creator-ada', anonymous_session_id: 'anon-1' })).toBe(true);
  });

  it('requireSignedInCreator answers 401 with the spec’s text when signed out', async () => {
    expect(await requireSignedInCreator(principal(ada))).toBe(ada);
    const error = await requireSignedInCreator(principal(null)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 401, message: 'Authentication required. Please sign in and try again.' });
  });
});
