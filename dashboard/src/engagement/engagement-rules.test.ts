import { beforeAll, describe, expect, it } from 'vitest';
import { loadSchemas } from '../schemas/lazy-schemas.ts';
import type { TEngagementUpdate, TLocalNotification } from '@dropsite/shared';
import {
  addNotifications,
  countUnread,
  createExpirationWarning,
  createNotificationCenter,
  formatUnreadBadge,
  readNotifications,
  shouldAutoCloseBrowserNotification,
  toLocalNotification,
} from './notifications.ts';
import {
  canShowEmailPrompt,
  chooseAfterPublishTrigger,
  chooseTrigger,
  countViews,
  createEmailPromptMemory,
  isCreatorBusy,
  isEmailValid,
  isPromptPage,
  isReturnVisit,
  type TPromptContext,
} from './email-prompt.ts';
import { formatDaysRemaining, isTeaserVisible, teaserUrgency } from './teaser-rules.ts';
import { accountNotificationsKey, createMemoryStorage, STORAGE_KEYS } from './storage-keys.ts';
import { createCreatorEngagementStore } from './creator-engagement.ts';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 22, 12);

const note = (id: string, timestamp: number, extra: Partial<TLocalNotification> = {}): TLocalNotification => ({
  id,
  type: 'comment',
  message: `m ${id}`,
  ctaText: 'View',
  timestamp,
  isRead: false,
  urgencyLevel: 'medium',
  expiresAt: null,
  ...extra,
});

const update = (id: string, createdAt: number, extra: Partial<TEngagementUpdate> = {}): TEngagementUpdate => ({
  id,
  type: 'favorite',
  project_id: 'p1',
  message: `Someone favourited ${id}`,
  cta_text: 'Sign up to see who',
  urgency_level: 'medium',
  created_at: new Date(createdAt).toISOString(),
  expires_at: null,
  ...extra,
});

/** A clock the test moves by hand. */
function fakeClock(start: number) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('notification list rules', () => {
  it('keeps at most 10, newest first', () => {
    const list = Array.from({ length: 14 }, (_, i) => note(`n${i}`, T0 + i * 1000));
    const shown = readNotifications(list, T0 + HOUR);
    expect(shown).toHaveLength(10);
    expect(shown[0]!.id).toBe('n13');
    expect(shown.at(-1)!.id).toBe('n4');
  });

  it('drops expired entries when read', () => {
    const list = [note('a', T0, { expiresAt: T0 + HOUR }), note('b', T0 + 1)];
    expect(readNotifications(list, T0 + HOUR - 1).map((n) => n.id)).toEqual(['b', 'a']);
    expect(readNotifications(list, T0 + HOUR).map((n) => n.id)).toEqual(['b']);
  });

  it('never adds the same id twice', () => {
    const list = addNotifications([note('a', T0)], [note('a', T0 + 5), note('b', T0 + 1), note('b', T0 + 2)], T0);
    expect(list.map((n) => n.id)).toEqual(['b', 'a']);
  });

  it("shows the unread count, '9+' above 9", () => {
    expect(formatUnreadBadge(0)).toBe('');
    expect(formatUnreadBadge(1)).toBe('1');
    expect(formatUnreadBadge(9)).toBe('9');
    expect(formatUnreadBadge(10)).toBe('9+');
    expect(formatUnreadBadge(250)).toBe('9+');
    expect(countUnread([note('a', 1), note('b', 2, { isRead: true })])).toBe(1);
  });

  it('closes browser notifications by themselves unless urgent', () => {
    expect(shouldAutoCloseBrowserNotification({ urgencyLevel: 'low' })).toBe(true);
    expect(shouldAutoCloseBrowserNotification({ urgencyLevel: 'medium' })).toBe(true);
    expect(shouldAutoCloseBrowserNotification({ urgencyLevel: 'high' })).toBe(false);
  });

  it('turns a server update into a bell entry; a warning without an expiry gets 24 h', () => {
    const entry = toLocalNotification(update('u1', T0), T0 + 10);
    expect(entry).toEqual({
      id: 'u1',
      type: 'favorite',
      message: 'Someone favourited u1',
      ctaText: 'Sign up to see who',
      timestamp: T0,
      isRead: false,
      urgencyLevel: 'medium',
      expiresAt: null,
    });
    const warning = toLocalNotification(update('w', T0, { type: 'expiration_warning', urgency_level: 'high' }), T0 + 10);
    expect(warning.expiresAt).toBe(T0 + 10 + 24 * HOUR);
  });
});

describe('expiration warning (7-day window, warning under 24 h)', () => {
  const expiresAt = T0 + 7 * 24 * HOUR;

  it('is raised only when fewer than 24 hours remain, with high urgency, expiring 24 h later', () => {
    expect(createExpirationWarning('s1', expiresAt, expiresAt - 24 * HOUR)).toBeNull();
    const warning = createExpirationWarning('s1', expiresAt, expiresAt - 23 * HOUR);
    expect(warning).toMatchObject({ type: 'expiration_warning', urgencyLevel: 'high', expiresAt: expiresAt - 23 * HOUR + 24 * HOUR });
    expect(warning!.message).toContain('23 hours');
    expect(createExpirationWarning('s1', expiresAt, expiresAt)).toBeNull();
  });
});

describe('notification center (stored, with fake time)', () => {
  beforeAll(loadSchemas);

  it('adds updates, marks read, clears, and keeps the since cursor so cleared entries stay gone', () => {
    const storage = createMemoryStorage();
    const clock = fakeClock(T0);
    const center = createNotificationCenter(storage, clock.now);
    const added: string[] = [];
    center.onAdded((list) => added.push(...list.map((n) => n.id)));
    let changes = 0;
    center.subscribe(() => changes++);

    expect(center.addUpdates([update('u1', T0 - 2000), update('u2', T0 - 1000)]).map((n) => n.id)).toEqual(['u2', 'u1']);
    expect(center.addUpdates([update('u2', T0 - 1000)])).toEqual([]);
    expect(added).toEqual(['u2', 'u1']);
    expect(center.getSnapshot().map((n) => n.id)).toEqual(['u2', 'u1']);
    expect(center.getCursor()).toBe(new Date(T0 - 1000).toISOString());

    center.markRead('u1');
    expect(center.getSnapshot().find((n) => n.id === 'u1')!.isRead).toBe(true);
    expect(countUnread(center.getSnapshot())).toBe(1);

    center.clearAll();
    expect(center.getSnapshot()).toEqual([]);
    expect(center.getCursor()).toBe(new Date(T0 - 1000).toISOString());
    expect(changes).toBeGreaterThanOrEqual(3);

    // Another center on the same storage (another tab) sees the same state.
    expect(createNotificationCenter(storage, clock.now).read()).toEqual([]);
  });

  it('keeps 10 across polls and forgets expired warnings on the next read', () => {
    const storage = createMemoryStorage();
    const clock = fakeClock(T0);
    const center = createNotificationCenter(storage, clock.now);
    for (let i = 0; i < 12; i++) {
      clock.advance(60_000);
      center.addUpdates([update(`u${i}`, clock.now())]);
    }
    expect(center.read()).toHaveLength(10);
    expect(center.read()[0]!.id).toBe('u11');

    const sessionEnd = clock.now() + 5 * HOUR;
    expect(center.raiseExpirationWarning('s1', sessionEnd)?.urgencyLevel).toBe('high');
    expect(center.read()[0]!.id).toBe('expiration-s1');
    expect(center.read()).toHaveLength(10);
    // Raised once per session, even after it was cleared, and the server's copy of it is the same entry.
    center.clearAll();
    expect(center.raiseExpirationWarning('s1', sessionEnd)).toBeNull();
    expect(center.addUpdates([update('expiration-s1', clock.now(), { type: 'expiration_warning', urgency_level: 'high' })])).toEqual([]);

    clock.advance(HOUR);
    center.addUpdates([update('expiration-s2', clock.now(), { type: 'expiration_warning', urgency_level: 'high', expires_at: new Date(clock.now() + HOUR).toISOString() })]);
    expect(center.read().map((n) => n.id)).toEqual(['expiration-s2']);
    // A warning that came from the server first is not raised again locally.
    expect(center.raiseExpirationWarning('s2', clock.now() + HOUR)).toBeNull();
    clock.advance(HOUR);
    expect(center.read()).toEqual([]);
    const stored = JSON.parse(storage.getItem(STORAGE_KEYS.notifications)!) as { items: unknown[] };
    expect(stored.items).toEqual([]);
  });

  it('keeps an account’s alerts apart from the anonymous creator’s and from another account’s', () => {
    const storage = createMemoryStorage();
    const anonymous = createNotificationCenter(storage, () => T0);
    const ada = createNotificationCenter(storage, () => T0, accountNotificationsKey('ada'));
    anonymous.addUpdates([update('old', T0 - 5000)]);
    ada.addUpdates([update('new', T0 - 1000)]);
    expect(anonymous.read().map((n) => n.id)).toEqual(['old']);
    expect(ada.read().map((n) => n.id)).toEqual(['new']);
    expect(createNotificationCenter(storage, () => T0, accountNotificationsKey('grace')).read()).toEqual([]);
    expect(ada.getCursor()).toBe(new Date(T0 - 1000).toISOString());
  });

  it('survives garbage in storage', () => {
    const storage = createMemoryStorage();
    storage.setItem(STORAGE_KEYS.notifications, '{not json');
    expect(createNotificationCenter(storage, () => T0).read()).toEqual([]);
    storage.setItem(STORAGE_KEYS.notifications, JSON.stringify({ items: [{ id: 1 }], since: 5 }));
    const center = createNotificationCenter(storage, () => T0);
    expect(center.read()).toEqual([]);
    expect(center.getCursor()).toBeNull();
  });
});

describe('email modal rules (spec 4, 5)', () => {
  const context = (over: Partial<TPromptContext> = {}): TPromptContext => ({
    hasSession: true,
    hasEmail: false,
    shownThisSession: new Set(),
    isDismissedThisSession: false,
    ...over,
  });

  it('validates text @ text . text with no spaces', () => {
    for (const ok of ['a@b.co', 'mara.lind@studio.example', ' mara@x.io ', 'x@y.z']) expect(isEmailValid(ok), ok).toBe(true);
    for (const bad of ['', 'mara', 'mara@', 'mara@studio', '@studio.com', 'ma ra@x.io', 'mara@x .io', 'mara@x.', 'a@@b.c', `${'a'.repeat(320)}@b.co`]) {
      expect(isEmailValid(bad), bad).toBe(false);
    }
  });

  it('shows a trigger only with a session, without a stored email, once per session', () => {
    expect(canShowEmailPrompt('high_views', context())).toBe(true);
    expect(canShowEmailPrompt('high_views', context({ hasSession: false }))).toBe(false);
    expect(canShowEmailPrompt('high_views', context({ hasEmail: true }))).toBe(false);
    expect(canShowEmailPrompt('high_views', context({ shownThisSession: new Set(['high_views']) }))).toBe(false);
    expect(canShowEmailPrompt('return_visit', context({ shownThisSession: new Set(['high_views']) }))).toBe(true);
  });

  it('asks nothing more this session once the creator closed or skipped a prompt', () => {
    expect(canShowEmailPrompt('success_page', context({ isDismissedThisSession: true }))).toBe(false);
    expect(chooseTrigger({ summary: { total_interactions: 3 }, totalViews: 20, isReturnVisit: true }, context({ isDismissedThisSession: true }))).toBeNull();
    expect(chooseAfterPublishTrigger(context({ isDismissedThisSession: true }))).toBeNull();
    const session = createMemoryStorage();
    const memory = createEmailPromptMemory(createMemoryStorage(), session);
    expect(memory.readDismissed()).toBe(false);
    memory.markDismissed();
    expect(memory.readDismissed()).toBe(true);
    // A new browser session asks again.
    expect(createEmailPromptMemory(createMemoryStorage(), createMemoryStorage()).readDismissed()).toBe(false);
  });

  it('never prompts on a page that is a form of its own, nor while the creator types or a dialog is open', () => {
    for (const page of ['sign-in', 'reset-password', 'verify-email', 'undo-email-change', 'account', 'billing'] as const) expect(isPromptPage(page), page).toBe(false);
    for (const page of ['landing', 'dashboard', 'project', 'not-found'] as const) expect(isPromptPage(page), page).toBe(true);
    const doc = (tagName: string | null, hasOpenDialog = false) => ({
      activeElement: tagName === null ? null : ({ tagName, isContentEditable: false } as unknown as Element),
      querySelector: ((selector: string) => (selector === 'dialog[open]' && hasOpenDialog ? ({} as Element) : null)) as Document['querySelector'],
    });
    expect(isCreatorBusy(doc('INPUT'))).toBe(true);
    expect(isCreatorBusy(doc('TEXTAREA'))).toBe(true);
    expect(isCreatorBusy(doc('SELECT'))).toBe(true);
    expect(isCreatorBusy(doc('BODY', true))).toBe(true);
    expect(isCreatorBusy(doc('BUTTON'))).toBe(false);
    expect(isCreatorBusy(doc(null))).toBe(false);
  });

  it('fires return_visit only after more than 24 hours', () => {
    expect(isReturnVisit(null, T0)).toBe(false);
    expect(isReturnVisit(T0 - 24 * HOUR, T0)).toBe(false);
    expect(isReturnVisit(T0 - 24 * HOUR - 1, T0)).toBe(true);
  });

  it('fires high_views at 10 views and first_engagement on any interaction, most telling first', () => {
    const facts = { summary: { total_interactions: 0 }, totalViews: 9, isReturnVisit: false };
    expect(chooseTrigger(facts, context())).toBeNull();
    expect(chooseTrigger({ ...facts, totalViews: 10 }, context())).toBe('high_views');
    expect(chooseTrigger({ ...facts, totalViews: 10, summary: { total_interactions: 1 } }, context())).toBe('first_engagement');
    expect(chooseTrigger({ ...facts, totalViews: 10, summary: { total_interactions: 1 } }, context({ shownThisSession: new Set(['first_engagement']) }))).toBe('high_views');
    expect(chooseTrigger({ ...facts, isReturnVisit: true }, context())).toBe('return_visit');
    expect(chooseTrigger({ ...facts, isReturnVisit: true }, context({ hasEmail: true }))).toBeNull();
    expect(countViews([{ views_count: 4 }, { views_count: 6 }])).toBe(10);
  });

  it('asks after a publish with return_visit, then the success-page variant', () => {
    expect(chooseAfterPublishTrigger(context())).toBe('return_visit');
    expect(chooseAfterPublishTrigger(context({ shownThisSession: new Set(['return_visit']) }))).toBe('success_page');
    expect(chooseAfterPublishTrigger(context({ shownThisSession: new Set(['return_visit', 'success_page']) }))).toBeNull();
    expect(chooseAfterPublishTrigger(context({ hasEmail: true }))).toBeNull();
  });

  it('remembers shown triggers for the session and the collected email for good', () => {
    const local = createMemoryStorage();
    const session = createMemoryStorage();
    const memory = createEmailPromptMemory(local, session);
    memory.markShown('high_views');
    memory.markShown('return_visit');
    expect([...memory.readShown()].sort()).toEqual(['high_views', 'return_visit']);
    expect(createEmailPromptMemory(local, createMemoryStorage()).readShown().size).toBe(0);

    expect(memory.readCollectedEmail()).toBeNull();
    memory.storeCollectedEmail({ email: 'mara@studio.example', collected_via: 'high_views', collected_at: T0, project_id: 'p1' });
    expect(createEmailPromptMemory(local, session).readCollectedEmail()?.email).toBe('mara@studio.example');
    local.setItem(STORAGE_KEYS.collectedEmail, JSON.stringify({ email: 'nope', collected_via: 'x' }));
    expect(memory.readCollectedEmail()).toBeNull();

    memory.storeLastVisit(T0);
    expect(memory.readLastVisit()).toBe(T0);
  });
});

describe('teaser card rules', () => {
  it('hides when dismissed, without a session, or with no interactions', () => {
    const summary = { total_interactions: 3, expired: false };
    expect(isTeaserVisible({ isDismissed: false, hasSession: true, summary })).toBe(true);
    expect(isTeaserVisible({ isDismissed: true, hasSession: true, summary })).toBe(false);
    expect(isTeaserVisible({ isDismissed: false, hasSession: false, summary })).toBe(false);
    expect(isTeaserVisible({ isDismissed: false, hasSession: true, summary: { total_interactions: 0, expired: false } })).toBe(false);
    expect(isTeaserVisible({ isDismissed: false, hasSession: true, summary: null })).toBe(false);
  });

  it('colours urgency by days remaining', () => {
    expect(teaserUrgency(0)).toBe('high');
    expect(teaserUrgency(1)).toBe('high');
    expect(teaserUrgency(2)).toBe('medium');
    expect(teaserUrgency(3)).toBe('medium');
    expect(teaserUrgency(4)).toBe('low');
    expect(teaserUrgency(7)).toBe('low');
    expect(formatDaysRemaining(1)).toBe('Last day to keep it');
    expect(formatDaysRemaining(5)).toBe('5 days left');
  });
});

describe('creator engagement store', () => {
  const session = { sessionId: 's1', createdAt: T0, expiresAt: T0 + 7 * 24 * HOUR };
  const summary = { total_interactions: 2, has_comments: true, has_favorites: true, has_approvals: false, days_remaining: 7, expired: false };

  it('knows when there is no anonymous session', async () => {
    const store = createCreatorEngagementStore({ fetchSession: async () => null, fetchSummary: async () => summary, fetchProjects: async () => [] });
    await store.refresh();
    expect(store.getSnapshot()).toEqual({ status: 'none', session: null, summary: null, projects: null });
  });

  it('keeps the last summary when one poll fails', async () => {
    let fail = false;
    const store = createCreatorEngagementStore({
      fetchSession: async () => session,
      fetchSummary: async () => {
        if (fail) throw new Error('offline');
        return summary;
      },
      fetchProjects: async () => [],
    });
    await store.refresh();
    expect(store.getSnapshot().summary?.total_interactions).toBe(2);
    fail = true;
    await store.refresh();
    expect(store.getSnapshot()).toMatchObject({ status: 'ready', summary: { total_interactions: 2 } });
  });
});
