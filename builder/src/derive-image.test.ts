import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { derivedKeys } from '@dropsite/shared';
import { deriveImage, isDerivableImage, readCachedDerivation } from './derive-image.ts';
import { MemoryStorage } from '@dropsite/testkit/builder/memory-storage';
import { addFile, makeImage } from '@dropsite/testkit/builder/fixtures';

describe('deriveImage', () => {
  it('derives dimensions, a 300 px thumbnail and a display copy of at most 1600 px from a 4000x3000 JPEG', async () => {
    const storage = new MemoryStorage();
    const file = await addFile(storage, 'large.jpg', await makeImage(4000, 3000));

    const { metadata, derived } = await deriveImage(storage, file);

    expect(derived).toBe(true);
    expect(metadata.error).toBeUndefined();
    expect(metadata).toMatchObject({ sha256: file.sha256, kind: 'image', width: 4000, height: 3000, format: 'jpeg' });
    const keys = derivedKeys(file.sha256);
    expect(metadata.thumbnail).toEqual({ key: keys.thumbnail, width: 300, height: 225, contentType: 'image/webp' });
    expect(metadata.display).toEqual({ key: keys.display, width: 1600, height: 1200, contentType: 'image/webp' });

    const thumb = await sharp(storage.objects.get(keys.thumbnail)!.body).metadata();
    expect([thumb.format, thumb.width, thumb.height]).toEqual(['webp', 300, 225]);
    const display = await sharp(storage.objects.get(keys.display)!.body).metadata();
    expect(display.format).toBe('webp');
    expect(Math.max(display.width!, display.height!)).toBeLessThanOrEqual(1600);
    expect(storage.objects.get(keys.thumbnail)!.cacheControl).toContain('immutable');

    // meta.json is written last and holds the same metadata.
    expect(storage.putLog.at(-1)).toBe(keys.meta);
    expect(JSON.parse(storage.text(keys.meta))).toEqual(metadata);
  });

  it('applies EXIF orientation and never enlarges small images', async () => {
    const storage = new MemoryStorage();
    // Stored 200x100 with orientation 6 (rotate 90°): shown as 100x200.
    const file = await addFile(storage, 'rotated.jpg', await makeImage(200, 100, { orientation: 6 }));
    const { metadata } = await deriveImage(storage, file);
    expect(metadata.error).toBeUndefined();
    expect([metadata.width, metadata.height]).toEqual([100, 200]);
    expect([metadata.thumbnail?.width, metadata.thumbnail?.height]).toEqual([100, 200]);
    expect([metadata.display?.width, metadata.display?.height]).toEqual([100, 200]);
  });

  it('answers from the content-hash cache without reading the original again', async () => {
    const storage = new MemoryStorage();
    const file = await addFile(storage, 'a.png', await makeImage(640, 480, { format: 'png' }));
    const first = await deriveImage(storage, file);
    const getsBefore = storage.getLog.filter((k) => k === file.storageKey).length;

    const second = await deriveImage(storage, file);
    expect(second.derived).toBe(false);
    expect(second.metadata).toEqual(first.metadata);
    // Same content under another file: same cache entry.
    const copy = await addFile(storage, 'copy.png', storage.objects.get(file.storageKey)!.body);
    expect((await deriveImage(storage, copy)).derived).toBe(false);
    // Metadata already on the row: no storage read at all.
    const gets = storage.getLog.length;
    expect((await deriveImage(storage, { ...file, metadata: first.metadata })).derived).toBe(false);
    expect(storage.getLog.length).toBe(gets);
    expect(storage.getLog.filter((k) => k === file.storageKey).length).toBe(getsBefore);
  });

  it('degrades a corrupt image to metadata.error, without throwing or caching the failure', async () => {
    const storage = new MemoryStorage();
    const file = await addFile(storage, 'broken.jpg', Buffer.from('this is not a jpeg at all'));
    const { metadata, derived } = await deriveImage(storage, file);
    expect(derived).toBe(true);
    expect(metadata).toMatchObject({ sha256: file.sha256, kind: 'image' });
    expect(metadata.error).toEqual(expect.any(String));
    expect(metadata.thumbnail).toBeUndefined();
    expect(await storage.head(derivedKeys(file.sha256).meta)).toBeNull();
  });

  it('refuses pixel floods and missing originals', async () => {
    const storage = new MemoryStorage();
    const file = await addFile(storage, 'big.png', await makeImage(2000, 1500, { format: 'png' }));
    const flood = await deriveImage(storage, file, { maxInputPixels: 1_000_000 });
    expect(flood.metadata.error).toMatch(/pixel limit/i);

    const missing = await deriveImage(storage, { ...file, sha256: 'f'.repeat(64), storageKey: 'originals/nope' });
    expect(missing.metadata.error).toMatch(/not found/i);
  });

  it('ignores a cache entry for other content', async () => {
    const storage = new MemoryStorage();
    const file = await addFile(storage, 'x.jpg', await makeImage(400, 300));
    await storage.put(derivedKeys(file.sha256).meta, JSON.stringify({ sha256: 'other', kind: 'image' }));
    expect(await readCachedDerivation(storage, file)).toBeNull();
  });

  it('knows which files it can rasterise', () => {
    expect(isDerivableImage({ name: 'a.JPG', type: 'image/jpeg' })).toBe(true);
    expect(isDerivableImage({ name: 'logo.svg', type: 'image/svg+xml' })).toBe(false);
    expect(isDerivableImage({ name: 'noext', type: 'image/png' })).toBe(true);
    expect(isDerivableImage({ name: 'doc.pdf', type: 'application/pdf' })).toBe(false);
  });
});
