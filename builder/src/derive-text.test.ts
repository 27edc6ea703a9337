import { afterAll, describe, expect, it } from 'vitest';
import { deriveFile, chooseDerivation, type TDeriveFileOptions } from './derive-file.ts';
import { NOT_TEXT, summariseText, TEXT_MAX_LINE_CHARS, TEXT_READ_BYTES } from './derive-text.ts';
import { createPdfRenderer } from './pdf-renderer.ts';
import { MemoryStorage } from '@dropsite/testkit/builder/memory-storage';
import { addFile } from '@dropsite/testkit/builder/fixtures';

const renderer = createPdfRenderer();
const options: TDeriveFileOptions = { pdfRenderer: renderer };
afterAll(() => renderer.close());

describe('text derivation', () => {
  it('keeps the first lines of a UTF-8 file and counts all lines of a short one', async () => {
    const storage = new MemoryStorage();
    const csv = 'name,city\nÅsa,Malmö\nJosé,São Paulo\n';
    const file = await addFile(storage, 'people.csv', Buffer.from(csv), { type: 'text/csv' });
    const outcome = await deriveFile(storage, file, 'document', options);
    expect(outcome.metadata).toEqual({
      sha256: file.sha256,
      kind: 'document',
      text: { encoding: 'UTF-8', firstLines: ['name,city', 'Åsa,Malmö', 'José,São Paulo'], totalLines: 3 },
    });
    expect((await deriveFile(storage, file, 'document', options)).derived).toBe(false);
  });

  it('reads only the first 64 KB of a large log', async () => {
    const storage = new MemoryStorage();
    const lines = Array.from({ length: 100_000 }, (_, i) => `2025-01-01T00:00:00Z line ${i}`);
    const file = await addFile(storage, 'server.log', Buffer.from(lines.join('\n')));
    const ranges: Array<{ start: number; end: number } | undefined> = [];
    const get = storage.get.bind(storage);
    storage.get = (key, range) => {
      if (key === file.storageKey) ranges.push(range);
      return get(key, range);
    };
    const { metadata } = await deriveFile(storage, file, 'document', options);
    expect(ranges).toEqual([{ start: 0, end: TEXT_READ_BYTES - 1 }]);
    expect(metadata.text!.firstLines).toHaveLength(200);
    expect(metadata.text!.firstLines[199]).toBe('2025-01-01T00:00:00Z line 199');
    expect(metadata.text!.totalLines).toBeUndefined();
  });

  it('detects byte-order marks, UTF-16, and Windows-1252 text', () => {
    expect(summariseText(Buffer.from('\ufeffhello\r\nworld', 'utf8'), false)).toEqual({ encoding: 'UTF-8 (BOM)', firstLines: ['hello', 'world'], totalLines: 2 });
    expect(summariseText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\nwörld', 'utf16le')]), false)?.firstLines).toEqual(['héllo', 'wörld']);
    const latin = Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x35, 0x0a]); // 'Café €5' in Windows-1252
    expect(summariseText(latin, false)).toEqual({ encoding: 'Windows-1252', firstLines: ['Café €5'], totalLines: 1 });
  });

  it('does not treat a multi-byte character cut by the read as an encoding error', () => {
    const text = Buffer.from('ok\n€€€', 'utf8');
    const cut = text.subarray(0, text.length - 1);
    expect(summariseText(cut, true)).toEqual({ encoding: 'UTF-8', firstLines: ['ok'] });
  });

  it('cuts very long lines and gives binary files a download card with a reason', async () => {
    expect(summariseText(Buffer.from('x'.repeat(5000)), false)!.firstLines[0]).toHaveLength(TEXT_MAX_LINE_CHARS);
    const storage = new MemoryStorage();
    const binary = await addFile(storage, 'notes.txt', Buffer.from([0x00, 0x01, 0x02, 0xff, 0x00, 0x10]));
    const outcome = await deriveFile(storage, binary, 'document', options);
    expect(outcome.metadata.error).toBe(NOT_TEXT);
    const unknown = await addFile(storage, 'data.bin', Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256)));
    expect((await deriveFile(storage, unknown, 'other', options)).metadata.error).toBe(NOT_TEXT);
    // An unknown extension holding text is previewed as text.
    const script = await addFile(storage, 'deploy.sh', Buffer.from('#!/bin/sh\necho hi\n'));
    expect((await deriveFile(storage, script, 'other', options)).metadata.text?.firstLines).toEqual(['#!/bin/sh', 'echo hi']);
  });
});

describe('chooseDerivation', () => {
  it('maps kinds and extensions to the work the builder does', () => {
    expect(chooseDerivation({ name: 'a.jpg', type: 'image/jpeg' }, 'image')).toBe('image');
    expect(chooseDerivation({ name: 'logo.svg', type: 'image/svg+xml' }, 'image')).toBe('none');
    expect(chooseDerivation({ name: 'a.pdf', type: '' }, 'pdf')).toBe('pdf');
    expect(chooseDerivation({ name: 'deck.pptx', type: '' }, 'presentation')).toBe('office');
    expect(chooseDerivation({ name: 'deck.key', type: '' }, 'presentation')).toBe('office');
    expect(chooseDerivation({ name: 'letter.docx', type: '' }, 'document')).toBe('office');
    expect(chooseDerivation({ name: 'sheet.xlsx', type: '' }, 'document')).toBe('office');
    expect(chooseDerivation({ name: 'notes.md', type: '' }, 'document')).toBe('text');
    expect(chooseDerivation({ name: 'clip.mov', type: '' }, 'video')).toBe('video');
    expect(chooseDerivation({ name: 'song.mp3', type: '' }, 'audio')).toBe('audio');
    expect(chooseDerivation({ name: 'all.zip', type: '' }, 'archive')).toBe('zip');
    expect(chooseDerivation({ name: 'all.rar', type: '' }, 'archive')).toBe('unlisted-archive');
    expect(chooseDerivation({ name: 'thing', type: 'application/octet-stream' }, 'other')).toBe('text');
  });

  it('gives archives it cannot list a reason', async () => {
    const storage = new MemoryStorage();
    const rar = await addFile(storage, 'photos.rar', Buffer.from('Rar!\x1a\x07\x00'));
    const outcome = await deriveFile(storage, rar, 'archive', options);
    expect(outcome.metadata.error).toBe('Preview not available for .rar archives: download it to see what is inside.');
  });
});
