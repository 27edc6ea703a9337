/**
 * The signed-in creator's bell is fed by the account's own updates (GET /api/creators/me/updates):
 * asked when a page opens, every ENGAGEMENT_UPDATES_POLL_MS while it stays open, and when the bell
 * opens. The alerts this browser kept for its anonymous creator are dropped once an account is
 * signed in: its sites, once claimed, report to the account's bell instead.
 */
import { getNotificationCenter } from './creator-engagement.ts';
import { fetchAccountUpdates } from '../dashboard-api/engagement-api.ts';
import { STORAGE_KEYS, resolveStorage } from './storage-keys.ts';

/** One request at a time per account: the bell opening during a poll waits for that poll. */
const running = new Map<string, Promise<void>>();

/** Asks for the account's updates since the last ones and adds them to its bell. A failed ask is asked again next time. */
export function refreshAccountAlerts(creatorId: string): Promise<void> {
  const current = running.get(creatorId);
  if (current) return current;
  const center = getNotificationCenter(creatorId);
  const next = fetchAccountUpdates(center.getCursor())
    .then((updates) => void center.addUpdates(updates))
    .catch(() => {})
    .finally(() => running.delete(creatorId));
  running.set(creatorId, next);
  return next;
}

/** Forgets the anonymous creator's alerts (the account's bell replaces them). */
export function forgetAnonymousAlerts(): void {
  try {
    resolveStorage('local').removeItem(STORAGE_KEYS.notifications);
  } catch {
    // Nothing stored, or storage refused: nothing to forget.
  }
  getNotificationCenter(null).read();
}
