import { describe, expect, it } from 'vitest';
import { loggedPath } from './logged-path.ts';

describe('loggedPath', () => {
  it('keeps an invitation token out of the log, in the page address and in its API calls', () => {
    expect(loggedPath('/invite/abcdefghijklmnopqrstuvwxyz234567')).toBe('/invite/[token]');
    expect(loggedPath('/api/invitations/abcdefghijklmnopqrstuvwxyz234567')).toBe('/api/invitations/[token]');
    expect(loggedPath('/api/invitations/abcdefghijklmnopqrstuvwxyz234567/accept')).toBe('/api/invitations/[token]/accept');
  });

  it('leaves every other path as it is', () => {
    expect(loggedPath('/api/workspaces/w1/members')).toBe('/api/workspaces/w1/members');
    expect(loggedPath('/my-site')).toBe('/my-site');
  });
});
