/**
 * The header's notification bell (spec 2.8, 4): 'Engagement Alerts', newest first, the unread
 * count as a badge ('9+' above 9), refreshed every 30 s (and when another tab changes it).
 * Clicking an alert marks it read and opens the dashboard. A signed-in creator's bell lists what
 * visitors did on the account's sites (asked again as it opens); an anonymous creator's lists this
 * browser's sites, with one 'Sign Up Free' at its foot rather than one on every alert.
 */
import { useCallback, useEffect, useId, useRef, useState, useSyncExternalStore, type JSX } from 'react';
import { NOTIFICATION_BELL_REFRESH_MS, type TLocalNotification, type TNotificationType } from '@dropsite/shared';
import { formatAlertTime } from '@dropsite/shared/browser/relative-time';
import { CheckIcon, CommentIcon, ExpiryClockIcon, FavoriteIcon, NotificationBellIcon } from '../ui/icons.tsx';
import { DASHBOARD_PATH } from '../auth/auth-paths.ts';
import { getNotificationCenter, useCreatorEngagement } from './creator-engagement.ts';
import { countUnread, formatUnreadBadge, type TNotificationCenter } from './notifications.ts';
import { refreshAccountAlerts } from './account-alerts.ts';
import { STORAGE_KEYS, accountNotificationsKey } from './storage-keys.ts';
import { useSession } from '../auth/session-store.ts';
import { readNotificationPermission, requestNotificationPermission, type TNotificationPermission } from './browser-notifications.ts';
import { SignUpLink } from '../auth/sign-up-link.tsx';
import '../ui/meta-line.css';
import './engagement.css';

const TYPE_ICONS: Record<TNotificationType, () => JSX.Element> = {
  comment: () => <CommentIcon size={16} />,
  favorite: () => <FavoriteIcon size={16} />,
  approval: () => <CheckIcon size={16} />,
  expiration_warning: () => <ExpiryClockIcon size={16} />,
};

/** A prerendered page and its hydration show no alerts; the browser's stored ones arrive right after. */
const NO_ITEMS: TLocalNotification[] = [];
const noItems = () => NO_ITEMS;
/** Until the server said who is signed in, the bell shows nobody's alerts. */
const NO_CENTER: Pick<TNotificationCenter, 'subscribe' | 'getSnapshot'> = { subscribe: () => () => {}, getSnapshot: noItems };

export function NotificationBell() {
  const account = useSession();
  const creatorId = account.status === 'signed-in' ? account.creator.id : null;
  const center = getNotificationCenter(creatorId);
  const shown = account.status === 'loading' ? NO_CENTER : center;
  const items = useSyncExternalStore(shown.subscribe, shown.getSnapshot, noItems);
  const creator = useCreatorEngagement();
  const [isOpen, setOpen] = useState(false);
  // Read after the first render: a prerendered page knows no browser's permission, and hydration must match it.
  const [permission, setPermission] = useState<TNotificationPermission>('unsupported');
  useEffect(() => setPermission(readNotificationPermission()), []);
  const [now, setNow] = useState(() => Date.now());
  const panelId = useId();
  const titleId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const unread = countUnread(items);
  const badge = formatUnreadBadge(unread);

  const refresh = useCallback(() => {
    center.read();
    setNow(Date.now());
  }, [center]);

  // Spec 4: the bell refreshes every 30 s; other tabs' changes arrive as storage events.
  useEffect(() => {
    refresh();
    const timer = setInterval(refresh, NOTIFICATION_BELL_REFRESH_MS);
    const onStorage = (event: StorageEvent) => {
      if (event.key === (creatorId === null ? STORAGE_KEYS.notifications : accountNotificationsKey(creatorId))) refresh();
    };
    window.addEventListener('storage', onStorage);
    return () => {
      clearInterval(timer);
      window.removeEventListener('storage', onStorage);
    };
  }, [refresh, creatorId]);

  useEffect(() => {
    if (!isOpen) return;
    refresh();
    // Opening the bell asks the server for what is new on the account's sites.
    if (creatorId !== null) void refreshAccountAlerts(creatorId);
    setPermission(readNotificationPermission());
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [isOpen, refresh, creatorId]);

  const openAlert = (item: TLocalNotification) => {
    center.markRead(item.id);
    window.location.assign(DASHBOARD_PATH);
  };

  const enableNotifications = async () => {
    setPermission(await requestNotificationPermission());
  };

  const isAnonymousCreator = account.status !== 'signed-in' && account.status !== 'loading' && creator.status === 'ready';
  const label = unread > 0 ? `Engagement alerts, ${unread} unread` : 'Engagement alerts';

  return (
    <div ref={root} className="notification-bell">
      <button
        ref={button}
        type="button"
        className="notification-bell__button ui-icon-button"
        aria-expanded={isOpen}
        aria-controls={panelId}
        aria-label={label}
        title="Engagement alerts"
        onClick={() => setOpen((open) => !open)}
      >
        <NotificationBellIcon />
        {badge && (
          <span className="notification-bell__badge" aria-hidden="true" data-wide={badge.length > 1 ? '' : undefined}>
            {badge}
          </span>
        )}
      </button>

      <div id={panelId} className="notification-bell__panel" role="region" aria-labelledby={titleId} hidden={!isOpen}>
        <div className="notification-bell__header">
          <h2 id={titleId} className="notification-bell__title">
            Engagement Alerts
          </h2>
          {items.length > 0 && (
            <button type="button" className="quiet-button notification-bell__text-button" onClick={() => center.clearAll()}>
              Clear All
            </button>
          )}
        </div>

        {items.length === 0 ? (
          <div className="notification-bell__empty">
            <span className="notification-bell__empty-icon" aria-hidden="true">
              <NotificationBellIcon />
            </span>
            <p>No alerts yet</p>
            <p className="notification-bell__empty-text">When visitors favourite, comment on or approve your files, you’ll see it here.</p>
          </div>
        ) : (
          <ul className="notification-bell__list" role="list">
            {items.map((item) => {
              const Icon = TYPE_ICONS[item.type];
              return (
                <li key={item.id}>
                  <button
                    type="button"
                    className="notification-bell__item"
                    data-unread={item.isRead ? undefined : ''}
                    data-urgency={item.urgencyLevel}
                    data-type={item.type}
                    onClick={() => openAlert(item)}
                  >
                    <span className="notification-bell__item-icon ui-tile" aria-hidden="true">
                      <Icon />
                    </span>
                    <span className="notification-bell__item-body">
                      <span className="notification-bell__item-message">{item.message}</span>
                      <span className="meta-line">
                        <time dateTime={new Date(item.timestamp).toISOString()}>{formatAlertTime(item.timestamp, now)}</time>
                      </span>
                    </span>
                    {!item.isRead && <span className="visually-hidden">Unread.</span>}
                  </button>
                </li>
              );
            })}
          </ul>
        )}

        <div className="notification-bell__footer">
          {permission === 'default' && (
            <button type="button" className="button button--secondary notification-bell__footer-button" onClick={() => void enableNotifications()}>
              Enable Notifications
            </button>
          )}
          {permission === 'denied' && <p className="notification-bell__note">Browser notifications are blocked for this site.</p>}
          {(isAnonymousCreator || (account.status === 'signed-out' && creator.status === 'none')) && (
            <SignUpLink className="button button--primary notification-bell__footer-button" />
          )}
        </div>
      </div>
    </div>
  );
}
