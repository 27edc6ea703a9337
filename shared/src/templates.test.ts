import { describe, expect, it } from 'vitest';
import { DEMO_PREVIEW_FORMATS, DEMO_PREVIEW_WIDTHS, demoPreviewHeight, demoPreviewPath, parseDemoPreviewFileName } from './templates.ts';

describe("a demo's card pictures", () => {
  it('keep the link picture’s 1200:630 shape', () => {
    expect(DEMO_PREVIEW_WIDTHS.map(demoPreviewHeight)).toEqual([210, 420]);
  });

  it('are served beside the demo, and every path names its width and format again', () => {
    expect(demoPreviewPath('/photo-gallery', 800, 'webp')).toBe('/photo-gallery/preview-800.webp');
    for (const width of DEMO_PREVIEW_WIDTHS) {
      for (const format of DEMO_PREVIEW_FORMATS) {
        const name = demoPreviewPath('/x', width, format).slice('/x/'.length);
        expect(parseDemoPreviewFileName(name)).toEqual({ width, format });
      }
    }
  });

  it('name no other width, format or file', () => {
    for (const name of ['preview-500.webp', 'preview-400.png', 'preview-400.jpeg', 'preview-0400.jpg', 'og.png', 'preview.json', 'preview-400.webp/..', 'PREVIEW-400.WEBP', '']) {
      expect(parseDemoPreviewFileName(name), name).toBeNull();
    }
  });
});
