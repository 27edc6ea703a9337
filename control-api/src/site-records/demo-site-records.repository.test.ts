import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_SETTINGS, EMPTY_CONTACT_INFO } from '@dropsite/shared';
import { newId } from '../db/ids.ts';
import { describeEachDialect } from '@dropsite/testkit/control-api/test-database';
import { findDemoSite, isSiteSlug, listDemoSiteStates, recordDemoFingerprint, saveDemoSite, type TDemoFileInput, type TDemoSiteInput } from './demo-site-records.ts';

const NOW = 1_764_000_000_000;

function file(name: string, group: string | null = null): TDemoFileInput {
  const id = newId();
  return { id, name, type: name.endsWith('.pdf') ? 'application/pdf' : 'image/jpeg', size: 100, sha256: 'a'.repeat(64), storageKey: `uploads/p/${id}`, group };
}

function demo(siteId: string, files: TDemoFileInput[], overrides: Partial<TDemoSiteInput> = {}): TDemoSiteInput {
  return {
    siteId,
    slug: 'photo-gallery',
    title: 'A wedding',
    description: 'Photographs',
    subLine: 'Photographs',
    tagLine: 'By Maya',
    authorName: 'Maya',
    template: 'photo-gallery',
    theme: 'elegant-light',
    heroLayout: null,
    colorMode: 'auto',
    visitorModeToggle: false,
    settings: { ...DEFAULT_SITE_SETTINGS, enableFavorites: true },
    contactInfo: { ...EMPTY_CONTACT_INFO, email: 'maya@example.com' },
    files,
    ...overrides,
  };
}

describe('isSiteSlug', () => {
  it('takes creators’ slugs and the demo sites’ reserved paths, not the app’s other reserved paths', () => {
    expect(isSiteSlug('ab3kq7mz9x')).toBe(true);
    expect(isSiteSlug('photo-gallery')).toBe(true);
    expect(isSiteSlug('universal-file-template')).toBe(true);
    expect(isSiteSlug('dashboard')).toBe(false);
    expect(isSiteSlug('templates')).toBe(false);
    expect(isSiteSlug('../etc')).toBe(false);
  });
});

await describeEachDialect('demo projects', (handle) => {
  const siteId = newId();
  const portrait = file('portrait.jpg', 'Portraits');
  const rings = file('rings.jpg', 'Details');
  const contract = file('contract.pdf');

  it('creates the demo as an ownerless, public, never-expiring project with its files in order and their groups', async () => {
    expect(await saveDemoSite(handle.db, demo(siteId, [portrait, rings, contract]), NOW)).toEqual({ changed: true, removedStorageKeys: [] });
    const found = await findDemoSite(handle.db, 'photo-gallery');
    expect(found?.site).toMatchObject({
      id: siteId,
      slug: 'photo-gallery',
      title: 'A wedding',
      template: 'photo-gallery',
      status: 'building',
      version: 1,
      owner_creator_id: null,
      anonymous_session_id: null,
      password_hash: null,
      expires_at: null,
      deleted_at: null,
    });
    expect(JSON.parse(found?.site.settings ?? '{}')).toMatchObject({ enableFavorites: true, enableComments: false });
    expect(found?.files.map((f) => [f.name, f.position, f.group_name, f.kind])).toEqual([
      ['portrait.jpg', 0, 'Portraits', 'image'],
      ['rings.jpg', 1, 'Details', 'image'],
      ['contract.pdf', 2, null, 'pdf'],
    ]);
  });

  it('saving the same demo again changes nothing', async () => {
    expect(await saveDemoSite(handle.db, demo(siteId, [portrait, rings, contract]), NOW + 1)).toEqual({ changed: false, removedStorageKeys: [] });
    expect((await findDemoSite(handle.db, 'photo-gallery'))?.site.updated_at).toBe(NOW);
  });

  it('brings the rows to a changed demo: kept files keep their rows (and engagement), dropped ones go, new ones come', async () => {
    await handle.db.insertInto('visitors').values({ id: 'visitor-1', created_at: NOW }).execute();
    await handle.db
      .insertInto('favorites')
      .values({ id: newId(), project_id: siteId, file_id: portrait.id, visitor_id: 'visitor-1', user_name: 'Ana', created_at: NOW, file_version: null })
      .execute();
    const veil = file('veil.jpg', 'Details');
    const result = await saveDemoSite(handle.db, demo(siteId, [veil, { ...portrait, group: 'Couple' }], { title: 'Amelia & Jonah' }), NOW + 2);
    expect(result).toEqual({ changed: true, removedStorageKeys: expect.arrayContaining([rings.storageKey, contract.storageKey]) });
    const found = await findDemoSite(handle.db, 'photo-gallery');
    expect(found?.site.title).toBe('Amelia & Jonah');
    expect(found?.files.map((f) => [f.id, f.position, f.group_name])).toEqual([
      [veil.id, 0, 'Details'],
      [portrait.id, 1, 'Couple'],
    ]);
    expect(await handle.db.selectFrom('favorites').select('file_id').where('project_id', '=', siteId).execute()).toEqual([{ file_id: portrait.id }]);
  });

  it('restores a demo that was deleted or taken down', async () => {
    await handle.db.updateTable('projects').set({ deleted_at: NOW, taken_down_at: NOW, takedown_reason: 'test' }).where('id', '=', siteId).execute();
    expect((await listDemoSiteStates(handle.db)).find((s) => s.slug === 'photo-gallery')?.gone).toBe(true);
    const found = await findDemoSite(handle.db, 'photo-gallery');
    const files = (found?.files ?? []).map((f) => ({ id: f.id, name: f.name, type: f.type, size: f.size, sha256: f.sha256, storageKey: f.storage_key, group: f.group_name }));
    expect((await saveDemoSite(handle.db, demo(siteId, files, { title: 'Amelia & Jonah' }), NOW + 3)).changed).toBe(true);
    expect((await findDemoSite(handle.db, 'photo-gallery'))?.site).toMatchObject({ deleted_at: null, taken_down_at: null, takedown_reason: null });
  });

  it('refuses a slug that is not a demo site, and a demo slug held by another project', async () => {
    await expect(saveDemoSite(handle.db, demo(newId(), [], { slug: 'ab3kq7mz9x' }), NOW)).rejects.toThrow(/Not a demo site/);
    await expect(saveDemoSite(handle.db, demo(newId(), []), NOW)).rejects.toThrow(/is project/);
  });

  it('records each demo’s fingerprint once, replacing the last', async () => {
    await recordDemoFingerprint(handle.db, 'photo-gallery', 'one', NOW);
    await recordDemoFingerprint(handle.db, 'photo-gallery', 'two', NOW + 1);
    const states = await listDemoSiteStates(handle.db);
    expect(states).toHaveLength(8);
    expect(states.find((s) => s.slug === 'photo-gallery')).toEqual({ slug: 'photo-gallery', status: 'building', gone: false, fingerprint: 'two' });
    expect(states.find((s) => s.slug === 'client-delivery')).toEqual({ slug: 'client-delivery', status: null, gone: false, fingerprint: null });
  });
});
