import { describe, expect, it } from 'vitest';
import { contactName, isPlainEmail, largeImageUrl, metaDescription, typeLabel } from './site.ts';
import { THEME_CSS, resolveThemeId } from '../styles/themes.ts';

describe('site helpers', () => {
  it('cuts long descriptions at a word boundary', () => {
    const text = 'word '.repeat(60);
    const meta = metaDescription({ description: text, subLine: '', title: 't', authorName: '', files: [] });
    expect(meta.length).toBeLessThanOrEqual(160);
    expect(meta.endsWith('word…')).toBe(true);
    expect(metaDescription({ description: '', subLine: '', title: 't', authorName: 'Ann', files: [] })).toBe('0 files shared by Ann.');
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
});

describe('themes', () => {
  it('resolves theme names and emits every token', () => {
    expect(resolveThemeId('professional-dark')).toBe('professional-dark');
    expect(resolveThemeId('creative-light')).toBe('professional-light');
    expect(resolveThemeId('')).toBeNull();
    for (const token of ['--color-background-secondary', '--color-overlay-light', '--color-surface-hover', '--shadow-xl']) {
      expect(THEME_CSS).toContain(token);
    }
    expect(THEME_CSS).toContain('prefers-color-scheme:dark');
  });
});
