/** The render model alone: what a build's input and its derived metadata become in the page, without a template. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_SETTINGS, derivedKeys, uploadKey, type TArchiveSummary, type TDerivedMetadata } from '@dropsite/shared';
import { buildRenderModel, capArchiveTree, fileKindOf } from './render-model.ts';
import type { TBuildFile } from './types.ts';
import { FIXTURE_CREATED_AT, makeSite } from '@dropsite/testkit/builder/fixtures';

function file(overrides: Partial<TBuildFile> = {}): TBuildFile {
  return {
    id: 'file_0000000000000001',
    name: 'cover.jpg',
    type: 'image/jpeg',
    size: 1234,
    storageKey: uploadKey('proj_0000000000000001', 'file_0000000000000001'),
    sha256: 'a'.repeat(64),
    kind: 'image',
    metadata: null,
    createdAt: FIXTURE_CREATED_AT,
    ...overrides,
  };
}

describe('buildRenderModel', () => {
  it('carries public data only, with API URLs and an origin without a trailing slash', () => {
    const site = makeSite({
      settings: { ...DEFAULT_SITE_SETTINGS, notificationEmail: 'owner@example.com', slackWebhook: 'https://hooks.example/x' },
    });
    const image = file();
    const derived: Record<string, TDerivedMetadata> = {
      [image.id]: {
        sha256: image.sha256,
        kind: 'image',
        width: 1600,
        height: 1000,
        format: 'jpeg',
        thumbnail: { key: derivedKeys(image.sha256).thumbnail, width: 300, height: 188, contentType: 'image/webp' },
        display: { key: derivedKeys(image.sha256).display, width: 1600, height: 1000, contentType: 'image/webp' },
      },
    };
    const model = buildRenderModel(site, [image], derived, 'https://dropsite.test//', 'https://dropsite.test/harbour-lights/og.png');

    expect(model).toMatchObject({ projectId: site.id, slug: 'harbour-lights', title: 'Harbour Lights', siteOrigin: 'https://dropsite.test' });
    expect(model.ogImageUrl).toBe('https://dropsite.test/harbour-lights/og.png');
    expect(model.publishedAt).toBe(new Date(FIXTURE_CREATED_AT).toISOString());
    expect(model.files[0]).toEqual({
      id: image.id,
      name: 'cover.jpg',
      type: 'image/jpeg',
      size: 1234,
      kind: 'image',
      url: `/api/files/${image.id}?mode=preview`,
      downloadUrl: `/api/files/${image.id}?mode=download`,
      thumbnailUrl: `/api/files/${image.id}?mode=preview&size=300`,
      width: 1600,
      height: 1000,
      thumbnailWidth: 300,
      thumbnailHeight: 188,
      format: 'jpeg',
      uploadedAt: new Date(FIXTURE_CREATED_AT).toISOString(),
      group: null,
      details: {},
    });
    const json = JSON.stringify(model);
    for (const secret of ['owner@example.com', 'hooks.example', derivedKeys(image.sha256).display, image.storageKey]) expect(json).not.toContain(secret);
  });

  it('gives a failed derivation its reason and no sizes, and a file nothing was derived for no details', () => {
    const broken = file({ id: 'file_0000000000000002', name: 'scan.pdf', type: 'application/pdf', kind: 'pdf' });
    const pending = file({ id: 'file_0000000000000003', name: 'notes.txt', type: 'text/plain', kind: 'document' });
    const model = buildRenderModel(
      makeSite(),
      [broken, pending],
      { [broken.id]: { sha256: broken.sha256, kind: 'pdf', error: 'Preview not available: not a PDF.' } },
      'https://dropsite.test',
    );
    expect(model.files[0]).toMatchObject({ thumbnailUrl: null, width: null, details: { previewUnavailable: 'Preview not available: not a PDF.' } });
    expect(model.files[1]).toMatchObject({ kind: 'document', thumbnailUrl: null, details: {} });
    expect(model.ogImageUrl).toBeNull();
  });

  it('clamps a negative size and stands the epoch in for an unreadable date', () => {
    const odd = file({ size: -5.5, createdAt: Number.NaN });
    const model = buildRenderModel(makeSite({ createdAt: Number.NaN }), [odd], {}, 'https://dropsite.test');
    expect(model.files[0]!.size).toBe(0);
    expect(model.files[0]!.uploadedAt).toBe(new Date(0).toISOString());
    expect(model.publishedAt).toBe(new Date(0).toISOString());
  });
});

describe('the expiry in the model', () => {
  it('carries the expiry as an ISO instant when the owner set one, and no field otherwise', () => {
    const expiring = buildRenderModel(makeSite({ expiresAt: Date.parse('2026-12-12T23:30:00Z') }), [], {}, 'https://dropsite.test');
    expect(expiring.expiresAt).toBe('2026-12-12T23:30:00.000Z');
    expect('expiresAt' in buildRenderModel(makeSite(), [], {}, 'https://dropsite.test')).toBe(false);
    expect('expiresAt' in buildRenderModel(makeSite({ expiresAt: null }), [], {}, 'https://dropsite.test')).toBe(false);
  });
});

describe('fileKindOf', () => {
  it('trusts a known stored kind and detects an unknown one from name and type', () => {
    expect(fileKindOf({ kind: 'pdf', name: 'x.jpg', type: 'image/jpeg' })).toBe('pdf');
    expect(fileKindOf({ kind: 'spaceship', name: 'x.jpg', type: 'image/jpeg' })).toBe('image');
  });
});

describe('capArchiveTree', () => {
  const folder = (name: string, n: number) => ({
    name,
    path: name,
    type: 'folder' as const,
    size: n * 10,
    children: Array.from({ length: n }, (_, i) => ({ name: `f${i}.txt`, path: `${name}/f${i}.txt`, type: 'file' as const, size: 10 })),
  });
  const summary: TArchiveSummary = {
    format: 'zip',
    totalFiles: 15,
    totalFolders: 3,
    size: 150,
    compressedSize: 90,
    ratio: 0.6,
    entries: [folder('a', 5), folder('b', 5), folder('c', 5)],
    truncated: false,
  };

  it('keeps whole trees under the limit', () => {
    expect(capArchiveTree(summary, 18)).toBe(summary);
  });

  it('cuts level by level so every top folder shows, and says so', () => {
    const cut = capArchiveTree(summary, 6);
    expect(cut.truncated).toBe(true);
    expect(cut.entries.map((e) => e.name)).toEqual(['a', 'b', 'c']);
    expect(cut.entries.flatMap((e) => e.children!.map((c) => c.path))).toEqual(['a/f0.txt', 'a/f1.txt', 'a/f2.txt']);
    expect([cut.totalFiles, cut.size, cut.entries[1]!.size]).toEqual([15, 150, 50]);
    expect(summary.entries[0]!.children).toHaveLength(5); // the original is untouched
  });
});
