/**
 * The built template, rendered with fixture sites and read as HTML (cheerio): which viewer each
 * site gets, the islands it hydrates (and the code it would load), and the static texts of the
 * spec that must be there before any script runs.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as cheerio from 'cheerio';
import { DEFAULT_SITE_SETTINGS, EMPTY_CONTACT_INFO, TEMPLATE_IDS, type TSiteRenderModel } from '@dropsite/shared';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadSiteRenderer, templatePaths } from '@dropsite/builder';
import { ensureTemplateBuilt } from '@dropsite/testkit/builder/ensure-template-built';
import { LONG_LINE, makeFile, makeImage, makePdfFile, makeSite, makeTextFile, makeVideoFile, makeZipFile } from '@dropsite/testkit/site-template';
import { THEMES, themeDeclarations } from '@dropsite/shared/themes';

beforeAll(ensureTemplateBuilt);

async function render(site: TSiteRenderModel) {
  const renderer = await loadSiteRenderer();
  return cheerio.load(await renderer.render(site));
}

/** The component module of every island on the page, by name (GalleryViewer, PdfViewer...). */
function islands($: cheerio.CheerioAPI): string[] {
  return $('astro-island')
    .map((_, el) => /\/_astro\/([A-Za-z]+)\./.exec($(el).attr('component-url') ?? '')?.[1] ?? '?')
    .get();
}

const images = (n: number, options?: { hasThumbnail?: boolean }) => Array.from({ length: n }, (_, i) => makeImage(i + 1, options));

describe('viewer choice by content', () => {
  it('one image: the single image viewer with its details panel and a large, sized picture', async () => {
    const $ = await render(makeSite(images(1)));
    expect(islands($)).toEqual(['SingleImageViewer']);
    expect($('astro-island').attr('client')).toBe('interaction');
    expect($('.sv-caption__title').text()).toBe('photo-01');
    expect($('.sv-caption__credit').text()).toBe('Photo by Mira Solberg');
    expect(
      $('.vi-info dt')
        .map((_, el) => $(el).text())
        .get(),
    ).toEqual(['Size', 'Format', 'Dimensions']);
    expect($('.vi-info dd').last().text()).toBe('3000 × 2000 px');
    const img = $('.sv-image img');
    expect(img.attr('width')).toBe('3000');
    expect(img.attr('height')).toBe('2000');
    // The display copy (~1600 px), never the original download.
    expect(img.attr('src')).toMatch(/mode=preview$/);
    expect(img.attr('srcset')).toMatch(/size=300 300w, .*mode=preview 1600w$/);
    expect($('button:contains("Like"), button:contains("Share")').length).toBe(2);
    expect($('a[href$="mode=download"]:contains("Download")').length).toBeGreaterThan(0);
  });

  it('four images: the grid gallery with count badge, Download All and thumbnails lazy after the first row', async () => {
    const $ = await render(makeSite(images(4)));
    expect(islands($)).toEqual(['GalleryViewer']);
    expect($('.gallery-viewer').attr('data-layout')).toBe('grid');
    expect($('.vi-badge').first().text()).toBe('4 images');
    expect($('button:contains("Download All")').length).toBe(1);
    const tiles = $('.gv-tile img');
    expect(tiles.length).toBe(4);
    expect(
      tiles
        .map((_, el) => $(el).attr('src'))
        .get()
        .every((src) => src.endsWith('size=300')),
    ).toBe(true);
    expect(tiles.map((_, el) => $(el).attr('loading') ?? 'eager').get()).toEqual(['eager', 'eager', 'eager', 'lazy']);
    expect(tiles.eq(0).attr('width')).toBe('300');
    expect(tiles.eq(2).attr('height')).toBe('300');
    expect($('.vi-segmented').length).toBe(0);
  });

  it('twelve images: masonry with a masonry/grid toggle', async () => {
    const $ = await render(makeSite(images(12)));
    expect(islands($)).toEqual(['GalleryViewer']);
    expect($('.gallery-viewer').attr('data-layout')).toBe('masonry');
    expect($('.gv-masonry .gv-tile').length).toBe(12);
    expect(
      $('.vi-segmented button')
        .map((_, el) => $(el).text())
        .get(),
    ).toEqual(['Masonry', 'Grid']);
    expect($('.vi-segmented button[aria-pressed="true"]').text()).toBe('Masonry');
  });

  it('thirty images: the lightbox gallery shows 20, counts them, offers the next 10, and ships no other viewer', async () => {
    const $ = await render(makeSite(images(30)));
    expect(islands($)).toEqual(['GalleryViewer']);
    expect($('.gallery-viewer').attr('data-layout')).toBe('lightbox');
    expect($('.gv-tile').length).toBe(20);
    expect($('.gv-search input').attr('placeholder')).toBe('Search images...');
    expect($('.gv-search__count').text()).toBe('Showing: 20 of 30');
    expect($('.gv-more button').text()).toBe('Load 10 More Images');
    const html = $.html();
    for (const other of ['PdfViewer', 'MultiPdfBrowser', 'VideoViewer', 'ArchiveViewer', 'TextViewer', 'pdf.worker']) expect(html).not.toContain(other);
    expect($('link[rel="modulepreload"]').length).toBe(0);
  });

  it('images without any preview: the fallback gallery of cards with a Load more button', async () => {
    const $ = await render(makeSite(images(25, { hasThumbnail: false })));
    expect(islands($)).toEqual(['GalleryViewer']);
    expect($('.gallery-viewer').attr('data-layout')).toBe('fallback');
    expect($('.gv-card').length).toBe(20);
    expect($('.gv-more button').text()).toBe('Load more');
    expect($('.vi-segmented button').length).toBe(2);
    expect($('img[src*="mode=preview"]').length).toBe(0);
  });

  it('one PDF: the PDF viewer, server-rendered at its first loading stage', async () => {
    const $ = await render(makeSite([makePdfFile('contract.pdf', 3)]));
    expect(islands($)).toEqual(['PdfViewer']);
    expect($('.pdf-loading__stage').text()).toBe('Loading PDF.js library...');
    expect($('.pdf-toolbar__count').text()).toBe('1 / 3');
    expect($('.section-meta').first().text()).toBe('PDF · 3 pages · 468.75 KB');
    // PDF.js itself is not in the island: it is fetched when the viewer starts.
    expect($.html()).not.toContain('pdf.worker');
  });

  it('one PDF with its first page drawn at build time: that picture at its size, no loading, the controls on', async () => {
    const pdf = makePdfFile('deck.pdf', 9);
    const firstPage = { url: `/api/files/${pdf.id}/first-page`, width: 1600, height: 900 };
    const $ = await render(makeSite([{ ...pdf, details: { ...pdf.details, firstPage } }]));
    expect(islands($)).toEqual(['PdfViewer']);
    expect($('.pdf-viewer').attr('data-state')).toBe('waiting');
    const picture = $('.pdf-stage img.pdf-poster');
    expect(picture.attr('src')).toBe(firstPage.url);
    expect([picture.attr('width'), picture.attr('height')]).toEqual(['1600', '900']);
    expect(picture.attr('data-orientation')).toBe('landscape');
    // A document further down the page costs nothing until it comes near.
    expect(picture.attr('loading')).toBe('lazy');
    expect(picture.attr('style')).toContain('--page-width:1600');
    // Readable before any script: the page is a labelled document, and no loading stage is shown.
    expect($('.pdf-stage').attr('role')).toBe('document');
    expect($('.pdf-stage').attr('aria-label')).toBe('deck.pdf, page 1 of 9');
    expect($('.pdf-loading').length).toBe(0);
    expect($('.pdf-toolbar__count').text()).toBe('1 / 9');
    expect($('button[aria-label="Next page"]').is('[disabled]')).toBe(false);
    expect($('button[aria-label="Previous page"]').is('[disabled]')).toBe(true);
  });

  it('three PDFs: the multi-PDF browser with the count and total pages', async () => {
    const $ = await render(makeSite([makePdfFile('a.pdf', 3), makePdfFile('b.pdf', 5), makePdfFile('c.pdf', 1)]));
    expect(islands($)).toEqual(['MultiPdfBrowser']);
    expect($('.mpdf-header__summary').text()).toContain('3 PDFs');
    expect($('.mpdf-header__summary').text()).toContain('9 pages in total');
    expect($('.mpdf-card').length).toBe(3);
    expect(
      $('.vi-segmented button')
        .map((_, el) => $(el).text())
        .get(),
    ).toEqual(['Grid', 'List']);
  });

  it('a video: a real <video> with poster, controls, one line of details and a download, no engineering panels', async () => {
    const $ = await render(makeSite([makeVideoFile()]));
    expect(islands($)).toEqual(['VideoViewer']);
    const video = $('video');
    expect(video.attr('src')).toMatch(/mode=preview$/);
    expect(video.attr('poster')).toMatch(/\/poster$/);
    expect(video.attr('preload')).toBe('metadata');
    expect(
      $('select option')
        .map((_, el) => $(el).text())
        .get(),
    ).toEqual(['0.5x', '0.75x', '1x', '1.25x', '1.5x', '2x']);
    expect($('input[aria-label="Volume"]').attr('value')).toBe('75');
    const facts = $('.vv-fact')
      .map((_, el) => $(el).text())
      .get();
    expect(facts).toEqual(['Duration: 1:23', 'Resolution: 1920 × 1080 (1080p)', 'Format: MP4 · H.264 / AAC', 'Size: 4.58 MB']);
    expect($('.video-viewer a[download]').attr('aria-label')).toMatch(/^Download /);
    for (const gone of ['Bitrate', 'Status', 'Position', 'Quick actions', 'Restart Video', 'Open in New Tab']) expect($('.video-viewer').text()).not.toContain(gone);
  });

  it('a zip: the archive tree with search, a sort selector, selection actions and the info panel', async () => {
    const $ = await render(makeSite([makeZipFile()]));
    expect(islands($)).toEqual(['ArchiveViewer']);
    expect($('input[placeholder="Search files..."]').length).toBe(1);
    expect(
      $('.av-sort option')
        .map((_, el) => $(el).text())
        .get(),
    ).toEqual(['Name', 'Size', 'Type', 'Date']);
    // Folders first, then by name; the top folder starts open.
    expect(
      $('[role="treeitem"]')
        .map((_, el) => $(el).attr('data-path'))
        .get(),
    ).toEqual(['raw', 'raw/a-frame.cr2', 'raw/b-frame.cr2', 'notes.txt']);
    for (const label of ['Download Selected', 'Clear Selection', 'Expand All', 'Collapse All']) expect($(`button:contains("${label}")`).length).toBe(1);
    const info = $('.av-panel .vi-info__row')
      .map((_, el) => `${$(el).find('dt').text()}=${$(el).find('dd').text()}`)
      .get();
    expect(info).toEqual(['Files=3', 'Folders=1', 'Size=1.43 MB', 'Format=ZIP', 'Compressed=878.91 KB', 'Saved=40%']);
  });

  it('a text file: the card shows 12 lines of at most 50 characters and offers the full preview', async () => {
    const $ = await render(makeSite([makeTextFile()]));
    expect(islands($)).toEqual(['TextViewer']);
    const lines = $('.tv-card__lines').text().split('\n');
    expect(lines.length).toBe(12);
    expect(lines[0]).toBe(LONG_LINE.slice(0, 50));
    expect(lines.every((line) => line.length <= 50)).toBe(true);
    expect($('button:contains("Open Preview")').length).toBe(1);
  });

  it("a Markdown file's card reads formatted, not as its source, and nothing a file holds becomes markup", async () => {
    const firstLines = [
      '# Delivery notes',
      '',
      'The **final** selects, [licence](https://example.com/l).',
      '',
      '- one',
      '- two',
      '<script>alert(1)</script>',
      '[bad](javascript:alert(1))',
    ];
    const file = makeFile('notes.md', { size: 400, type: 'text/markdown' }, { text: { encoding: 'utf-8', firstLines, totalLines: 8 } });
    const $ = await render(makeSite([file]));
    const card = $('.tv-card__lines');
    expect(card.is('div')).toBe(true);
    expect(card.find('h2').text()).toBe('Delivery notes');
    expect(card.find('strong').text()).toBe('final');
    expect(card.find('li').length).toBe(2);
    expect(card.find('a').attr('href')).toBe('https://example.com/l');
    expect(card.find('a').attr('rel')).toContain('noopener');
    expect(card.text()).not.toContain('**');
    expect(card.text()).toContain('<script>alert(1)</script>');
    expect(card.find('script').length).toBe(0);
    expect(card.find('a[href^="javascript"]').length).toBe(0);
  });

  it('presentations: the PDF viewer on the converted PDF, else a download card with the reason', async () => {
    const converted = makeFile('pitch.pptx', {}, { pdfUrl: '/api/files/x/pdf', pages: 12 });
    const $ = await render(makeSite([converted]));
    expect(islands($)).toEqual(['PdfViewer']);
    expect($('astro-island').attr('props')).toContain('/api/files/x/pdf');

    const unconverted = makeFile('pitch.pptx', {}, { previewUnavailable: 'Presentations are converted when LibreOffice is installed.' });
    const card = await render(makeSite([unconverted]));
    expect(islands(card)).toEqual([]);
    expect(card('.download-card__reason').text()).toBe('Presentations are converted when LibreOffice is installed.');
    expect(card('.download-card a').attr('href')).toMatch(/mode=download$/);
  });

  it('a mixed site: images in one gallery, every other file its own viewer', async () => {
    const $ = await render(makeSite([...images(3), makePdfFile('brief.pdf', 2), makeVideoFile(), makeZipFile(), makeTextFile(), makeFile('budget.xlsx')]));
    expect(islands($)).toEqual(['GalleryViewer', 'PdfViewer', 'VideoViewer', 'ArchiveViewer', 'TextViewer']);
    expect($('.download-card__name').text()).toBe('budget.xlsx');
    // The gallery's Download All is the site's one ZIP, the footer's 'Download all files': no narrowing to the gallery's files.
    expect($('astro-island').first().attr('props')).not.toContain('downloadFileIds');
    expect($('a:contains("Download all files")').attr('href')).toBe('/api/sites/render-fixture/download');
  });

  it('every island waits for the visitor: hydrated on input once in view, the directive inlined once and no island code named up front', async () => {
    const settings = { ...DEFAULT_SITE_SETTINGS, enableFavorites: true };
    const $ = await render(makeSite([...images(3), makePdfFile('brief.pdf', 2), makeVideoFile(), makeZipFile(), makeTextFile(), makeFile('budget.xlsx')], { settings }));
    const clients = $('astro-island')
      .map((_, el) => $(el).attr('client'))
      .get();
    expect(clients).toHaveLength(6);
    expect(new Set(clients)).toEqual(new Set(['interaction']));
    const inline = $('script:not([src])')
      .map((_, el) => $(el).text())
      .get();
    expect(inline.filter((text) => text.includes('.interaction=')).length).toBe(1);
    // The page asks for no island code or React by itself: no module script, preload or modulepreload.
    expect($('script[src], link[rel="modulepreload"], link[rel="preload"][as="script"]').length).toBe(0);
  });

  it('engagement settings bring an island for files without a viewer', async () => {
    const settings = { ...DEFAULT_SITE_SETTINGS, enableFavorites: true };
    const $ = await render(makeSite([makeFile('budget.xlsx')], { settings }));
    expect(islands($)).toEqual(['FileEngagementIsland']);
    const off = await render(makeSite([makeFile('budget.xlsx')]));
    expect(islands(off)).toEqual([]);
  });
});

describe('hero, theme and footer', () => {
  it('renders the hero for all four layouts, in the layout the creator chose', async () => {
    const $ = await render(makeSite(images(2)));
    expect($('h1').text()).toBe('Harbour Lights');
    expect($('.hero__tag').text()).toBe('By Mira Solberg');
    expect($('.hero__badge').text().trim()).toBe('Featured Presentation');
    // Split shows the first image (lazily: hidden in the other layouts), else the placeholder.
    expect($('.hero__media img').attr('loading')).toBe('lazy');
    const empty = await render(makeSite([makePdfFile('a.pdf', 1)]));
    expect(empty('.hero__placeholder').text().trim()).toBe('Your Image Here');
    // The creator's layout is in the HTML; nothing a visitor stored is read for it.
    expect((await render(makeSite([], { heroLayout: 'split' })))('html').attr('data-hero-layout')).toBe('split');
    expect($('head').html()).not.toContain('dropsite-hero-layout');
    expect($('head').html()).not.toContain('dropsite-theme');
  });

  it('a pinned site carries its theme in the HTML; no style or layout switcher, and no toggle unless the creator allows it', async () => {
    const $ = await render(makeSite([], { theme: 'nature-dark', colorMode: 'dark' }));
    expect($('html').attr('data-theme')).toBe('nature-dark');
    expect($('html').attr('data-style')).toBe('nature');
    expect($('html').attr('data-color-mode')).toBe('dark');
    expect($('meta[name="theme-color"]').attr('content')).toBe('#0e130e');
    expect($('meta[name="color-scheme"]').attr('content')).toBe('dark');
    expect($('[data-style]').length).toBe(1);
    expect($('[data-action]').length).toBe(0);
    expect($('[data-mode-toggle]').length).toBe(0);
    expect($('head script').length).toBe(0);
    expect($('body').text()).not.toContain('Visual style');
    expect($('astro-island').length).toBe(0);
  });

  it('a site that follows the visitor has no theme in its HTML: its style goes dark by media query before any script', async () => {
    const $ = await render(makeSite([], { theme: 'creative-light', colorMode: 'auto' }));
    expect($('html').attr('data-theme')).toBeUndefined();
    expect($('html').attr('data-style')).toBe('creative');
    expect($('meta[name="color-scheme"]').attr('content')).toBe('light dark');
    expect($('meta[name="theme-color"][media="(prefers-color-scheme: dark)"]').attr('content')).toBe(THEMES['creative-dark'].colors.background);
    expect($('head style').text()).toContain(`@media (prefers-color-scheme:dark){:root:not([data-theme]){${themeDeclarations('creative-dark')}}}`);
  });

  it("offers the light/dark toggle when the creator allows it, restoring the visitor's pick for this site before paint", async () => {
    const $ = await render(makeSite([], { theme: 'nature-light', colorMode: 'auto', visitorModeToggle: true }));
    const toggle = $('[data-mode-toggle]');
    expect(toggle.length).toBe(1);
    expect(toggle.is('button')).toBe(true);
    expect(toggle.attr('aria-label')).toBe('Switch to dark mode');
    const boot = $('head script').first().html() ?? '';
    expect(boot).toContain('dropsite-color-mode:render-fixture');
    expect(boot).toContain('"nature-"');
    expect((await render(makeSite([], { theme: 'nature-dark', colorMode: 'dark', visitorModeToggle: true })))('[data-mode-toggle]').attr('aria-label')).toBe(
      'Switch to light mode',
    );
  });

  it('the contact section: heading, text, mail link, download-all, safe profile links and the branding', async () => {
    const $ = await render(
      makeSite(images(2), {
        contactInfo: {
          email: 'mira@example.com',
          website: 'mira.example.com',
          instagram: '@mira.studio',
          twitter: '@mira',
          linkedin: 'javascript:alert(1)',
          github: 'https://github.com/mira',
        },
      }),
    );
    expect($('footer h2').text()).toBe('Connect with Mira Solberg');
    expect($('.connect__text').text()).toBe("Have questions or want to work together? I'd love to hear from you.");
    expect($('a:contains("Get in touch")').attr('href')).toBe('mailto:mira@example.com');
    expect($('a:contains("Download all files")').attr('href')).toBe('/api/sites/render-fixture/download');
    const links = $('.connect__link');
    expect(links.map((_, el) => $(el).attr('href')).get()).toEqual([
      'https://mira.example.com',
      'https://instagram.com/mira.studio',
      'https://x.com/mira',
      'https://github.com/mira',
    ]);
    expect(links.map((_, el) => $(el).attr('target')).get()).toEqual(['_blank', '_blank', '_blank', '_blank']);
    expect(links.eq(1).attr('aria-label')).toBe('Instagram (opens in a new tab)');
    expect(links.first().attr('rel')).toContain('noopener');
    expect($('.branding__line').text().replace(/\s+/g, ' ').trim()).toBe('Powered by Dropsite');
  });

  it('gives an Instagram value that is not a handle or a web link no link at all', async () => {
    for (const instagram of ['javascript:alert(1)', 'data:text/html,hi', 'java\tscript:alert(1)', '"><script>']) {
      const $ = await render(makeSite(images(2), { contactInfo: { ...EMPTY_CONTACT_INFO, instagram } }));
      expect($('.connect__link')).toHaveLength(0);
      expect($.html()).not.toContain('javascript:');
    }
  });

  it('escapes every creator-supplied text', async () => {
    const evil = '<img src=x onerror=alert(1)>';
    const $ = await render(makeSite([makeFile(`${evil}.txt`, {}, { text: { encoding: 'utf-8', firstLines: [evil] } })], { title: evil, subLine: evil, authorName: evil }));
    expect($('img[src="x"]').length).toBe(0);
    expect($('h1').text()).toBe(evil);
    expect($('.tv-card__lines').text()).toBe(evil);
  });
});

describe('templates shape the page', () => {
  /** Six photos in two folders, a PDF, a text file and a spreadsheet: the same files for every template. */
  const grouped = () => [
    ...images(6).map((image, i) => ({ ...image, group: i % 2 === 0 ? 'Red' : 'Blue' })),
    makePdfFile('resume.pdf', 2),
    makeTextFile(),
    makeFile('budget.xlsx'),
  ];
  const blocks = ($: cheerio.CheerioAPI) =>
    $('main > [data-block]')
      .map((_, el) => $(el).attr('data-block'))
      .get();
  const texts = ($: cheerio.CheerioAPI, selector: string) =>
    $(selector)
      .map((_, el) => $(el).text().replace(/\s+/g, ' ').trim())
      .get();

  it('each of the eight templates gives the same files a page of its own', async () => {
    const files = grouped();
    const pages = await Promise.all(TEMPLATE_IDS.map(async (template) => [template, await render(makeSite(files, { template }))] as const));
    const signatures = pages.map(([template, $]) => {
      expect($('html').attr('data-template')).toBe(template);
      return JSON.stringify([$('.hero').attr('data-hero-kind'), blocks($), texts($, 'main h2').slice(0, 2), $('h1').text()]);
    });
    expect(new Set(signatures).size).toBe(TEMPLATE_IDS.length);
  });

  it('universal: the site as before, with no chips even when the files have folders', async () => {
    const $ = await render(makeSite(grouped()));
    expect($('.hero').attr('data-hero-kind')).toBe('standard');
    expect(blocks($)).toEqual(['viewers', 'files']);
    expect(islands($)).toEqual(['GalleryViewer', 'PdfViewer', 'TextViewer']);
    expect($('.chip').length).toBe(0);
    expect($('[data-carousel]').length).toBe(0);
    expect($('.hero__backdrop').length).toBe(0);
  });

  it('photo gallery: a full-bleed first image behind light type, the masonry gallery first with category chips, documents after', async () => {
    const files = grouped();
    const $ = await render(makeSite(files, { template: 'photo-gallery' }));
    expect($('.hero').attr('data-hero-kind')).toBe('cover');
    const cover = $('.hero__backdrop img');
    expect(cover.attr('src')).toBe(files[0]!.url);
    expect(cover.attr('width')).toBe('3000');
    expect(cover.attr('height')).toBe('2000');
    expect(cover.attr('fetchpriority')).toBe('high');
    expect(blocks($)).toEqual(['gallery', 'viewers', 'files']);
    expect(islands($)[0]).toBe('GalleryViewer');
    expect($('.gallery-viewer').attr('data-layout')).toBe('masonry');
    expect(texts($, '.gv-chips .chip')).toEqual(['All 6', 'Red 3', 'Blue 3']);
    expect(texts($, '.gv-chips [aria-pressed="true"]')).toEqual(['All 6']);
    expect($('.gv-chips').attr('aria-label')).toBe('Filter by category');
    // The template's type scale is in the stylesheets the page links (the template's shared CSS).
    const linked = $('head link[rel="stylesheet"]')
      .map((_, link) => $(link).attr('href'))
      .get();
    expect(linked.length).toBeGreaterThan(0);
    const css = linked.map((href) => readFileSync(path.join(templatePaths().clientDir, href), 'utf8')).join('\n');
    expect(css).toMatch(/\[data-template=["']?photo-gallery["']?\]/);
  });

  it('photo gallery without folders: no chips', async () => {
    const $ = await render(makeSite([...images(6), makePdfFile('a.pdf', 1)], { template: 'photo-gallery' }));
    expect($('.gallery-viewer').length).toBe(1);
    expect($('.chip').length).toBe(0);
  });

  it('portfolio: the author big with the title as role, the bio, contact and Download Resume up top, work then documents', async () => {
    const files = grouped();
    const $ = await render(
      makeSite(files, { template: 'portfolio-resume', contactInfo: { email: 'mira@example.com', website: '', instagram: '', twitter: '', linkedin: 'mira', github: '' } }),
    );
    expect($('.hero').attr('data-hero-kind')).toBe('profile');
    expect($('h1').text()).toBe('Mira Solberg');
    expect($('.hero__role').text()).toBe('Harbour Lights');
    const titled = await render(makeSite(files, { template: 'portfolio-resume', title: 'Mira Solberg — Photographer' }));
    expect(titled('.hero__role').text()).toBe('Photographer');
    expect($('.hero__monogram').text()).toBe('MS');
    expect($('.hero__description--bio').text()).toBe('Final selects from the October shoot.');
    const contact = $('.hero__contact');
    expect(contact.find('a:contains("Get in touch")').attr('href')).toBe('mailto:mira@example.com');
    expect(contact.find('a:contains("Download Resume")').attr('href')).toBe(files[6]!.downloadUrl);
    expect(contact.find('.hero__link').attr('href')).toBe('https://www.linkedin.com/in/mira');
    expect(blocks($)).toEqual(['gallery', 'viewers', 'files']);
    expect(texts($, '#gallery-title')).toEqual(['Selected work']);
    expect($('.gallery-viewer').attr('data-layout')).toBe('grid');
    expect(texts($, '.block-heading__title')).toEqual(['Resume & documents']);
  });

  it('event: a poster hero with the date, the gallery of the day, then the programme', async () => {
    const $ = await render(makeSite(grouped(), { template: 'event-template' }));
    expect($('.hero').attr('data-hero-kind')).toBe('poster');
    expect($('.hero__backdrop img').length).toBe(1);
    expect(texts($, '.hero__date')).toEqual(['March 4, 2025']);
    expect(blocks($)).toEqual(['gallery', 'viewers', 'files']);
    expect(texts($, '#gallery-title')).toEqual(['Gallery of the day']);
    expect(texts($, '.block-heading__title')).toEqual(['Programme & schedule']);
  });

  it('pitch: the deck full width right after the hero, then the supporting files', async () => {
    const $ = await render(makeSite(grouped(), { template: 'pitch-template' }));
    expect($('.hero').attr('data-hero-kind')).toBe('deck');
    expect($('.hero__eyebrow').text()).toBe('Pitch');
    expect(blocks($)).toEqual(['deck', 'viewers', 'files']);
    expect($('[data-block="deck"] .section-title').text()).toContain('resume.pdf');
    expect(islands($)).toEqual(['PdfViewer', 'GalleryViewer', 'TextViewer']);
    expect(texts($, '.block-heading__title')).toEqual(['Supporting material']);
  });

  it('product: a carousel with one chip per colour (the first chosen, its images shown), then the specifications', async () => {
    const files = grouped();
    const $ = await render(makeSite(files, { template: 'product-template' }));
    expect(blocks($)).toEqual(['carousel', 'viewers', 'files']);
    expect(texts($, '.showcase__variants .chip')).toEqual(['Red', 'Blue']);
    expect(texts($, '.showcase__variants [aria-pressed="true"]')).toEqual(['Red']);
    const slides = $('.carousel__slide');
    expect(slides.length).toBe(6);
    expect(slides.not('[hidden]').attr('data-name')).toBe(files[0]!.name);
    expect($('.carousel__dot').length).toBe(3); // the red images
    expect($('[data-carousel-count]').text()).toBe('1 / 3');
    expect($('.carousel [aria-label="Next image"]').length).toBe(1);
    // Every slide keeps its box: sized pictures, only the first loaded eagerly.
    expect(
      slides
        .find('img')
        .map((_, el) => $(el).attr('width'))
        .get(),
    ).toEqual(['3000', '3000', '2000', '3000', '3000', '2000']);
    expect(slides.find('img[loading="lazy"]').length).toBe(5);
    expect(islands($)).not.toContain('GalleryViewer');
    expect(texts($, '.block-heading__title')).toEqual(['Specifications']);
  });

  it('product without folders: every image in the carousel, no chips', async () => {
    const $ = await render(makeSite(images(3), { template: 'product-template' }));
    expect($('.chip').length).toBe(0);
    expect($('.carousel__dot').length).toBe(3);
  });

  it('product with engagement on: the images also in a gallery, where each has its controls', async () => {
    const settings = { ...DEFAULT_SITE_SETTINGS, enableFavorites: true };
    const $ = await render(makeSite(grouped(), { template: 'product-template', settings }));
    expect(blocks($)).toEqual(['carousel', 'viewers', 'gallery', 'files']);
  });

  it('case study: the description as the brief, every file as a numbered phase in name order, then the outcome', async () => {
    const files = [
      makeFile('03-final.pdf', {}, { pdfUrl: '/api/files/x/pdf', pages: 2 }),
      { ...makeImage(1), name: '02-sketch.jpg' },
      makeFile('01-brief.txt', {}, { text: { encoding: 'utf-8', firstLines: ['Brief'] } }),
    ];
    const $ = await render(makeSite(files, { template: 'case-study-template' }));
    expect($('.hero').attr('data-hero-kind')).toBe('brief');
    // The description is the brief, said once (the fixture's sub-line repeats it).
    expect($('.hero__description, .hero__sub').length).toBe(0);
    expect($('.brief__text').text()).toBe('Final selects from the October shoot.');
    expect(blocks($)).toEqual(['brief', 'phases', 'files']);
    expect(texts($, '.phases .section-step')).toEqual(['01', '02', '03']);
    expect(texts($, '.phases .section-title')).toEqual(['Phase 1: 01-brief.txt', 'Phase 2: 02-sketch.jpg', 'Phase 3: 03-final.pdf']);
    const picture = $('.phase__image img');
    expect(picture.attr('width')).toBe('3000');
    expect(picture.attr('height')).toBe('2000');
    expect($('#files-title').text()).toBe('Outcome & files');
  });

  it('client delivery: title and Download All up top, the file list with sizes first, previews after, the review asked for', async () => {
    const settings = { ...DEFAULT_SITE_SETTINGS, enableApprovals: true };
    const $ = await render(makeSite(grouped(), { template: 'client-delivery', settings }));
    expect($('.hero').attr('data-hero-kind')).toBe('delivery');
    const downloadAll = $('.hero__delivery a');
    expect(downloadAll.text()).toContain('Download All');
    expect(downloadAll.attr('href')).toBe('/api/sites/render-fixture/download');
    expect($('.hero__review').text()).toContain('Your review is requested.');
    expect(blocks($)).toEqual(['files', 'viewers']);
    expect($('#files-title').text()).toBe('Files in this delivery');
    expect($('.file__meta').first().text()).toBe('JPG · 2.29 MB');
    expect(texts($, '.block-heading__title')).toEqual(['Previews']);
    const off = await render(makeSite(grouped(), { template: 'client-delivery' }));
    expect(off('.hero__review').length).toBe(0);
  });

  it('every template renders an empty site with its empty state, and a site of documents only without an image hero', async () => {
    for (const template of TEMPLATE_IDS) {
      const empty = await render(makeSite([], { template }));
      expect(empty('.files__empty').text(), template).toBe('No files have been shared here yet.');
      const documents = await render(makeSite([makePdfFile('a.pdf', 2), makeTextFile()], { template }));
      expect(documents('.hero__backdrop').length, template).toBe(0);
      expect(documents('[data-carousel], .chip').length, template).toBe(0);
    }
  });

  it('a page loads only the scripts its template uses: the carousel script is on the product page alone', async () => {
    const files = grouped();
    for (const template of TEMPLATE_IDS) {
      const $ = await render(makeSite(files, { template }));
      const scripts = $('script')
        .map((_, el) => $(el).html() ?? '')
        .get()
        .join('\n');
      expect(scripts.includes('data-carousel'), template).toBe(template === 'product-template');
    }
  });
});

describe('when the link expires', () => {
  it('says the date and time in UTC before any script runs, with the instant for the browser to reword', async () => {
    const $ = await render({ ...makeSite(images(1)), expiresAt: '2026-12-12T23:30:00.000Z' });
    const line = $('[data-testid="site-expiry"]');
    expect(line.length).toBe(1);
    expect(line.text().trim()).toBe('Available until 12 December 2026, 23:30 UTC');
    expect(line.find('time').attr('datetime')).toBe('2026-12-12T23:30:00.000Z');
    expect(line.find('time').attr('data-expires-at')).toBe(String(Date.parse('2026-12-12T23:30:00Z')));
  });

  it('says nothing of expiry for a site without one', async () => {
    const $ = await render(makeSite(images(1)));
    expect($('[data-testid="site-expiry"]').length).toBe(0);
  });
});
