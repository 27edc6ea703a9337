/**
 * Browser notifications for new alerts (spec 4): shown only with permission, closed after 10 s
 * unless their urgency is high; a click focuses the tab, marks the alert read and opens the dashboard.
 */
import { BROWSER_NOTIFICATION_CLOSE_MS, type TLocalNotification } from '@dropsite/shared';
import { shouldAutoCloseBrowserNotification } from './notifications.ts';

export type TNotificationPermission = NotificationPermission | 'unsupported';

export function readNotificationPermission(): TNotificationPermission {
  return typeof window !== 'undefined' && 'Notification' in window ? Notification.permission : 'unsupported';
}

export async function requestNotificationPermission(): Promise<TNotificationPermission> {
  if (readNotificationPermission() === 'unsupported') return 'unsupported';
  try {
    return await Notification.requestPermission();
  } catch {
    return readNotificationPermission();
  }
}

const TITLES: Record<TLocalNotification['type'], string> = {
  comment: 'New comment',
  favorite: 'New favourite',
  approval: 'New review',
  expiration_warning: 'Your sites’ activity leaves this browser soon',
};

/** At most this many at once; a burst beyond it becomes one summary notification. */
const MAX_AT_ONCE = 3;

export function showBrowserNotifications(added: readonly TLocalNotification[], onOpen: (item: TLocalNotification) => void): void {
  if (readNotificationPermission() !== 'granted' || added.length === 0) return;
  const shown =
    added.length > MAX_AT_ONCE
      ? [
          {
            ...added[0]!,
            message: `${added.length} new engagement alerts on your sites.`,
            urgencyLevel: added.some((n) => n.urgencyLevel === 'high') ? 'high' : 'medium',
          } as TLocalNotification,
        ]
      : added;
  for (const item of shown) {
    let notification: Notification;
    try {
      notification = new Notification(TITLES[item.type], { body: item.message, tag: item.id, requireInteraction: item.urgencyLevel === 'high' });
    } catch {
      // Some browsers only allow notifications from a service worker; the bell still has the alert.
      return;
    }
    notification.onclick = () => {
      window.focus();
      notification.close();
      onOpen(item);
    };
    if (shouldAutoCloseBrowserNotification(item)) setTimeout(() => notification.close(), BROWSER_NOTIFICATION_CLOSE_MS);
  }
}
