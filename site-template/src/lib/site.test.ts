import { describe, expect, it } from 'vitest';
import { makeImage } from '@dropsite/testkit/site-template';
import { contactName, isPlainEmail, largeImageAttributes, largeImageUrl, metaDescription, orderSiteFiles, typeLabel } from './site.ts';
import { THEME_IDS, THEMES, pageLook, resolveThemeId, themeCss, themeDeclarations } from '@dropsite/shared/themes';

describe('site helpers', () => {
  it('cuts long descriptions at a word boundary', () => {
    const text = 'word '.repeat(60);
    const meta = metaDescription({ description: text, subLine: '', title: 't', authorName: '', files: [] });
    expect(meta.length).toBeLessThanOrEqual(160);
    expect(meta.endsWith('word…')).toBe(true);
    expect(metaDescription({ description: '', subLine: '', title: 't', authorName: 'Ann', files: [] })).toBe('0 files shared by Ann.');
  });

  it('lists the files in the order the creator chose: as uploaded, by name with numbers in order, or newest first', () => {
    const file = (name: string, uploadedAt: string) => ({ name, uploadedAt });
    const files = [
      file('photo-10.jpg', '2026-12-01T10:00:00.000Z'),
      file('Photo-2.jpg', '2026-12-01T10:00:00.000Z'),
      file('brief.pdf', '2026-12-03T09:00:00.000Z'),
      file('album.zip', '2026-12-02T09:00:00.000Z'),
    ];
    const names = (order?: 'upload' | 'name' | 'newest') => orderSiteFiles(files, order).map((f) => f.name);
    expect(names()).toEqual(['photo-10.jpg', 'Photo-2.jpg', 'brief.pdf', 'album.zip']);
    expect(names('upload')).toEqual(names());
    expect(names('name')).toEqual(['album.zip', 'brief.pdf', 'Photo-2.jpg', 'photo-10.jpg']);
    // Files uploaded together keep their order.
    expect(names('newest')).toEqual(['brief.pdf', 'album.zip', 'photo-10.jpg', 'Photo-2.jpg']);
    expect(files[0]?.name).toBe('photo-10.jpg');
  });

  it('accepts only plain addresses for mailto links', () => {
    expect(isPlainEmail('ann@example.com')).toBe(true);
    expect(isPlainEmail('javascript:alert(1)')).toBe(false);
    expect(isPlainEmail('a@b.co?cc=x@y.z')).toBe(false);
    expect(isPlainEmail('a b@c.de')).toBe(false);
  });

  it('names, labels and sizes', () => {
    expect(contactName({ authorName: '  ', title: 'My site' })).toBe('My site');
    expect(typeLabel({ name: 'deck.pptx', kind: 'presentation' })).toBe('PPTX');
    expect(typeLabel({ name: 'README', kind: 'other' })).toBe('File');
    const image = { url: '/api/files/a?mode=preview', thumbnailUrl: '/api/files/a?mode=preview&size=300' };
    expect(largeImageUrl({ ...image, name: 'a.JPG' })).toBe(image.url);
    // The API only downloads TIFF and HEIC: their thumbnail stands in.
    expect(largeImageUrl({ ...image, name: 'scan.tiff' })).toBe(image.thumbnailUrl);
    expect(largeImageUrl({ ...image, name: 'x.heic', thumbnailUrl: null })).toBe(image.url);
  });

  it('sizes a large picture before it loads, lazily below the first screen', () => {
    const image = makeImage(1);
    expect(largeImageAttributes(image, false)).toEqual({
      src: image.url,
      srcset: `${image.thumbnailUrl} 300w, ${image.url} 1600w`,
      sizes: '(min-width: 1200px) 1100px, 100vw',
      width: 3000,
      height: 2000,
      alt: 'photo-01.jpg',
      loading: undefined,
      decoding: 'async',
    });
    // Without the original's size, the thumbnail's keeps the box.
    const unsized = largeImageAttributes({ ...image, width: null, height: null }, true);
    expect([unsized.width, unsized.height, unsized.srcset, unsized.loading]).toEqual([300, 200, undefined, 'lazy']);
  });
});

describe('themes', () => {
  it('resolves theme names and emits every token', () => {
    expect(resolveThemeId('professional-dark')).toBe('professional-dark');
    expect(resolveThemeId('creative-light')).toBe('creative-light');
    expect(resolveThemeId('elegant')).toBe('elegant-light');
    expect(resolveThemeId('dark')).toBe('professional-dark');
    expect(resolveThemeId('neon-dark')).toBeNull();
    expect(resolveThemeId('')).toBeNull();
    const css = themeCss('nature');
    for (const token of ['--color-background-secondary', '--color-overlay-light', '--color-surface-hover', '--shadow-xl']) {
      expect(css).toContain(token);
    }
  });

  it("a style's CSS: light by default, dark by media query while no theme is pinned, each variant under data-theme", () => {
    const css = themeCss('nature');
    expect(css).toContain(`:root{${themeDeclarations('nature-light')}}`);
    expect(css).toContain(`:root[data-theme="nature-light"]{${themeDeclarations('nature-light')}}`);
    expect(css).toContain(`:root[data-theme="nature-dark"]{${themeDeclarations('nature-dark')}}`);
    expect(css).toContain(`@media (prefers-color-scheme:dark){:root:not([data-theme]){${themeDeclarations('nature-dark')}}}`);
    // Only the site's own style: no other style's colours in its page.
    expect(css).not.toContain('creative');
  });

  it("a page's look: the model's colour mode, else the theme's pinned mode; unknown themes follow the visitor", () => {
    expect(pageLook('nature-light', 'auto')).toEqual({ style: 'nature', colorMode: 'auto' });
    expect(pageLook('nature-light', 'dark')).toEqual({ style: 'nature', colorMode: 'dark' });
    expect(pageLook('elegant-dark', undefined)).toEqual({ style: 'elegant', colorMode: 'dark' });
    expect(pageLook('', undefined)).toEqual({ style: 'professional', colorMode: 'auto' });
  });

  it('has ten themes, each with the full token set of spec section 3', () => {
    expect(THEME_IDS).toHaveLength(10);
    const colors = [
      'background',
      'backgroundSecondary',
      'backgroundTertiary',
      'textPrimary',
      'textSecondary',
      'textMuted',
      'primary',
      'primaryHover',
      'primaryLight',
      'accent',
      'accentHover',
      'accentLight',
      'success',
      'warning',
      'error',
      'info',
      'border',
      'borderLight',
      'surface',
      'surfaceHover',
      'overlay',
      'overlayLight',
    ];
    for (const id of THEME_IDS) {
      const theme = THEMES[id];
      expect(theme.name).toBe(id);
      expect(`${theme.visualStyle}-${theme.mode}`).toBe(id);
      for (const color of colors) expect(theme.colors[color as keyof typeof theme.colors], `${id} ${color}`).toMatch(/\S/);
      expect(Object.keys(theme.shadows)).toEqual(['sm', 'md', 'lg', 'xl']);
      expect(Object.keys(theme.gradients)).toEqual(['primary', 'hero', 'surface']);
      expect(theme.typography.fontHeading).toMatch(/serif|sans/);
      const css = themeDeclarations(id);
      for (const token of ['--color-overlay-light', '--gradient-hero', '--font-heading', '--radius-lg', '--space-section', '--content-width']) expect(css).toContain(token);
    }
  });

  it('keeps body text readable: at least 4.5:1 against the background in every theme', () => {
    for (const id of THEME_IDS) {
      const { colors } = THEMES[id];
      for (const text of [colors.textPrimary, colors.textSecondary]) expect(contrast(text, colors.background), `${id} ${text}`).toBeGreaterThanOrEqual(4.5);
      // Muted text sits on every background a section uses (page, secondary, tertiary, cards): 4.5:1 on each.
      for (const background of [colors.background, colors.backgroundSecondary, colors.backgroundTertiary, colors.surface]) {
        expect(contrast(colors.textMuted, background), `${id} muted on ${background}`).toBeGreaterThanOrEqual(4.5);
      }
      expect(contrast(colors.onPrimary, colors.primary), `${id} button`).toBeGreaterThanOrEqual(4.5);
    }
  });
});

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}
