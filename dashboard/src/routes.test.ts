import { describe, expect, it } from 'vitest';
import { resolvePage } from './routes.ts';

describe('resolvePage', () => {
  it('shows the landing page at the root', () => {
    expect(resolvePage('/')).toBe('landing');
    expect(resolvePage('/index.html')).toBe('landing');
  });

  it('shows the account pages at their paths, with or without a trailing slash', () => {
    expect(resolvePage('/sign-in')).toBe('sign-in');
    expect(resolvePage('/sign-in/')).toBe('sign-in');
    expect(resolvePage('/reset-password')).toBe('reset-password');
    expect(resolvePage('/verify-email')).toBe('verify-email');
    expect(resolvePage('/undo-email-change')).toBe('undo-email-change');
    expect(resolvePage('/account')).toBe('account');
    expect(resolvePage('/account/sessions')).toBe('not-found');
    expect(resolvePage('/sign-up')).toBe('not-found');
  });

  it('opens the upload wizard for a signed-in creator at /dashboard/new', () => {
    expect(resolvePage('/dashboard/new')).toBe('new-site');
    expect(resolvePage('/dashboard/new/')).toBe('new-site');
    expect(resolvePage('/dashboard/newer')).toBe('not-found');
  });

  it('shows the billing dashboard at /billing only', () => {
    expect(resolvePage('/billing')).toBe('billing');
    expect(resolvePage('/billing/')).toBe('billing');
    expect(resolvePage('/billing/invoices')).toBe('not-found');
  });

  it('shows the not-found page for any path the app does not have yet', () => {
    expect(resolvePage('/nope')).toBe('not-found');
    expect(resolvePage('/templates/')).toBe('not-found');
  });
});
