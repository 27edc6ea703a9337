import { describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../db/database.ts';
import { newId } from '../db/ids.ts';
import { describeEachDialect, makeFileRow, makeSiteRow } from '@dropsite/testkit/control-api/test-database';
import {
  bumpSiteVersion,
  createSiteWithFiles,
  deleteFileOfSite,
  findFileById,
  findSiteById,
  findSiteBySlug,
  insertFiles,
  insertSite,
  isSlugTaken,
  listFilesBySite,
  listSiteIds,
  listSiteIdsBySlug,
  parseDerivedMetadata,
  replaceFileBytes,
  saveFileMetadata,
  setSiteStatus,
  updateSite,
} from './site-records.repository.ts';

const NOW = 1_763_900_000_000;

describe('parseDerivedMetadata', () => {
  it('is null for nothing derived or unreadable values', () => {
    expect(parseDerivedMetadata('{}')).toBeNull();
    expect(parseDerivedMetadata('not json')).toBeNull();
    expect(parseDerivedMetadata('{"sha256":"x","kind":"spaceship"}')).toBeNull();
    expect(parseDerivedMetadata('{"sha256":"x","kind":"pdf"}')).toEqual({ sha256: 'x', kind: 'pdf' });
  });
});

await describeEachDialect('projects repository', (handle) => {
  it('finds projects by id and slug, hiding deleted ones unless asked', async () => {
    const site = makeSiteRow();
    const deleted = makeSiteRow({ deleted_at: NOW });
    await insertSite(handle.db, site);
    await insertSite(handle.db, deleted);

    expect(await findSiteById(handle.db, site.id)).toMatchObject({ id: site.id, slug: site.slug, version: 1 });
    expect(await findSiteBySlug(handle.db, site.slug)).toMatchObject({ id: site.id });
    expect(await findSiteById(handle.db, deleted.id)).toBeNull();
    expect(await findSiteById(handle.db, deleted.id, { includeDeleted: true })).toMatchObject({ id: deleted.id });
    expect(await findSiteBySlug(handle.db, deleted.slug)).toBeNull();
    expect(await findSiteById(handle.db, newId())).toBeNull();

    // A deleted site still holds its slug.
    expect(await isSlugTaken(handle.db, deleted.slug)).toBe(true);
    expect(await isSlugTaken(handle.db, site.slug)).toBe(true);
    expect(await isSlugTaken(handle.db, `free-${newId()}`)).toBe(false);
  });

  it('refuses a second project with the same slug', async () => {
    const site = makeSiteRow();
    await insertSite(handle.db, site);
    const error = await insertSite(handle.db, makeSiteRow({ slug: site.slug })).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isUniqueViolation(error)).toBe(true);
  });

  it('lists live project ids, and ids by slug', async () => {
    const live = makeSiteRow({ created_at: 1 });
    const expired = makeSiteRow({ created_at: 2, expires_at: NOW - 1 });
    const deleted = makeSiteRow({ created_at: 3, deleted_at: NOW });
    for (const p of [live, expired, deleted]) await insertSite(handle.db, p);

    const all = await listSiteIds(handle.db);
    expect(all).toContain(live.id);
    expect(all).toContain(expired.id);
    expect(all).not.toContain(deleted.id);
    const unexpired = await listSiteIds(handle.db, { now: NOW });
    expect(unexpired).toContain(live.id);
    expect(unexpired).not.toContain(expired.id);

    const bySlug = await listSiteIdsBySlug(handle.db, [live.slug, deleted.slug, 'no-such-slug']);
    expect(bySlug).toEqual([{ id: live.id, slug: live.slug }]);
    expect(await listSiteIdsBySlug(handle.db, [])).toEqual([]);
  });

  it('updates a project and sets its status', async () => {
    const site = makeSiteRow();
    await insertSite(handle.db, site);
    expect(await updateSite(handle.db, site.id, { title: 'Renamed', password_version: 2, updated_at: NOW })).toBe(true);
    expect(await updateSite(handle.db, newId(), { title: 'Nobody' })).toBe(false);
    await setSiteStatus(handle.db, site.id, 'live', NOW + 1);
    expect(await findSiteById(handle.db, site.id)).toMatchObject({ title: 'Renamed', password_version: 2, status: 'live', updated_at: NOW + 1 });
  });

  it('bumps the version atomically under concurrency', async () => {
    const site = makeSiteRow();
    await insertSite(handle.db, site);
    const versions = await Promise.all([bumpSiteVersion(handle.db, site.id, NOW), bumpSiteVersion(handle.db, site.id, NOW)]);
    expect(versions.sort()).toEqual([2, 3]);
    expect(await findSiteById(handle.db, site.id)).toMatchObject({ version: 3, updated_at: NOW });
    await expect(bumpSiteVersion(handle.db, newId(), NOW)).rejects.toThrow(/not found/);
  });

  it('creates a project with its files in one transaction', async () => {
    const site = makeSiteRow();
    const files = [makeFileRow('ignored', 1), makeFileRow('ignored', 0)];
    await createSiteWithFiles(handle.db, site, files);
    const listed = await listFilesBySite(handle.db, site.id);
    expect(listed.map((f) => f.id)).toEqual([files[1]!.id, files[0]!.id]);
    expect(listed.every((f) => f.project_id === site.id)).toBe(true);
  });

  it('keeps each file’s group (the folder it was dropped in), also when its bytes are replaced', async () => {
    const site = makeSiteRow();
    const black = makeFileRow(site.id, 0, { group_name: 'Black' });
    const loose = makeFileRow(site.id, 1);
    await createSiteWithFiles(handle.db, site, [black, loose]);
    expect((await listFilesBySite(handle.db, site.id)).map((f) => f.group_name)).toEqual(['Black', null]);

    const replaced = await replaceFileBytes(handle.db, black, {
      name: 'black-v2.jpg',
      type: 'image/jpeg',
      size: 12,
      storageKey: `uploads/${site.id}/v2`,
      sha256: 'b'.repeat(64),
      kind: 'image',
      now: NOW,
    });
    expect(replaced).toMatchObject({ version: 2 });
    expect(await findFileById(handle.db, black.id)).toMatchObject({ name: 'black-v2.jpg', version: 2, group_name: 'Black' });
  });

  it('leaves no project behind when a file insert fails', async () => {
    const site = makeSiteRow();
    const file = makeFileRow(site.id, 0);
    // The same file id twice makes the second insert violate the primary key.
    await expect(createSiteWithFiles(handle.db, site, [file, { ...file, position: 1 }])).rejects.toThrow();
    expect(await findSiteById(handle.db, site.id, { includeDeleted: true })).toBeNull();
    expect(await isSlugTaken(handle.db, site.slug)).toBe(false);
    expect(await listFilesBySite(handle.db, site.id)).toEqual([]);
  });

  it('finds a file with its project access fields and saves its metadata', async () => {
    const site = makeSiteRow({ password_hash: 'hash', password_version: 3, expires_at: NOW, status: 'live' });
    const file = makeFileRow(site.id, 0);
    await insertSite(handle.db, site);
    await insertFiles(handle.db, [file]);
    await insertFiles(handle.db, []);

    const found = await findFileById(handle.db, file.id);
    expect(found).toMatchObject({ id: file.id, project_id: site.id, size: 1024, storage_key: file.storage_key });
    expect(found?.site).toEqual({
      id: site.id,
      slug: site.slug,
      status: 'live',
      deleted_at: null,
      expires_at: NOW,
      password_hash: 'hash',
      password_version: 3,
    });
    expect(found).not.toHaveProperty('project_slug');
    expect(await findFileById(handle.db, newId())).toBeNull();

    await saveFileMetadata(handle.db, file.id, JSON.stringify({ sha256: 'abc', kind: 'image', width: 10, height: 20 }));
    expect((await findFileById(handle.db, file.id))?.metadata).toBe('{"sha256":"abc","kind":"image","width":10,"height":20}');
  });

  it('replaces a file once under concurrent replacements, marking the engagement made so far with its version', async () => {
    const site = makeSiteRow();
    const file = makeFileRow(site.id, 0);
    await createSiteWithFiles(handle.db, site, [file]);
    await handle.db.insertInto('favorites').values({ id: newId(), project_id: site.id, file_id: file.id, visitor_id: 'v1', user_name: 'User v1', created_at: NOW }).execute();
    const next = (n: number) => ({
      name: `new-${n}.jpg`,
      type: 'image/jpeg',
      size: 10 + n,
      storageKey: `uploads/${site.id}/k${n}`,
      sha256: `${n}`.repeat(64),
      kind: 'image',
      now: NOW + n,
    });

    const outcomes = await Promise.all([1, 2, 3, 4].map((n) => replaceFileBytes(handle.db, file, next(n))));
    const applied = outcomes.filter((o) => o !== null && o !== 'conflict');
    expect(applied.length + outcomes.filter((o) => o === 'conflict').length).toBe(4);
    const row = await handle.db.selectFrom('files').selectAll().where('id', '=', file.id).executeTakeFirstOrThrow();
    // Each applied replacement bumped the version exactly once, from the version it read.
    expect(row.version).toBe(1 + applied.length);
    expect(applied.map((o) => (o as { version: number }).version).sort()).toEqual(Array.from({ length: applied.length }, (_, i) => i + 2));
    expect(row.metadata).toBe('{}');
    const favourite = await handle.db.selectFrom('favorites').select('file_version').where('file_id', '=', file.id).executeTakeFirstOrThrow();
    expect(favourite.file_version).toBe(1);
    expect(await replaceFileBytes(handle.db, { id: newId(), project_id: site.id }, next(9))).toBeNull();
  });

  it('removes a file with its own analytics rollups, keeping the site’s', async () => {
    const site = makeSiteRow();
    const [kept, removed] = [makeFileRow(site.id, 0), makeFileRow(site.id, 1)];
    await createSiteWithFiles(handle.db, site, [kept, removed]);
    for (const scope of ['', kept.id, removed.id]) {
      await handle.db.insertInto('analytics_daily').values({ project_id: site.id, scope, day: 20_000, views: 3, downloads: 1, unique_visitors: 1 }).execute();
      await handle.db.insertInto('analytics_visitors').values({ project_id: site.id, scope, visitor_id: 'v1', last_day: 20_000 }).execute();
    }
    expect(await deleteFileOfSite(handle.db, site.id, removed.id)).toBe(true);
    expect(await deleteFileOfSite(handle.db, site.id, removed.id)).toBe(false);
    expect(await deleteFileOfSite(handle.db, newId(), kept.id)).toBe(false);
    const scopes = async (table: 'analytics_daily' | 'analytics_visitors') =>
      (await handle.db.selectFrom(table).select('scope').where('project_id', '=', site.id).execute()).map((r) => r.scope).sort();
    expect(await scopes('analytics_daily')).toEqual(['', kept.id].sort());
    expect(await scopes('analytics_visitors')).toEqual(['', kept.id].sort());
    expect((await listFilesBySite(handle.db, site.id)).map((f) => f.id)).toEqual([kept.id]);
  });
});
