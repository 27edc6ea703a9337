import { describe, expect, it } from 'vitest';
import { APP_PATHS, invitationPagePath, invitationTokenOfPath, isAppPagePath, projectIdOfPath, projectPagePath, resolveAppPage } from './app-routes.ts';

describe('the app’s pages', () => {
  it('resolve each listed path to its page, with or without a trailing slash', () => {
    for (const [page, path] of Object.entries(APP_PATHS)) {
      expect(resolveAppPage(path), path).toBe(page);
      expect(resolveAppPage(`${path}/`), path).toBe(page);
      expect(isAppPagePath(path), path).toBe(true);
    }
  });

  it('has a page for each well-formed project id, and the server serves no path with a trailing slash but the root', () => {
    const path = projectPagePath('AbCdEfGh12345678_-');
    expect(path).toBe('/dashboard/projects/AbCdEfGh12345678_-');
    expect(projectIdOfPath(path)).toBe('AbCdEfGh12345678_-');
    expect(resolveAppPage(path)).toBe('project');
    expect(isAppPagePath(path)).toBe(true);
    expect(isAppPagePath(`${path}/`)).toBe(false);
    expect(isAppPagePath('/billing/')).toBe(false);
    expect(isAppPagePath('/index.html')).toBe(false);
    expect(resolveAppPage('/dashboard/projects/short')).toBe('not-found');
    expect(resolveAppPage('/templates')).toBe('not-found');
  });
});

describe('resolveAppPage, as the dashboard app picks its page', () => {
  it('shows the landing page at the root', () => {
    expect(resolveAppPage('/')).toBe('landing');
    expect(resolveAppPage('/index.html')).toBe('landing');
  });

  it('shows the account pages at their paths, with or without a trailing slash', () => {
    expect(resolveAppPage('/sign-in')).toBe('sign-in');
    expect(resolveAppPage('/sign-in/')).toBe('sign-in');
    expect(resolveAppPage('/reset-password')).toBe('reset-password');
    expect(resolveAppPage('/verify-email')).toBe('verify-email');
    expect(resolveAppPage('/undo-email-change')).toBe('undo-email-change');
    expect(resolveAppPage('/account')).toBe('account');
    expect(resolveAppPage('/account/sessions')).toBe('not-found');
    expect(resolveAppPage('/sign-up')).toBe('not-found');
  });

  it('opens the upload wizard for a signed-in creator at /dashboard/new', () => {
    expect(resolveAppPage('/dashboard/new')).toBe('new-site');
    expect(resolveAppPage('/dashboard/new/')).toBe('new-site');
    expect(resolveAppPage('/dashboard/newer')).toBe('not-found');
  });

  it('shows the billing dashboard at /billing only', () => {
    expect(resolveAppPage('/billing')).toBe('billing');
    expect(resolveAppPage('/billing/')).toBe('billing');
    expect(resolveAppPage('/billing/invoices')).toBe('not-found');
  });

  it('shows the not-found page for any path the app does not have yet', () => {
    expect(resolveAppPage('/nope')).toBe('not-found');
    expect(resolveAppPage('/templates/')).toBe('not-found');
  });
});

describe('the workspace pages', () => {
  it('shows the members page and the audit log under /dashboard, and an invitation at /invite/{token}', () => {
    expect(resolveAppPage('/dashboard/members')).toBe('members');
    expect(resolveAppPage('/dashboard/audit/')).toBe('audit');
    const path = invitationPagePath('tok_0123456789abcdefABCDEF');
    expect(path).toBe('/invite/tok_0123456789abcdefABCDEF');
    expect(invitationTokenOfPath(path)).toBe('tok_0123456789abcdefABCDEF');
    expect(resolveAppPage(path)).toBe('invitation');
    expect(isAppPagePath(path)).toBe(true);
    expect(isAppPagePath(`${path}/`)).toBe(false);
    // A token of other characters, or too short to be one, is no invitation.
    expect(resolveAppPage('/invite/short')).toBe('not-found');
    expect(resolveAppPage('/invite/abc%2F..%2Fdefghijklmnopq')).toBe('not-found');
    expect(resolveAppPage('/invite/')).toBe('not-found');
  });
});
