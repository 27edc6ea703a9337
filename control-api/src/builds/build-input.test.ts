import { expect, it } from 'vitest';
import { DEFAULT_SITE_SETTINGS } from '@dropsite/shared';
import { newId } from '../db/ids.ts';
import { describeEachDialect, makeFileRow, makeSiteRow } from '@dropsite/testkit/control-api/test-database';
import { createSiteWithFiles, insertSite } from '../site-records/site-records.repository.ts';
import { loadBuildInput } from './build-input.ts';

const NOW = 1_763_900_000_000;

await describeEachDialect('build input', (handle) => {
  it('loads the build input, parsing the JSON fields', async () => {
    const site = makeSiteRow({
      title: 'Portfolio',
      sub_line: 'sub',
      tag_line: 'tag',
      author_name: 'Ann',
      template: 'photo-gallery',
      settings: JSON.stringify({ enableFavorites: true, slackWebhook: 'https://hooks.example/x' }),
      contact_info: JSON.stringify({ email: 'ann@example.com' }),
      version: 4,
    });
    const derived = { sha256: 'f'.repeat(64), kind: 'image', width: 800, height: 600, thumbnail: { key: 't', width: 300, height: 225, contentType: 'image/webp' } };
    const withMetadata = makeFileRow(site.id, 0, { metadata: JSON.stringify(derived), size: 5_000_000_000, group_name: 'Portraits' });
    const withoutMetadata = makeFileRow(site.id, 1, { name: 'notes.pdf', kind: 'pdf', type: 'application/pdf' });
    await createSiteWithFiles(handle.db, site, [withoutMetadata, withMetadata]);

    const input = await loadBuildInput(handle.db, site.id);
    expect(input?.site).toEqual({
      id: site.id,
      slug: site.slug,
      title: 'Portfolio',
      description: '',
      subLine: 'sub',
      tagLine: 'tag',
      authorName: 'Ann',
      template: 'photo-gallery',
      // Stored before the look had a colour mode: its style, following each visitor's light or dark setting.
      theme: 'professional-light',
      colorMode: 'auto',
      heroLayout: 'minimal',
      visitorModeToggle: false,
      settings: { ...DEFAULT_SITE_SETTINGS, enableFavorites: true, slackWebhook: 'https://hooks.example/x' },
      // Stored before Instagram was a field: read with it empty.
      contactInfo: { email: 'ann@example.com', website: '', instagram: '', twitter: '', linkedin: '', github: '' },
      createdAt: site.created_at,
      version: 4,
    });
    expect(input?.files).toEqual([
      {
        id: withMetadata.id,
        name: withMetadata.name,
        type: 'image/jpeg',
        size: 5_000_000_000,
        storageKey: withMetadata.storage_key,
        sha256: withMetadata.sha256,
        kind: 'image',
        metadata: derived,
        createdAt: withMetadata.created_at,
        group: 'Portraits',
      },
      expect.objectContaining({ id: withoutMetadata.id, kind: 'pdf', metadata: null, group: null }),
    ]);
  });

  it('loads defaults for unreadable settings and null for missing or deleted projects', async () => {
    const site = makeSiteRow({ settings: 'not json', contact_info: '{"email":42}', template: 'retired-template' });
    await insertSite(handle.db, site);
    const input = await loadBuildInput(handle.db, site.id);
    expect(input?.site.settings).toEqual(DEFAULT_SITE_SETTINGS);
    expect(input?.site.contactInfo.email).toBe('');
    expect(input?.site.template).toBe('universal');
    expect(input?.files).toEqual([]);

    expect(await loadBuildInput(handle.db, newId())).toBeNull();
    const deleted = makeSiteRow({ deleted_at: NOW });
    await insertSite(handle.db, deleted);
    expect(await loadBuildInput(handle.db, deleted.id)).toBeNull();
  });
});
