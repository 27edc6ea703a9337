import { describe, expect, it } from 'vitest';
import { contactHref, displayImageWidth } from './site.ts';
import { chooseFileViewer, pdfUrlOf } from './viewer-choice.ts';
import { colorModeStorageKey, createColorModeBootScript } from './preferences.ts';
import { makeFile, makeVideoFile, makeZipFile } from '@dropsite/testkit/site-template';

describe('contact links', () => {
  it('keeps http(s) links, expands handles and bare domains, drops everything else', () => {
    expect(contactHref('website', 'https://mira.example.com/work')).toBe('https://mira.example.com/work');
    expect(contactHref('website', 'mira.example.com')).toBe('https://mira.example.com');
    expect(contactHref('twitter', '@mira')).toBe('https://x.com/mira');
    expect(contactHref('linkedin', 'mira-solberg')).toBe('https://www.linkedin.com/in/mira-solberg');
    expect(contactHref('github', 'github.com/mira')).toBe('https://github.com/mira');
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', 'mira solberg', '', '//evil.example', 'ftp://x.test']) {
      expect(contactHref('website', bad), bad).toBeNull();
    }
  });
});

describe('viewer choice for files', () => {
  it('sends each kind to its viewer, or to the download card when no preview exists', () => {
    expect(chooseFileViewer(makeFile('a.pdf'))).toBe('pdf');
    expect(chooseFileViewer(makeFile('deck.pptx', {}, { pdfUrl: '/api/files/x/pdf' }))).toBe('pdf');
    expect(chooseFileViewer(makeFile('deck.key'))).toBe('download');
    expect(chooseFileViewer(makeFile('report.docx', {}, { pdfUrl: '/api/files/x/pdf' }))).toBe('pdf');
    expect(chooseFileViewer(makeFile('notes.txt'))).toBe('text');
    expect(chooseFileViewer(makeFile('letter.docx', {}, { text: { encoding: 'utf-8', firstLines: ['Dear'] } }))).toBe('text');
    expect(chooseFileViewer(makeFile('sheet.xlsx'))).toBe('download');
    expect(chooseFileViewer(makeVideoFile())).toBe('video');
    expect(chooseFileViewer(makeFile('clip.avi'))).toBe('download');
    expect(chooseFileViewer(makeZipFile())).toBe('archive');
    expect(chooseFileViewer(makeFile('old.rar'))).toBe('download');
    expect(chooseFileViewer(makeFile('song.mp3'))).toBe('audio');
    expect(chooseFileViewer(makeFile('mystery.bin'))).toBe('download');
  });

  it('loads a PDF from its rendering when there is one, else from the file', () => {
    expect(pdfUrlOf(makeFile('a.pdf', { url: '/f?mode=preview' }))).toBe('/f?mode=preview');
    expect(pdfUrlOf(makeFile('a.pptx', {}, { pdfUrl: '/api/files/a/pdf' }))).toBe('/api/files/a/pdf');
    expect(pdfUrlOf(makeFile('a.pptx'))).toBeNull();
  });

  it('knows the display copy width: the original fitted into 1600 px', () => {
    expect(displayImageWidth({ width: 4000, height: 3000 })).toBe(1600);
    expect(displayImageWidth({ width: 2000, height: 3000 })).toBe(1067);
    expect(displayImageWidth({ width: 800, height: 600 })).toBe(800);
    expect(displayImageWidth({ width: null, height: null })).toBeNull();
  });
});

describe('the light/dark boot script', () => {
  function runBoot(stored: Record<string, string>, storageThrows = false) {
    const attributes: Record<string, string> = {};
    const document = { documentElement: { setAttribute: (name: string, value: string) => (attributes[name] = value) } };
    const window = {
      get localStorage() {
        if (storageThrows) throw new Error('SecurityError');
        return { getItem: (key: string) => stored[key] ?? null };
      },
    };
    new Function('document', 'window', createColorModeBootScript('harbour', 'nature'))(document, window);
    return attributes;
  }

  it("applies the visitor's pick for this site in the site's style, and nothing else", () => {
    expect(runBoot({ [colorModeStorageKey('harbour')]: 'dark' })).toEqual({ 'data-theme': 'nature-dark' });
    expect(runBoot({ [colorModeStorageKey('harbour')]: 'light' })).toEqual({ 'data-theme': 'nature-light' });
    // Another site's pick, a stored style or layout of earlier versions, or junk: the creator's look stays.
    expect(runBoot({ [colorModeStorageKey('other')]: 'dark' })).toEqual({});
    expect(runBoot({ 'dropsite-theme': 'creative-dark', 'dropsite-hero-layout': 'split' })).toEqual({});
    expect(runBoot({ [colorModeStorageKey('harbour')]: 'creative-dark' })).toEqual({});
    expect(runBoot({}, true)).toEqual({});
  });
});
