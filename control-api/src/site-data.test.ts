/**
 * A site's data through its whole life, on both dialects: the repositories of engagement and of
 * every area around it (analytics, notifications, access, creators, visitors) on one site, then its
 * removal with everything hanging off it. It spans areas, so it lives with the composition root.
 */
import { beforeAll, expect, it } from 'vitest';
import { newId } from './db/ids.ts';
import { createSiteWithFiles } from './site-records/site-records.repository.ts';
import { describeEachDialect, makeFileRow, makeSiteRow, statementCounter } from '@dropsite/testkit/control-api/test-database';
import {
  countTraffic,
  hasViewSince,
  insertAnalyticsEvent,
  insertProductEvent,
  countProductEvents,
  listRecentActivity,
  countPageViewsBySite,
} from './analytics/analytics.repository.ts';
import { claimBatch, findDueBatches, insertNotifications, listNotificationsOfSite, releaseBatch } from './notifications/notifications.repository.ts';
import { deleteSiteRow, isContentHashUsedElsewhere, listContentHashesOfSite, listSitesExpiredBefore, setSitePasswordHash } from './access/access.repository.ts';
import {
  findAnonymousSession,
  insertAnonymousSession,
  insertEmailCollection,
  listEmailCollections,
  listSitesOfAnonymousSession,
} from './creators/anonymous-sessions.repository.ts';
import { findVisitorById, insertVisitorIfMissing } from './visitors/visitors.repository.ts';
import { loadCookieKeys, readOrCreateSecret } from './access/server-secret.ts';
import { loadConfig } from './config/config.ts';
import {
  addFavorite,
  addFavoriteCounted,
  createFavoriteWriter,
  countCommentsByFile,
  countEngagement,
  countEngagementBySite,
  countFavoritesOfFile,
  findSiteAndFile,
  findCommentOfFile,
  findFileOfSite,
  insertComment,
  listCommentThreads,
  listRecentEngagement,
  listVisitorApprovals,
  listVisitorFavorites,
  removeFavorite,
  removeFavoriteCounted,
  upsertApproval,
} from './engagement/engagement.repository.ts';

const NOW = 1_763_900_000_000;

await describeEachDialect('engagement data', (handle, dialect) => {
  const site = makeSiteRow({ anonymous_session_id: 'anon-session-1', expires_at: NOW + 1000 });
  const other = makeSiteRow();
  const files = [makeFileRow(site.id, 0, { sha256: 'b'.repeat(64) }), makeFileRow(site.id, 1, { sha256: 'c'.repeat(64) })];
  const otherFile = makeFileRow(other.id, 0, { sha256: 'b'.repeat(64) });
  const fileId = files[0]!.id;

  beforeAll(async () => {
    await createSiteWithFiles(
      handle.db,
      site,
      files.map(({ project_id: _p, ...f }) => f),
    );
    await createSiteWithFiles(
      handle.db,
      other,
      [otherFile].map(({ project_id: _p, ...f }) => f),
    );
  });

  it('finds a file only on its own site', async () => {
    expect(await findFileOfSite(handle.db, site.id, fileId)).toMatchObject({ id: fileId, name: files[0]!.name });
    expect(await findFileOfSite(handle.db, other.id, fileId)).toBeNull();
  });

  it('keeps one favourite per file and visitor, however often it is added', async () => {
    const add = (visitorId: string) => addFavorite(handle.db, { id: newId(), siteId: site.id, fileId, visitorId, userName: 'User 1', now: NOW });
    const results = await Promise.all([add('v1'), add('v1'), add('v1'), add('v2')]);
    expect(results.filter(Boolean)).toHaveLength(2);
    expect(await countFavoritesOfFile(handle.db, fileId)).toBe(2);
    expect(await listVisitorFavorites(handle.db, site.id, 'v1')).toEqual([fileId]);
    expect(await removeFavorite(handle.db, fileId, 'v1')).toBe(true);
    expect(await removeFavorite(handle.db, fileId, 'v1')).toBe(false);
    expect(await countFavoritesOfFile(handle.db, fileId)).toBe(1);
  });

  it('answers the count after adding or removing a favourite, in one call, however often it is repeated', async () => {
    const file = files[1]!.id;
    const add = (visitorId: string) => addFavoriteCounted(handle.db, { id: newId(), siteId: site.id, fileId: file, visitorId, userName: 'User 1', now: NOW });
    expect(await add('c1')).toEqual({ changed: true, favoritesCount: 1 });
    expect(await add('c1')).toEqual({ changed: false, favoritesCount: 1 });
    expect(await add('c2')).toEqual({ changed: true, favoritesCount: 2 });
    expect(await removeFavoriteCounted(handle.db, file, 'c1')).toEqual({ changed: true, favoritesCount: 1 });
    expect(await removeFavoriteCounted(handle.db, file, 'c1')).toEqual({ changed: false, favoritesCount: 1 });
    expect(await countFavoritesOfFile(handle.db, file)).toBe(1);
    expect(await removeFavoriteCounted(handle.db, file, 'c2')).toEqual({ changed: true, favoritesCount: 0 });
  });

  it('makes the favourite changes of one turn together, each answered as if made alone', async () => {
    const file = files[1]!.id;
    const counting = statementCounter();
    const writer = createFavoriteWriter(handle.db.withPlugin(counting.plugin));
    const add = (visitorId: string) => writer.add({ id: newId(), siteId: site.id, fileId: file, visitorId, userName: 'User 1', now: NOW });
    const added = await Promise.all([add('t1'), add('t2'), add('t1'), add('t3')]);
    expect(added.map((change) => change.changed)).toEqual([true, true, false, true]);
    expect(Math.max(...added.map((change) => change.favoritesCount))).toBe(3);
    expect(await countFavoritesOfFile(handle.db, file)).toBe(3);
    if (dialect === 'postgres') {
      // One statement for the turn, each change counted after all of it.
      expect(counting.count()).toBe(1);
      expect(added.map((change) => change.favoritesCount)).toEqual([3, 3, 3, 3]);
    }
    const removed = await Promise.all([writer.remove(file, 't1'), writer.remove(file, 't1'), writer.remove(file, 'nobody'), writer.remove(file, 't2')]);
    expect(removed.map((change) => change.changed)).toEqual([true, false, false, true]);
    expect(Math.min(...removed.map((change) => change.favoritesCount))).toBe(1);
    if (dialect === 'postgres') {
      expect(counting.count()).toBe(2);
      expect(removed.map((change) => change.favoritesCount)).toEqual([1, 1, 1, 1]);
    }
    expect(await listVisitorFavorites(handle.db, site.id, 't3')).toEqual([file]);
    expect(await writer.remove(file, 't3')).toEqual({ changed: true, favoritesCount: 0 });
  });

  it('makes the additions and removals of one turn in one statement, each answer agreeing with the rows left', async () => {
    const file = files[1]!.id;
    const counting = statementCounter();
    const writer = createFavoriteWriter(handle.db.withPlugin(counting.plugin));
    const add = (visitorId: string) => writer.add({ id: newId(), siteId: site.id, fileId: file, visitorId, userName: 'User 1', now: NOW });
    const has = async (visitorId: string) => (await listVisitorFavorites(handle.db, site.id, visitorId)).length;
    await add('m1');
    const before = counting.count();
    const mixed = await Promise.all([add('m2'), writer.remove(file, 'm1'), add('m2'), writer.remove(file, 'nobody')]);
    expect(mixed.map((change) => change.changed)).toEqual([true, true, false, false]);
    if (dialect === 'postgres') {
      expect(counting.count() - before).toBe(1);
      expect(mixed.map((change) => change.favoritesCount)).toEqual([1, 1, 1, 1]);
    }
    expect([await has('m1'), await has('m2')]).toEqual([0, 1]);

    // The same favourite added and removed at once, absent and present before: whichever went first,
    // the answers say what happened to the row, and the last count is the file's.
    for (const visitorId of ['m3', 'm2']) {
      const was = await has(visitorId);
      const [on, off] = await Promise.all([add(visitorId), writer.remove(file, visitorId)]);
      expect(await has(visitorId)).toBe(was + (on.changed ? 1 : 0) - (off.changed ? 1 : 0));
      expect(on.changed || off.changed).toBe(true);
      expect(off.favoritesCount).toBe(await countFavoritesOfFile(handle.db, file));
    }
    for (const visitorId of ['m2', 'm3']) await writer.remove(file, visitorId);
    expect(await countFavoritesOfFile(handle.db, file)).toBe(0);
  });

  it('finds a site with one of its files, never the file of another site', async () => {
    expect(await findSiteAndFile(handle.db, site.id, fileId)).toMatchObject({
      site: { id: site.id },
      file: { id: fileId, project_id: site.id, name: files[0]!.name },
    });
    expect(await findSiteAndFile(handle.db, other.id, fileId)).toMatchObject({ site: { id: other.id }, file: null });
    expect(await findSiteAndFile(handle.db, site.id, null)).toMatchObject({ site: { id: site.id }, file: null });
    expect(await findSiteAndFile(handle.db, 'no-such-site', fileId)).toBeNull();
  });

  it('upserts approvals: one row per file and visitor even under concurrent writes, the last write wins', async () => {
    const set = (visitorId: string, status: 'approved' | 'rejected' | 'pending', now: number) =>
      upsertApproval(handle.db, { id: newId(), siteId: site.id, fileId, visitorId, userName: 'User', status, now });
    const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => set(i % 2 ? 'a1' : 'a2', i % 3 === 0 ? 'approved' : 'rejected', NOW + i)));
    expect(burst).toHaveLength(30);
    const rows = await handle.db.selectFrom('approvals').select('visitor_id').where('file_id', '=', fileId).execute();
    expect(rows.map((r) => r.visitor_id).sort()).toEqual(['a1', 'a2']);
    const last = await set('a1', 'pending', NOW + 100);
    expect(last).toMatchObject({ status: 'pending', updated_at: NOW + 100 });
    expect(await listVisitorApprovals(handle.db, site.id, 'a1')).toEqual([{ fileId, status: 'pending' }]);
    expect((await countEngagement(handle.db, { siteId: site.id })).approvals).toMatchObject({ pending: 1 });
  });

  it('stores comments as text and lists threads', async () => {
    const comment = (id: string, parent: string | null, body: string, at: number) =>
      insertComment(handle.db, { id, project_id: site.id, file_id: fileId, parent_id: parent, visitor_id: 'v1', user_name: 'User v1', body, created_at: at });
    const root = newId();
    const second = newId();
    await comment(root, null, '<b>bold?</b> 👩‍👩‍👧', NOW);
    await comment(newId(), root, 'reply', NOW + 1);
    await comment(second, null, 'second thread', NOW + 2);
    const { roots, replies, total } = await listCommentThreads(handle.db, fileId, 10);
    expect(roots.map((r) => r.body)).toEqual(['<b>bold?</b> 👩‍👩‍👧', 'second thread']);
    expect(replies.map((r) => [r.body, r.parent_id])).toEqual([['reply', root]]);
    expect(total).toBe(3);
    expect((await listCommentThreads(handle.db, fileId, 1)).roots.map((r) => r.id)).toEqual([second]);
    expect(await findCommentOfFile(handle.db, fileId, root)).toMatchObject({ body: '<b>bold?</b> 👩‍👩‍👧' });
    expect(await findCommentOfFile(handle.db, files[1]!.id, root)).toBeNull();
    expect(await countCommentsByFile(handle.db, site.id)).toEqual({ [fileId]: 3 });
    expect(await countEngagementBySite(handle.db, [site.id, other.id])).toEqual(
      new Map([
        [site.id, { favorites: 1, comments: 3, approvals: 2 }],
        [other.id, { favorites: 0, comments: 0, approvals: 0 }],
      ]),
    );
  });

  it('lists recent engagement from its own rows, newest first, across sites and since a time', async () => {
    const recent = await listRecentEngagement(handle.db, { siteIds: [site.id, other.id] }, 4);
    expect(recent).toHaveLength(4);
    expect([recent[0]!.kind, recent[0]!.at]).toEqual(['approval', NOW + 100]);
    expect(recent.map((r) => r.at)).toEqual([...recent.map((r) => r.at)].sort((a, b) => b - a));
    expect(recent.filter((r) => r.kind === 'comment').map((r) => r.at)).toEqual(expect.arrayContaining([NOW + 2]));
    expect(recent[0]).toMatchObject({ kind: 'approval', status: 'pending', fileName: files[0]!.name, userName: 'User', siteId: site.id });
    expect(recent[0]!.eventId).toMatch(/^approval-.+-\d+$/);
    expect(recent.find((r) => r.kind === 'comment')).toMatchObject({ text: 'second thread' });
    expect((await listRecentEngagement(handle.db, { siteIds: [site.id], since: NOW + 2 }, 10)).every((r) => r.kind === 'approval' && r.at > NOW + 2)).toBe(true);
    expect(await listRecentEngagement(handle.db, { siteIds: [other.id] }, 10)).toEqual([]);
    expect(await listRecentEngagement(handle.db, { siteIds: [site.id], fileId: files[1]!.id }, 10)).toEqual([]);
    expect(await listRecentEngagement(handle.db, { siteIds: [] }, 10)).toEqual([]);
  });

  it('counts traffic, deduplicates views and lists recent activity newest first', async () => {
    const event = (type: 'view' | 'download', visitorId: string | null, at: number, file: string | null = null) =>
      insertAnalyticsEvent(handle.db, { id: newId(), siteId: site.id, fileId: file, visitorId, type, details: `${type} ${at}`, now: at });
    await event('view', 'v1', NOW);
    await event('view', 'v2', NOW + 10);
    await event('view', 'v1', NOW + 20, fileId);
    await event('download', 'v1', NOW + 30, fileId);
    await event('download', null, NOW + 40);
    expect(await countTraffic(handle.db, { siteId: site.id })).toEqual({ views: 2, downloads: 2, uniqueVisitors: 2 });
    expect(await countTraffic(handle.db, { siteId: site.id, fileId })).toEqual({ views: 1, downloads: 1, uniqueVisitors: 1 });
    expect(await hasViewSince(handle.db, { siteId: site.id, fileId: null, visitorId: 'v1', since: NOW - 1 })).toBe(true);
    expect(await hasViewSince(handle.db, { siteId: site.id, fileId: null, visitorId: 'v1', since: NOW })).toBe(false);
    expect(await hasViewSince(handle.db, { siteId: site.id, fileId, visitorId: 'v2', since: 0 })).toBe(false);
    expect((await listRecentActivity(handle.db, { siteId: site.id }, 3)).map((r) => r.details)).toEqual([`download ${NOW + 40}`, `download ${NOW + 30}`, `view ${NOW + 20}`]);
    expect(await countPageViewsBySite(handle.db, [site.id, other.id])).toEqual(new Map([[site.id, 2]]));
    await insertProductEvent(handle.db, {
      id: newId(),
      name: 'email_collected',
      trigger: 'high_views',
      siteId: site.id,
      visitorId: null,
      anonymousSessionId: null,
      now: NOW,
    });
    expect(await countProductEvents(handle.db, 'email_collected')).toBe(1);
  });

  it('claims a batch of notifications once, even when two dispatchers race', async () => {
    const base = {
      siteId: site.id,
      creatorId: null,
      anonymousSessionId: 'anon-session-1',
      type: 'favorite' as const,
      message: 'm',
      ctaText: 'Sign Up Free',
      urgency: 'low' as const,
    };
    await insertNotifications(handle.db, [
      { ...base, id: newId(), channel: 'email', now: NOW },
      { ...base, id: newId(), channel: 'email', now: NOW + 5 },
      { ...base, id: newId(), channel: 'in_app', now: NOW + 5 },
      { ...base, id: newId(), channel: 'slack', now: NOW + 50 },
    ]);
    expect(await findDueBatches(handle.db, NOW + 10)).toEqual([{ siteId: site.id, channel: 'email', firstAt: NOW }]);
    const [a, b] = await Promise.all([
      claimBatch(handle.db, { siteId: site.id, channel: 'email', now: NOW + 60 }),
      claimBatch(handle.db, { siteId: site.id, channel: 'email', now: NOW + 60 }),
    ]);
    expect(a.length + b.length).toBe(2);
    expect(Math.min(a.length, b.length)).toBe(0);
    const claimed = a.length ? a : b;
    await releaseBatch(
      handle.db,
      claimed.map((c) => c.id),
      'SMTP down',
      2,
    );
    expect((await listNotificationsOfSite(handle.db, site.id)).filter((n) => n.channel === 'email').map((n) => [n.sent_at, n.attempts])).toEqual([
      [null, 1],
      [null, 1],
    ]);
    const again = await claimBatch(handle.db, { siteId: site.id, channel: 'email', now: NOW + 70 });
    await releaseBatch(
      handle.db,
      again.map((c) => c.id),
      'SMTP down',
      2,
    );
    // Given up after the last attempt: stays stamped, never sent again.
    expect((await listNotificationsOfSite(handle.db, site.id)).filter((n) => n.channel === 'email').map((n) => [n.sent_at, n.attempts])).toEqual([
      [NOW + 70, 2],
      [NOW + 70, 2],
    ]);
  });

  it('bumps the password version with each change and finds expired sites and shared content', async () => {
    expect(await setSitePasswordHash(handle.db, site.id, 'scrypt$x', NOW)).toBe(true);
    expect(await setSitePasswordHash(handle.db, site.id, null, NOW)).toBe(true);
    const row = await handle.db.selectFrom('projects').select(['password_hash', 'password_version']).where('id', '=', site.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ password_hash: null, password_version: 2 });
    expect(await listSitesExpiredBefore(handle.db, NOW + 999, 10)).toEqual([]);
    expect(await listSitesExpiredBefore(handle.db, NOW + 1000, 10)).toEqual([{ id: site.id, slug: site.slug }]);
    expect((await listContentHashesOfSite(handle.db, site.id)).sort()).toEqual(['b'.repeat(64), 'c'.repeat(64)]);
    expect(await isContentHashUsedElsewhere(handle.db, 'b'.repeat(64), site.id)).toBe(true);
    expect(await isContentHashUsedElsewhere(handle.db, 'c'.repeat(64), site.id)).toBe(false);
  });

  it('keeps anonymous sessions, visitors, collected emails and the cookie key', async () => {
    await insertAnonymousSession(handle.db, { id: 'anon-session-1', secret_hash: 'f'.repeat(64), created_at: NOW, expires_at: NOW + 7 });
    expect(await findAnonymousSession(handle.db, 'anon-session-1')).toMatchObject({ secret_hash: 'f'.repeat(64), claimed_by: null });
    expect((await listSitesOfAnonymousSession(handle.db, 'anon-session-1')).map((p) => p.id)).toEqual([site.id]);
    await Promise.all([insertVisitorIfMissing(handle.db, 'visitor-1', NOW), insertVisitorIfMissing(handle.db, 'visitor-1', NOW)]);
    await insertVisitorIfMissing(handle.db, 'visitor-1', NOW + 1);
    expect(await findVisitorById(handle.db, 'visitor-1')).toEqual({ id: 'visitor-1', created_at: NOW });
    await insertEmailCollection(handle.db, { id: newId(), email: 'a@b.co', trigger: 'success_page', siteId: site.id, anonymousSessionId: 'anon-session-1', now: NOW });
    expect(await listEmailCollections(handle.db)).toEqual([{ email: 'a@b.co', trigger: 'success_page', project_id: site.id, anonymous_session_id: 'anon-session-1' }]);

    // Two processes starting at once agree on one key.
    const [s1, s2] = await Promise.all([readOrCreateSecret(handle.db, NOW), readOrCreateSecret(handle.db, NOW + 1)]);
    expect(s1.equals(s2)).toBe(true);
    expect(s1.length).toBe(32);
    const keys = await loadCookieKeys({ db: handle.db, config: loadConfig({}), clock: { now: () => NOW } });
    expect(keys.unlock.equals(keys.visitor)).toBe(false);
    expect(keys.unlock.symmetricKeySize).toBe(32);
    const stored = await handle.db.selectFrom('server_secrets').select('name').execute();
    expect(stored).toEqual([{ name: 'cookie-key' }]);
  });

  it('removes a site with everything hanging off it', async () => {
    await deleteSiteRow(handle.db, site.id, Date.now());
    for (const table of ['files', 'favorites', 'comments', 'approvals', 'analytics_events', 'notifications'] as const) {
      expect(await handle.db.selectFrom(table).select('id').where('project_id', '=', site.id).execute(), table).toEqual([]);
    }
    for (const table of ['analytics_daily', 'analytics_totals', 'analytics_visitor_days', 'analytics_visitors'] as const) {
      expect(await handle.db.selectFrom(table).select('scope').where('project_id', '=', site.id).execute(), table).toEqual([]);
    }
    // A collected email is a lead in its own right: it stays, without the site.
    expect((await listEmailCollections(handle.db))[0]).toMatchObject({ project_id: null });
  });
});
