import { describe, expect, it } from 'vitest';
import { describeFileType, detectFileKind } from './file-kind.ts';
import { BROWSER_IMAGE_TYPES, FILE_ICON_PATHS, FILE_KINDS, FILE_TYPES, fileIconOf, fileTypeOf, isShownInBrowserAs, servedTypeOf } from './file-types.ts';
import { chooseFileViewer } from './viewer.ts';

describe('the file-type catalogue', () => {
  it('serves inline only what a browser shows without running it, as the type of its extension', () => {
    expect(servedTypeOf('photo.JPG')).toBe('image/jpeg');
    expect(servedTypeOf('brief.pdf')).toBe('application/pdf');
    expect(servedTypeOf('clip.mov')).toBe('video/quicktime');
    expect(servedTypeOf('song.m4a')).toBe('audio/mp4');
    expect(servedTypeOf('notes.md')).toBe('text/plain; charset=utf-8');
    for (const name of ['logo.svg', 'page.html', 'app.js', 'feed.xml', 'film.mkv', 'scan.tiff', 'photo.heic', 'deck.pptx', 'README', 'x.constructor']) {
      expect(servedTypeOf(name), name).toBeNull();
    }
  });

  it('knows which images a browser displays as they are', () => {
    expect([...BROWSER_IMAGE_TYPES].sort()).toEqual(['image/avif', 'image/bmp', 'image/gif', 'image/jpeg', 'image/png', 'image/webp']);
    expect(isShownInBrowserAs('a.webp', 'image')).toBe(true);
    expect(isShownInBrowserAs('a.tif', 'image')).toBe(false);
    expect(isShownInBrowserAs('a.mp3', 'video')).toBe(false);
  });

  it('gives every row a kind, a derivation and an icon with a drawing', () => {
    for (const [ext, row] of Object.entries(FILE_TYPES)) {
      expect(FILE_KINDS, ext).toContain(row.kind);
      expect(FILE_ICON_PATHS[fileIconOf(`x.${ext}`, row.kind)], ext).toMatch(/^M/);
      expect(detectFileKind(`x.${ext}`), ext).toBe(row.kind);
    }
    expect(fileTypeOf('x.svg')?.derivation).toBe('none');
    expect(fileTypeOf('x.zip')?.derivation).toBe('zip');
    expect(fileTypeOf('x.docx')?.derivation).toBe('office');
    expect(fileIconOf('mystery.bin', 'other')).toBe('other');
  });

  it('labels a file from its row: format and noun', () => {
    expect(describeFileType('scan.tif')).toBe('TIFF image');
    expect(describeFileType('data.csv')).toBe('CSV spreadsheet');
    expect(describeFileType('sheet.ods')).toBe('OpenDocument spreadsheet');
    expect(describeFileType('show.pps', 'application/vnd.ms-powerpoint')).toBe('PPS presentation');
    expect(describeFileType('archive.tgz')).toBe('TAR.GZ archive');
  });

  it('chooses the viewer from the row: browser-playable media play, the others download', () => {
    const file = (name: string) => ({ name, kind: detectFileKind(name), details: {} });
    expect(chooseFileViewer(file('clip.webm'))).toBe('video');
    expect(chooseFileViewer(file('clip.mkv'))).toBe('download');
    expect(chooseFileViewer(file('song.flac'))).toBe('audio');
    expect(chooseFileViewer(file('notes.log'))).toBe('text');
    expect(chooseFileViewer(file('page.html'))).toBe('download');
  });

  it('knows fonts: served for the browser to draw, labelled, shown in the font viewer, nothing derived', () => {
    expect(servedTypeOf('brand.woff2')).toBe('font/woff2');
    expect(detectFileKind('brand.otf')).toBe('font');
    expect(detectFileKind('brand', 'font/ttf')).toBe('font');
    expect(detectFileKind('brand', 'application/x-font-ttf')).toBe('font');
    expect(describeFileType('brand.woff2')).toBe('WOFF2 font');
    expect(fileTypeOf('brand.ttf')?.derivation).toBe('none');
    expect(fileIconOf('brand.ttf', 'font')).toBe('font');
    expect(chooseFileViewer({ name: 'brand.ttf', kind: 'font', details: {} })).toBe('font');
    // A font named without its extension cannot be served for drawing: it downloads.
    expect(chooseFileViewer({ name: 'brand', kind: 'font', details: {} })).toBe('download');
  });
});
