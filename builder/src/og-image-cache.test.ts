/** The link picture's cache on its own: drawn once per input, through the derivation gate, marker last. */
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { derivedKeys, siteOgImageKey, siteOgImageMarkerKey, type TDerivedMetadata } from '@dropsite/shared';
import { ogImageInput, writeSiteOgImage, type TOgImageCacheDeps } from './og-image-cache.ts';
import { OG_HEIGHT, OG_WIDTH } from './og-image.ts';
import type { TBuildFile } from './types.ts';
import { MemoryStorage } from '@dropsite/testkit/builder/memory-storage';
import { FIXTURE_CREATED_AT, makeSite } from '@dropsite/testkit/builder/fixtures';

function setup() {
  const storage = new MemoryStorage();
  let drawn = 0;
  const deps: TOgImageCacheDeps = {
    storage,
    siteOrigin: 'https://dropsite.test/',
    workGate: (work) => {
      drawn++;
      return work();
    },
  };
  return { storage, deps, drawn: () => drawn };
}

function file(id: string, kind: string, sha: string): TBuildFile {
  return { id, name: `${id}.bin`, type: '', size: 1, storageKey: '', sha256: sha.repeat(64), kind, metadata: null, createdAt: FIXTURE_CREATED_AT };
}

function withDisplay(f: TBuildFile, extra: Partial<TDerivedMetadata> = {}): TDerivedMetadata {
  return {
    sha256: f.sha256,
    kind: f.kind === 'video' ? 'video' : 'image',
    display: { key: derivedKeys(f.sha256).display, width: 10, height: 10, contentType: 'image/webp' },
    ...extra,
  };
}

describe('writeSiteOgImage', () => {
  it('draws the picture through the gate, writes it before its marker, and answers its absolute URL', async () => {
    const { storage, deps, drawn } = setup();
    const site = makeSite({ slug: 'og-cache-site' });
    const url = await writeSiteOgImage(deps, site, [], {});

    expect(url).toBe('https://dropsite.test/og-cache-site/og.png');
    expect(drawn()).toBe(1);
    expect(storage.putLog).toEqual([siteOgImageKey('og-cache-site'), siteOgImageMarkerKey('og-cache-site')]);
    const picture = storage.objects.get(siteOgImageKey('og-cache-site'))!;
    expect([picture.contentType, picture.cacheControl]).toEqual(['image/png', 'public, max-age=3600']);
    const meta = await sharp(picture.body).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', OG_WIDTH, OG_HEIGHT]);
  });

  it('draws nothing for the same input again, and draws anew when what it shows changes', async () => {
    const { storage, deps, drawn } = setup();
    const site = makeSite({ slug: 'og-cache-again' });
    await writeSiteOgImage(deps, site, [], {});
    const puts = storage.putLog.length;

    await writeSiteOgImage(deps, site, [], {});
    expect([drawn(), storage.putLog.length]).toEqual([1, puts]);

    // Fields the picture does not show change nothing; its title does.
    await writeSiteOgImage(deps, { ...site, description: 'Another description', version: 7 }, [], {});
    expect(drawn()).toBe(1);
    await writeSiteOgImage(deps, { ...site, title: 'Renamed' }, [], {});
    expect(drawn()).toBe(2);
  });

  it('compares a rebuild from the marker head without reading it, and still trusts a marker that keeps its hash only in its body', async () => {
    const { storage, deps, drawn } = setup();
    const site = makeSite({ slug: 'og-cache-head' });
    await writeSiteOgImage(deps, site, [], {});
    storage.getLog.length = 0;
    await writeSiteOgImage(deps, site, [], {});
    expect([drawn(), storage.getLog]).toEqual([1, []]);

    // A marker written before its metadata held the hash: the body is read, and the picture is not drawn again.
    const marker = storage.objects.get(siteOgImageMarkerKey(site.slug))!;
    await storage.put(siteOgImageMarkerKey(site.slug), marker.body, { contentType: 'application/json' });
    await writeSiteOgImage(deps, site, [], {});
    expect([drawn(), storage.getLog]).toEqual([1, [siteOgImageMarkerKey(site.slug)]]);
  });

  it('draws again when the marker is unreadable or the picture was never finished', async () => {
    const { storage, deps, drawn } = setup();
    const site = makeSite({ slug: 'og-cache-marker' });
    await storage.put(siteOgImageMarkerKey(site.slug), 'not json');
    await writeSiteOgImage(deps, site, [], {});
    expect(drawn()).toBe(1);
    await storage.put(siteOgImageMarkerKey(site.slug), JSON.stringify({ inputHash: 'f'.repeat(64) }));
    await writeSiteOgImage(deps, site, [], {});
    expect(drawn()).toBe(2);
  });
});

describe('ogImageInput', () => {
  const site = makeSite();

  it("takes the first usable image's display copy as the background, else a video's poster", () => {
    const pdf = file('doc', 'pdf', 'a');
    const video = file('clip', 'video', 'b');
    const broken = file('broken', 'image', 'c');
    const image = file('photo', 'image', 'd');
    const derived = {
      [video.id]: withDisplay(video),
      [broken.id]: withDisplay(broken, { error: 'Preview not available.' }),
      [image.id]: withDisplay(image),
    };
    expect(ogImageInput(site, [pdf, video, broken, image], derived)).toEqual({
      title: site.title,
      authorName: site.authorName,
      theme: site.theme,
      fileCount: 4,
      backgroundKey: derivedKeys(image.sha256).display,
    });
    expect(ogImageInput(site, [pdf, video, broken], derived).backgroundKey).toBe(derivedKeys(video.sha256).display);
    expect(ogImageInput(site, [pdf, broken], derived).backgroundKey).toBeNull();
  });
});
