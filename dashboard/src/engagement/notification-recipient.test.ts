import { describe, expect, it } from 'vitest';
import { notificationRecipientOf, notificationsBlockedReason } from './notification-recipient.ts';

describe('who receives notifications', () => {
  it("defaults to the account's confirmed email, and a site's own address wins", () => {
    expect(notificationRecipientOf('', 'anna@example.com')).toEqual({ kind: 'account', email: 'anna@example.com' });
    expect(notificationRecipientOf('  studio@example.com ', 'anna@example.com')).toEqual({ kind: 'site', email: 'studio@example.com' });
    expect(notificationRecipientOf('studio@example.com', null)).toEqual({ kind: 'site', email: 'studio@example.com' });
  });

  it('has no one without a confirmed account email or a valid address, and says why', () => {
    expect(notificationRecipientOf('', null)).toEqual({ kind: 'none' });
    // A half-typed address is no one, even with an account address: it is not silently swapped.
    expect(notificationRecipientOf('studio@', 'anna@example.com')).toEqual({ kind: 'none' });
    expect(notificationsBlockedReason('', null, false)).toBe('Enter the address notifications should go to, to turn them on.');
    expect(notificationsBlockedReason('', null, true)).toMatch(/^Confirm your account’s email/);
    expect(notificationsBlockedReason('studio@', null, false)).toBe('Enter a valid email address to turn notifications on.');
    expect(notificationsBlockedReason('', 'anna@example.com', false)).toBeNull();
  });
});
