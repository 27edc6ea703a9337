/**
 * Images are rasterised by what their bytes are, so the name is never trusted: only an
 * allow-list of raster formats reaches the decoder. SVG (librsvg, external references, scripts),
 * PDF and anything else under an image's name stays a plain download.
 */
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { derivedKeys } from '@dropsite/shared';
import { deriveImage } from './derive-image.ts';
import { MemoryStorage } from '@dropsite/testkit/builder/memory-storage';
import { addFile } from '@dropsite/testkit/builder/fixtures';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480"><rect width="640" height="480" fill="#c00"/></svg>';

describe('image derivation by content, not by name', () => {
  const hostile: Array<[string, Buffer]> = [
    ['x.png', Buffer.from(SVG)],
    ['photo.jpg', Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n<!-- a comment first -->\n${SVG}`)],
    ['scan.webp', Buffer.from(`\uFEFF  \n${SVG}`)],
  ];
  for (const [name, bytes] of hostile) {
    it(`does not rasterise SVG bytes named ${name}`, async () => {
      const storage = new MemoryStorage();
      const file = await addFile(storage, name, bytes);
      const { metadata } = await deriveImage(storage, file);
      expect(metadata.error).toMatch(/not a supported image format/i);
      expect(metadata.thumbnail).toBeUndefined();
      expect(metadata.width).toBeUndefined();
      const keys = derivedKeys(file.sha256);
      expect(await storage.head(keys.thumbnail)).toBeNull();
      expect(await storage.head(keys.display)).toBeNull();
    });
  }

  it('still derives every allowed raster format, whatever the file is called', async () => {
    const base = sharp({ create: { width: 120, height: 90, channels: 3, background: '#3a7' } });
    const formats = {
      png: await base.clone().png().toBuffer(),
      jpeg: await base.clone().jpeg().toBuffer(),
      webp: await base.clone().webp().toBuffer(),
      gif: await base.clone().gif().toBuffer(),
      tiff: await base.clone().tiff().toBuffer(),
      heif: await base.clone().avif().toBuffer(),
    };
    for (const [format, bytes] of Object.entries(formats)) {
      const storage = new MemoryStorage();
      const file = await addFile(storage, `misnamed-${format}.png`, bytes);
      const { metadata } = await deriveImage(storage, file);
      expect(metadata.error, format).toBeUndefined();
      expect(metadata, format).toMatchObject({ width: 120, height: 90, format });
    }
  });
});
