/**
 * Browser storage keys of the creator's engagement loop (spec 3 'Browser storage keys'). The
 * visitor and anonymous-creator session ids are not here: the server keeps them in HttpOnly
 * cookies (design decision 4) and the dashboard asks for its own session id instead. Theme and
 * hero layout belong to the published site. The spec's separate 'email triggers' key is not
 * needed: a trigger is a rule evaluated on the spot, and the shown flags below are its memory.
 */
export const STORAGE_KEYS = {
  /** localStorage: the email the creator gave (TCollectedEmailRecord). */
  collectedEmail: 'dropsite.collectedEmail',
  /** sessionStorage: the email-modal triggers already shown this browser session (its 'modal-shown flags'). */
  emailModalShown: 'dropsite.emailModalShown',
  /** localStorage: epoch ms of the creator's last visit. */
  lastVisit: 'dropsite.lastVisit',
  /** localStorage: the bell's notifications and its updates cursor (TStoredNotifications). */
  notifications: 'dropsite.notifications',
  /** localStorage prefix: a signed-in account's bell, `${accountNotifications}.${creatorId}` (see accountNotificationsKey). */
  accountNotifications: 'dropsite.accountNotifications',
  /** sessionStorage: true once the creator closed or skipped an email prompt: no other asks this browser session. */
  emailPromptDismissed: 'dropsite.emailPromptDismissed',
  /** localStorage: '1' once 'Maybe Later' dismissed the teaser card. */
  teaserDismissed: 'dropsite.teaserDismissed',
} as const;

/** Where a signed-in account's bell keeps its list in this browser. */
export function accountNotificationsKey(creatorId: string): string {
  return `${STORAGE_KEYS.accountNotifications}.${creatorId}`;
}

/** The subset of the Web Storage API we use, so tests can pass a Map-backed one. */
export type TKeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** A storage that forgets everything: used when the browser refuses storage (private modes, quotas). */
export function createMemoryStorage(): TKeyValueStorage {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, String(value)),
    removeItem: (key) => void items.delete(key),
  };
}

/** window.localStorage / sessionStorage when usable, else an in-memory stand-in. */
export function resolveStorage(kind: 'local' | 'session'): TKeyValueStorage {
  try {
    const storage = kind === 'local' ? window.localStorage : window.sessionStorage;
    const probe = '__dropsite_probe__';
    storage.setItem(probe, '1');
    storage.removeItem(probe);
    return storage;
  } catch {
    return createMemoryStorage();
  }
}

/** Reads JSON from storage; anything unreadable counts as absent. */
export function readJson(storage: TKeyValueStorage, key: string): unknown {
  try {
    const text = storage.getItem(key);
    return text === null ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

export function writeJson(storage: TKeyValueStorage, key: string, value: unknown): void {
  try {
    storage.setItem(key, JSON.stringify(value));
  } catch {
    // A full or refused storage only costs the creator the memory of it, not the feature.
  }
}
