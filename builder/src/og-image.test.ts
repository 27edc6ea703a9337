import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { derivedKeys } from '@dropsite/shared';
import { escapeXml, OG_HEIGHT, OG_WIDTH, renderOgImage, wrapText } from './og-image.ts';
import { MemoryStorage } from '@dropsite/testkit/builder/memory-storage';
import { makeImage } from '@dropsite/testkit/builder/fixtures';

describe('renderOgImage', () => {
  it('sets the title over the first image, darkened at the bottom where the text is', async () => {
    const storage = new MemoryStorage();
    const backgroundKey = derivedKeys('ab'.repeat(32)).display;
    await storage.put(
      backgroundKey,
      await sharp(await makeImage(1600, 1000, { hue: 50 }))
        .webp()
        .toBuffer(),
    );
    const png = await renderOgImage(storage, { title: 'Harbour Lights', authorName: 'Mira', theme: 'professional-light', fileCount: 12, backgroundKey });
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([OG_WIDTH, OG_HEIGHT]);
    const luminance = (y0: number, y1: number) => {
      let sum = 0;
      let n = 0;
      for (let y = y0; y < y1; y++)
        for (let x = 700; x < 1100; x += 3) {
          const i = (y * info.width + x) * info.channels;
          sum += data[i]! + data[i + 1]! + data[i + 2]!;
          n++;
        }
      return sum / n / 3;
    };
    expect(luminance(580, 620)).toBeLessThan(luminance(250, 300));
  });

  it('draws a themed gradient when there is no image, and survives hostile titles', async () => {
    const storage = new MemoryStorage();
    for (const title of ['<script>alert(1)</script> & "quotes" \'too\'', '\u0000\u0001 control \ud800 lone surrogate', '', '🎉'.repeat(200)]) {
      const png = await renderOgImage(storage, { title, authorName: '<b>x</b>', theme: 'creative-dark', fileCount: 1, backgroundKey: null });
      const meta = await sharp(png).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', OG_WIDTH, OG_HEIGHT]);
    }
    // A missing background is not fatal either.
    const png = await renderOgImage(storage, { title: 'T', authorName: '', theme: 'nonsense', fileCount: 0, backgroundKey: derivedKeys('cd'.repeat(32)).display });
    expect((await sharp(png).metadata()).width).toBe(OG_WIDTH);
  });

  it('gives the same bytes for the same input', async () => {
    const storage = new MemoryStorage();
    const input = { title: 'Same', authorName: 'A', theme: 'nature-light', fileCount: 2, backgroundKey: null };
    expect((await renderOgImage(storage, input)).equals(await renderOgImage(storage, input))).toBe(true);
  });
});

describe('wrapText and escapeXml', () => {
  it('wraps at word boundaries into at most three lines, ending with an ellipsis when cut', () => {
    const lines = wrapText('Quarterly business review deck and appendix for the board of directors with many more words', 1056, 64, 3);
    expect(lines.length).toBe(3);
    expect(lines.at(-1)!.endsWith('…')).toBe(true);
    expect(wrapText('Short title', 1056, 76, 3)).toEqual(['Short title']);
    expect(wrapText('x'.repeat(100), 600, 60, 3).every((l) => l.length <= 17)).toBe(true);
  });

  it('escapes markup and drops what XML cannot hold', () => {
    expect(escapeXml(`<a href="x">'&'</a>\u0000`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
  });
});
