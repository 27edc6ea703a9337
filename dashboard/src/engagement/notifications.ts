/**
 * The bell's notifications (spec 3 'Local notification', spec 4 'Notifications'): newest first,
 * at most NOTIFICATIONS_KEPT, expired entries dropped on read, clicking marks read. The rules are
 * pure functions of (list, now); `createNotificationCenter` keeps the list in browser storage and
 * tells subscribers (the bell, the browser-notification sender) about changes.
 */
import { ANONYMOUS_WARNING_HOURS, EXPIRATION_WARNING_TTL_MS, NOTIFICATIONS_KEPT, type TEngagementUpdate, type TLocalNotification } from '@dropsite/shared';
import type { z } from 'zod';
import { loadSchemas, loadedSchemas } from '../schemas/lazy-schemas.ts';
import type { TSchemas } from '../schemas/lazy-schemas.ts';
import { STORAGE_KEYS, readJson, writeJson, type TKeyValueStorage } from './storage-keys.ts';

/** Whether an entry is past its expiry at `now`. */
export function isExpired(notification: TLocalNotification, now: number): boolean {
  return notification.expiresAt !== null && notification.expiresAt <= now;
}

/** The list as the bell shows it: unexpired, newest first, at most NOTIFICATIONS_KEPT. */
export function readNotifications(list: readonly TLocalNotification[], now: number): TLocalNotification[] {
  return list
    .filter((n) => !isExpired(n, now))
    .sort((a, b) => b.timestamp - a.timestamp || a.id.localeCompare(b.id))
    .slice(0, NOTIFICATIONS_KEPT);
}

/** Adds entries (an id already present is not added twice) and applies the list rules. */
export function addNotifications(list: readonly TLocalNotification[], incoming: readonly TLocalNotification[], now: number): TLocalNotification[] {
  const known = new Set(list.map((n) => n.id));
  const fresh = incoming.filter((n) => {
    if (known.has(n.id)) return false;
    known.add(n.id);
    return true;
  });
  return readNotifications([...list, ...fresh], now);
}

export function markNotificationRead(list: readonly TLocalNotification[], id: string): TLocalNotification[] {
  return list.map((n) => (n.id === id && !n.isRead ? { ...n, isRead: true } : n));
}

export function countUnread(list: readonly TLocalNotification[]): number {
  return list.filter((n) => !n.isRead).length;
}

/** The badge text: nothing at 0, the count up to 9, then '9+'. */
export function formatUnreadBadge(count: number): string {
  if (count <= 0) return '';
  return count > 9 ? '9+' : String(count);
}

/** A server update (spec 3 'Engagement update') as a bell entry. */
export function toLocalNotification(update: TEngagementUpdate, now: number): TLocalNotification {
  const created = Date.parse(update.created_at);
  const expires = update.expires_at === null ? null : Date.parse(update.expires_at);
  return {
    id: update.id,
    type: update.type,
    message: update.message,
    ctaText: update.cta_text,
    timestamp: Number.isFinite(created) ? created : now,
    isRead: false,
    urgencyLevel: update.urgency_level,
    expiresAt:
      update.type === 'expiration_warning'
        ? Number.isFinite(expires) && expires !== null
          ? expires
          : now + EXPIRATION_WARNING_TTL_MS
        : expires !== null && Number.isFinite(expires)
          ? expires
          : null,
  };
}

/**
 * The expiration warning (companion spec 4): raised, with high urgency, once fewer than
 * ANONYMOUS_WARNING_HOURS remain of the anonymous window; it expires 24 hours after it was raised.
 * Null while there is more time, or once the window has closed.
 */
export function createExpirationWarning(sessionId: string, sessionExpiresAt: number, now: number): TLocalNotification | null {
  const remaining = sessionExpiresAt - now;
  if (remaining <= 0 || remaining >= ANONYMOUS_WARNING_HOURS * 3_600_000) return null;
  const hours = Math.max(1, Math.ceil(remaining / 3_600_000));
  return {
    id: expirationWarningId(sessionId),
    type: 'expiration_warning',
    message: `In ${hours} ${hours === 1 ? 'hour' : 'hours'} this browser stops showing your sites’ activity. Sign up free to keep following it.`,
    ctaText: 'Sign Up Free',
    timestamp: now,
    isRead: false,
    urgencyLevel: 'high',
    expiresAt: now + EXPIRATION_WARNING_TTL_MS,
  };
}

/** The server names its warning for a session the same way, so the two are one entry. */
export function expirationWarningId(sessionId: string): string {
  return `expiration-${sessionId}`;
}

/** Spec 4: browser notifications close by themselves after 10 s unless their urgency is high. */
export function shouldAutoCloseBrowserNotification(notification: Pick<TLocalNotification, 'urgencyLevel'>): boolean {
  return notification.urgencyLevel !== 'high';
}

// ---- the stored list

export type TStoredNotifications = z.infer<TSchemas['ZStoredNotificationsSchema']>;

const EMPTY: TStoredNotifications = { items: [], since: null, raisedWarnings: [] };

export interface TNotificationCenter {
  /** The list as shown: re-read from storage (other tabs write too), expired entries dropped. */
  read(): TLocalNotification[];
  getSnapshot(): TLocalNotification[];
  subscribe(listener: () => void): () => void;
  /** Adds server updates; answers the entries that were new. */
  addUpdates(updates: readonly TEngagementUpdate[]): TLocalNotification[];
  /** Raises the expiration warning once per session; answers it when it was raised now. */
  raiseExpirationWarning(sessionId: string, sessionExpiresAt: number): TLocalNotification | null;
  markRead(id: string): void;
  clearAll(): void;
  /** The `since` cursor for the next updates poll. */
  getCursor(): string | null;
  /** Listens for entries added by this tab (for browser notifications). */
  onAdded(listener: (added: TLocalNotification[]) => void): () => void;
}

/**
 * `key` names the list: the anonymous creator's (STORAGE_KEYS.notifications) or a signed-in account's
 * (accountNotificationsKey), so one account never sees what another, or this browser's anonymous
 * creator, was told.
 */
export function createNotificationCenter(storage: TKeyValueStorage, now: () => number, key: string = STORAGE_KEYS.notifications): TNotificationCenter {
  const listeners = new Set<() => void>();
  const addedListeners = new Set<(added: TLocalNotification[]) => void>();
  let snapshot: TLocalNotification[] = [];

  /** The stored list, or null while a stored one waits for its schema to load (it is read again then). */
  const loadIfReadable = (): TStoredNotifications | null => {
    const stored = readJson(storage, key);
    if (stored === null) return EMPTY;
    const schemas = loadedSchemas();
    if (!schemas) return null;
    const parsed = schemas.ZStoredNotificationsSchema.safeParse(stored);
    return parsed.success ? parsed.data : EMPTY;
  };
  const load = (): TStoredNotifications => loadIfReadable() ?? EMPTY;
  /** Runs a change once the stored list can be read, so a change never writes over a list not yet read. */
  const change = (apply: (state: TStoredNotifications) => void) => {
    const state = loadIfReadable();
    if (state) apply(state);
    else void loadSchemas().then(() => apply(load()));
  };

  const save = (state: TStoredNotifications) => {
    writeJson(storage, key, state);
    publish(state.items);
  };

  const publish = (items: TLocalNotification[]) => {
    const same = items.length === snapshot.length && items.every((n, i) => n.id === snapshot[i]?.id && n.isRead === snapshot[i]?.isRead);
    if (same) return;
    snapshot = items;
    for (const listener of listeners) listener();
  };

  const read = () => {
    const state = load();
    const items = readNotifications(state.items, now());
    // Dropping expired entries on read is a rule, so the stored list forgets them too.
    if (items.length !== state.items.length) writeJson(storage, key, { ...state, items });
    publish(items);
    return snapshot;
  };

  const emitAdded = (added: TLocalNotification[]) => {
    if (added.length === 0) return;
    for (const listener of addedListeners) listener(added);
  };

  snapshot = readNotifications(load().items, now());
  if (loadIfReadable() === null) void loadSchemas().then(() => read());

  const center: TNotificationCenter = {
    read,
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    addUpdates(updates) {
      if (updates.length === 0) return [];
      const state = loadIfReadable();
      // Updates come from a reply that loaded the schemas, so this only waits in theory: they are added then.
      if (!state) {
        change(() => center.addUpdates(updates));
        return [];
      }
      const t = now();
      const raised = new Set(state.raisedWarnings);
      const incoming = updates.filter((u) => u.type !== 'expiration_warning' || !raised.has(u.id)).map((u) => toLocalNotification(u, t));
      for (const n of incoming) if (n.type === 'expiration_warning') raised.add(n.id);
      const before = new Set(state.items.map((n) => n.id));
      const items = addNotifications(state.items, incoming, t);
      const newest = updates.reduce<string | null>((max, u) => (max === null || Date.parse(u.created_at) > Date.parse(max) ? u.created_at : max), state.since);
      save({ ...state, items, since: newest, raisedWarnings: [...raised].slice(-20) });
      const added = items.filter((n) => !before.has(n.id));
      emitAdded(added);
      return added;
    },
    raiseExpirationWarning(sessionId, sessionExpiresAt) {
      const state = loadIfReadable();
      if (!state) {
        change(() => center.raiseExpirationWarning(sessionId, sessionExpiresAt));
        return null;
      }
      if (state.raisedWarnings.includes(expirationWarningId(sessionId))) return null;
      const warning = createExpirationWarning(sessionId, sessionExpiresAt, now());
      if (!warning) return null;
      save({ ...state, items: addNotifications(state.items, [warning], now()), raisedWarnings: [...state.raisedWarnings, warning.id].slice(-20) });
      emitAdded([warning]);
      return warning;
    },
    markRead(id) {
      change((state) => save({ ...state, items: readNotifications(markNotificationRead(state.items, id), now()) }));
    },
    clearAll() {
      change((state) => save({ ...state, items: [] }));
    },
    getCursor: () => load().since,
    onAdded(listener) {
      addedListeners.add(listener);
      return () => addedListeners.delete(listener);
    },
  };
  return center;
}
