/**
 * Who a site's notification email goes to, as the wizard and the site's settings show it (the
 * server decides the same way and refuses notifications on with no one to receive them): the
 * address given for the site, else the account's confirmed address; nobody without either.
 */
import { isValidEmailAddress } from '@dropsite/shared';

export type TNotificationRecipient =
  /** The account's confirmed address (the default). */
  | { kind: 'account'; email: string }
  /** An address given for this site; a new one gets a confirmation link before any message. */
  | { kind: 'site'; email: string }
  /** No one: the switch cannot be on. */
  | { kind: 'none' };

export function notificationRecipientOf(siteEmail: string, accountEmail: string | null): TNotificationRecipient {
  const email = siteEmail.trim();
  if (email !== '' && isValidEmailAddress(email)) return { kind: 'site', email };
  if (email === '' && accountEmail) return { kind: 'account', email: accountEmail };
  return { kind: 'none' };
}

/** Why the switch is off and cannot be turned on, or null when it can. */
export function notificationsBlockedReason(siteEmail: string, accountEmail: string | null, accountEmailUnconfirmed: boolean): string | null {
  if (notificationRecipientOf(siteEmail, accountEmail).kind !== 'none') return null;
  if (siteEmail.trim() !== '') return 'Enter a valid email address to turn notifications on.';
  return accountEmailUnconfirmed
    ? 'Confirm your account’s email (use the link we sent you), or enter an address below, to turn notifications on.'
    : 'Enter the address notifications should go to, to turn them on.';
}
