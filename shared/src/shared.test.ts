import { describe, expect, it } from 'vitest';
import {
  chooseGalleryViewer,
  confirmsTitle,
  describeFileType,
  detectFileKind,
  formatBytes,
  generateSlug,
  isValidSlug,
  planViewerSections,
  sanitizeFileName,
  titleFromFileName,
  ZUploadFormSchema,
} from './index.ts';
import { randomBytes } from 'node:crypto';

describe('file kind detection', () => {
  it('detects by extension first, then MIME type', () => {
    expect(detectFileKind('photo.JPG')).toBe('image');
    expect(detectFileKind('deck.pptx')).toBe('presentation');
    expect(detectFileKind('deck.key')).toBe('presentation');
    expect(detectFileKind('doc.pdf', 'image/png')).toBe('pdf');
    expect(detectFileKind('clip', 'video/mp4')).toBe('video');
    expect(detectFileKind('bundle.zip')).toBe('archive');
    expect(detectFileKind('notes.txt')).toBe('document');
    expect(detectFileKind('mystery.bin')).toBe('other');
  });
});

describe('file type names', () => {
  it('names a file’s type in words, from its extension, else its MIME type', () => {
    expect(describeFileType('photo.JPG', 'image/jpeg')).toBe('JPEG image');
    expect(describeFileType('photo.png')).toBe('PNG image');
    expect(describeFileType('brief.pdf', 'application/pdf')).toBe('PDF document');
    expect(describeFileType('cut.mp4')).toBe('MP4 video');
    expect(describeFileType('all.zip')).toBe('ZIP archive');
    expect(describeFileType('song.mp3')).toBe('MP3 audio');
    expect(describeFileType('deck.pptx')).toBe('PowerPoint presentation');
    expect(describeFileType('budget.xlsx')).toBe('Excel spreadsheet');
    expect(describeFileType('notes.md')).toBe('Markdown document');
    expect(describeFileType('scan', 'image/jpeg')).toBe('JPEG image');
    expect(describeFileType('clip', 'video/quicktime')).toBe('QuickTime video');
    expect(describeFileType('sheet', 'application/vnd.ms-excel')).toBe('File');
    expect(describeFileType('mystery.bin')).toBe('BIN file');
    expect(describeFileType('README')).toBe('File');
  });
});

describe('delete confirmation', () => {
  it('accepts the title typed with ordinary hyphens and spaces, and nothing else', () => {
    expect(confirmsTitle('Smith-Jones', 'Smith–Jones')).toBe(true);
    expect(confirmsTitle('Smith - Jones', 'Smith — Jones')).toBe(true);
    expect(confirmsTitle('  Autumn   Wedding ', 'Autumn\u00a0Wedding')).toBe(true);
    expect(confirmsTitle('Smith−Jones', 'Smith-Jones')).toBe(true);
    expect(confirmsTitle('smith-jones', 'Smith-Jones')).toBe(false);
    expect(confirmsTitle('SmithJones', 'Smith-Jones')).toBe(false);
    expect(confirmsTitle('', 'Smith-Jones')).toBe(false);
  });
});

describe('viewer choice', () => {
  it('uses the gallery thresholds 1, 2-6, 7-20, more than 20, 0', () => {
    expect(chooseGalleryViewer(0)).toBe('fallback');
    expect(chooseGalleryViewer(1)).toBe('single');
    expect(chooseGalleryViewer(2)).toBe('grid');
    expect(chooseGalleryViewer(6)).toBe('grid');
    expect(chooseGalleryViewer(7)).toBe('masonry');
    expect(chooseGalleryViewer(20)).toBe('masonry');
    expect(chooseGalleryViewer(21)).toBe('lightbox');
  });

  it('groups images into one gallery and gives every other file its own viewer', () => {
    const files = (['a.jpg', 'brief.pdf', 'b.png', 'teaser.mp4', 'mystery.bin'] as const).map((name) => ({ name, kind: detectFileKind(name), details: {} }));
    const sections = planViewerSections(files);
    expect(sections.map((s) => s.viewer)).toEqual(['gallery', 'pdf', 'video', 'download']);
    expect(sections[0]?.files).toHaveLength(2);
  });
});

describe('slugs', () => {
  it('generates url-safe slugs of at least 8 characters that validate', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const slug = generateSlug((n) => randomBytes(n));
      expect(slug).toMatch(/^[a-z0-9]{8,}$/);
      expect(isValidSlug(slug)).toBe(true);
      seen.add(slug);
    }
    expect(seen.size).toBe(200);
  });

  it('refuses reserved and lookalike slugs', () => {
    for (const bad of ['api', 'dashboard', '..', '%2e%2e', 'ABCDEFGH', 'short', 'has space1']) expect(isValidSlug(bad)).toBe(false);
  });
});

describe('file names', () => {
  it('keeps only a safe display name', () => {
    expect(sanitizeFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFileName('..\\x.png')).toBe('x.png');
    expect(sanitizeFileName('invoice\u202Egpj.exe')).toBe('invoicegpj.exe');
    expect(sanitizeFileName('.htaccess')).toBe('htaccess');
    expect(sanitizeFileName('a\u0000.png')).toBe('a.png');
    expect(sanitizeFileName('')).toBe('file');
    const long = sanitizeFileName(`${'x'.repeat(1000)}.jpeg`);
    expect(long.length).toBe(255);
    expect(long.endsWith('.jpeg')).toBe(true);
  });

  it('suggests a title from the first file name', () => {
    expect(titleFromFileName('summer_wedding-final.jpg')).toBe('Summer Wedding Final');
    expect(titleFromFileName('brand guidelines v2.pdf')).toBe('Brand Guidelines V2');
  });

  it('formats sizes with up to two decimals', () => {
    expect(formatBytes(0)).toBe('0 Bytes');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(2.4 * 1024 * 1024)).toBe('2.4 MB');
  });
});

describe('upload form schema', () => {
  it('accepts the regular publish fields and applies defaults', () => {
    const form = ZUploadFormSchema.parse({ title: ' Wedding ', settings: '{"enableComments":true}', filesMetadata: '[]', template: '' });
    expect(form.title).toBe('Wedding');
    expect(form.template).toBe('universal');
    expect(form.settings).toMatchObject({ enableComments: true, enableAnalytics: true, enableFavorites: false });
    expect(form.password).toBeUndefined();
  });

  it('refuses a blank title and settings that are not JSON', () => {
    expect(ZUploadFormSchema.safeParse({ title: '   ' }).success).toBe(false);
    expect(ZUploadFormSchema.safeParse({ title: 'x', settings: '{nope' }).success).toBe(false);
  });
});
