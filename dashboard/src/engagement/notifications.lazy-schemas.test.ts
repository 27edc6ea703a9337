/**
 * The bell's stored list is checked with a schema that loads only when needed (a first visit never
 * downloads zod). Until it has loaded, a stored list is not lost: it shows once the schema is in,
 * and a change made meanwhile applies to it instead of writing over it.
 */
import { describe, expect, it } from 'vitest';
import type { TLocalNotification } from '@dropsite/shared';
import { loadSchemas } from '../schemas/lazy-schemas.ts';
import { createNotificationCenter } from './notifications.ts';
import { createMemoryStorage, STORAGE_KEYS } from './storage-keys.ts';

const T0 = Date.UTC(2026, 10, 22, 12);

const note = (id: string, isRead = false): TLocalNotification => ({
  id,
  type: 'comment',
  message: `Someone commented (${id})`,
  ctaText: 'View',
  timestamp: T0 - 1000,
  isRead,
  urgencyLevel: 'medium',
  expiresAt: null,
});

describe('a stored bell list read before its schema has loaded', () => {
  it('shows once the schema is in, and a change made meanwhile is applied to it, not written over it', async () => {
    // Nothing in this file has loaded the schemas yet.
    const storage = createMemoryStorage();
    storage.setItem(STORAGE_KEYS.notifications, JSON.stringify({ items: [note('a'), note('b')], since: '2026-11-22T11:59:59.000Z', raisedWarnings: [] }));

    const center = createNotificationCenter(storage, () => T0);
    let changes = 0;
    center.subscribe(() => changes++);
    // Not readable yet: nothing shown, nothing overwritten.
    expect(center.getSnapshot()).toEqual([]);
    center.markRead('a');
    expect(JSON.parse(storage.getItem(STORAGE_KEYS.notifications)!).items).toHaveLength(2);

    await loadSchemas();
    await Promise.resolve();
    const shown = center.getSnapshot();
    expect(shown.map((n) => n.id)).toEqual(['a', 'b']);
    expect(shown.find((n) => n.id === 'a')!.isRead).toBe(true);
    expect(changes).toBeGreaterThan(0);
    expect(center.getCursor()).toBe('2026-11-22T11:59:59.000Z');
  });
});
