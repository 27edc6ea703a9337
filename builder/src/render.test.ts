import { beforeAll, describe, expect, it } from 'vitest';
import * as cheerio from 'cheerio';
import { DEFAULT_PUBLIC_SITE_SETTINGS, type TSiteFile, type TSiteRenderModel } from '@dropsite/shared';
import { loadSiteRenderer, TemplateNotBuiltError, templatePaths } from './render.ts';
import { ensureTemplateBuilt } from '@dropsite/testkit/builder/ensure-template-built';

beforeAll(ensureTemplateBuilt);

function image(i: number): TSiteFile {
  const id = `img_${String(i).padStart(16, '0')}`;
  return {
    id,
    name: `photo-${i}.jpg`,
    type: 'image/jpeg',
    size: 1_000_000 + i,
    kind: 'image',
    url: `/api/files/${id}?mode=preview`,
    downloadUrl: `/api/files/${id}?mode=download`,
    thumbnailUrl: `/api/files/${id}?mode=preview&size=300`,
    width: 3000,
    height: i % 2 ? 2000 : 4500,
    thumbnailWidth: 300,
    thumbnailHeight: i % 2 ? 200 : 450,
    format: 'jpeg',
    uploadedAt: '2025-01-01T00:00:00.000Z',
    group: null,
    details: {},
  };
}

function site(files: TSiteFile[], overrides: Partial<TSiteRenderModel> = {}): TSiteRenderModel {
  return {
    projectId: 'p1',
    slug: 'render-test',
    title: 'Render test',
    subLine: '',
    tagLine: '',
    description: '',
    authorName: '',
    // Universal: the gallery layout follows the image count (other templates choose their own).
    template: 'universal',
    theme: 'professional-dark',
    settings: DEFAULT_PUBLIC_SITE_SETTINGS,
    contactInfo: { email: '', website: '', instagram: '', twitter: '', linkedin: '', github: '' },
    files,
    publishedAt: '2025-01-01T00:00:00.000Z',
    siteOrigin: 'https://dropsite.test',
    ...overrides,
  };
}

describe('loadSiteRenderer', () => {
  it('explains what to do when the template is not built', async () => {
    await expect(loadSiteRenderer({ serverEntry: '/nonexistent/dist/server/entry.mjs' })).rejects.toThrow(TemplateNotBuiltError);
    await expect(loadSiteRenderer({ serverEntry: '/nonexistent/dist/server/entry.mjs' })).rejects.toThrow(/Run npm run build first/);
  });

  it('loads the template once', async () => {
    const a = await loadSiteRenderer();
    const b = await loadSiteRenderer({ serverEntry: templatePaths().serverEntry });
    expect(a).toBe(b);
  });

  it('picks the gallery layout by image count and lazy-loads below the first row', async () => {
    const renderer = await loadSiteRenderer();

    const grid = cheerio.load(await renderer.render(site([1, 2, 3, 4, 5].map(image))));
    expect(grid('.gv-grid .gv-tile img').length).toBe(5);
    expect(
      grid('.gv-tile img')
        .map((_, el) => grid(el).attr('loading') ?? 'eager')
        .get(),
    ).toEqual(['eager', 'eager', 'eager', 'lazy', 'lazy']);

    const masonry = cheerio.load(await renderer.render(site(Array.from({ length: 12 }, (_, i) => image(i + 1)))));
    expect(masonry('.gv-masonry img').length).toBe(12);
    expect(masonry('.gv-masonry img').eq(1).attr('height')).toBe('450');

    const dense = cheerio.load(await renderer.render(site(Array.from({ length: 25 }, (_, i) => image(i + 1)))));
    // More than 20: the lightbox gallery, 20 at a time (spec 9).
    expect(dense('.gv-grid--dense img').length).toBe(20);
    expect(dense('.gv-more button').text()).toBe('Load 5 More Images');
    expect(dense('astro-island').length).toBe(1);
  });

  it('applies the theme and leaves optional parts out', async () => {
    const renderer = await loadSiteRenderer();
    const $ = cheerio.load(await renderer.render(site([])));
    expect($('html').attr('data-theme')).toBe('professional-dark');
    expect($('meta[name="theme-color"]').attr('content')).toBe('#0c0e12');
    expect($('.hero__tag').length).toBe(0);
    expect($('.hero__sub').length).toBe(0);
    expect($('footer h2').text()).toBe('Connect with Render test');
    expect($('a[href^="mailto:"]').length).toBe(0);
    expect($('.gallery-viewer').length).toBe(0);
    // No island, no script file: only the inline theme boot script and the theme switcher.
    expect($('astro-island').length).toBe(0);
    expect($('script[src]').length).toBe(0);
  });
});
