import { afterAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { deriveFile, type TDeriveFileOptions } from './derive-file.ts';
import { derivedKeys } from '@dropsite/shared';
import { NOT_A_PDF } from './derive-pdf.ts';
import { createPdfRenderer } from './pdf-renderer.ts';
import { MemoryStorage } from '@dropsite/testkit/builder/memory-storage';
import { addFile } from '@dropsite/testkit/builder/fixtures';
import { makePdf } from '@dropsite/testkit/builder/media-fixtures';

const renderer = createPdfRenderer();
const options: TDeriveFileOptions = { pdfRenderer: renderer };
afterAll(() => renderer.close());

describe('PDF derivation', () => {
  it('counts the pages and renders the first page as a 300 px WebP thumbnail', async () => {
    const storage = new MemoryStorage();
    const file = await addFile(storage, 'brief.pdf', makePdf(3));
    const outcome = await deriveFile(storage, file, 'pdf', options);

    expect(outcome.derived).toBe(true);
    expect(outcome.metadata.error).toBeUndefined();
    expect(outcome.metadata).toMatchObject({ sha256: file.sha256, kind: 'pdf', format: 'pdf', pages: 3 });
    const keys = derivedKeys(file.sha256);
    expect(outcome.metadata.thumbnail).toEqual({ key: keys.thumbnail, width: 300, height: 388, contentType: 'image/webp' });

    // The thumbnail is the real first page: white paper with the blue band the page draws near its top.
    const thumb = storage.objects.get(keys.thumbnail)!.body;
    const { data, info } = await sharp(thumb).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([300, 388]);
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
    const [r, g, b] = pixel(150, 65);
    expect(b).toBeGreaterThan(150);
    expect(r).toBeLessThan(80);
    expect(g).toBeLessThan(120);
    expect(pixel(150, 300)).toEqual([255, 255, 255]);
    expect(JSON.parse(storage.text(keys.meta))).toEqual(outcome.metadata);
  });

  it('keeps the whole first page at display size, 1200 px wide, for the viewer to show before PDF.js loads', async () => {
    const storage = new MemoryStorage();
    const file = await addFile(storage, 'brief.pdf', makePdf(2));
    const outcome = await deriveFile(storage, file, 'pdf', options);
    const keys = derivedKeys(file.sha256);
    // US Letter, 612 x 792 pt: the same proportions as the page PDF.js draws.
    expect(outcome.metadata.display).toEqual({ key: keys.display, width: 1200, height: 1553, contentType: 'image/webp' });
    const { data, info } = await sharp(storage.objects.get(keys.display)!.body).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([1200, 1553]);
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
    // The blue band near the top, as on the thumbnail (at 1200/300 of its position), and white paper below.
    const [r, , b] = pixel(600, 65 * 4);
    expect(b).toBeGreaterThan(150);
    expect(r).toBeLessThan(80);
    expect(pixel(600, 1200)).toEqual([255, 255, 255]);
  });

  it('derives again, once, a cached entry made before the first page was kept at display size', async () => {
    const storage = new MemoryStorage();
    const file = await addFile(storage, 'brief.pdf', makePdf(2));
    const first = await deriveFile(storage, file, 'pdf', options);
    const { display: _display, ...older } = first.metadata;
    const again = await deriveFile(storage, { ...file, metadata: older }, 'pdf', options);
    expect(again.derived).toBe(false); // meta.json already has it
    storage.objects.delete(derivedKeys(file.sha256).meta);
    const fromOldRow = await deriveFile(storage, { ...file, metadata: older }, 'pdf', options);
    expect(fromOldRow.derived).toBe(true);
    expect(fromOldRow.metadata.display?.width).toBe(1200);
  });

  it('answers the second time from the cache, and from the file row without reading storage', async () => {
    const storage = new MemoryStorage();
    const file = await addFile(storage, 'brief.pdf', makePdf(2));
    const first = await deriveFile(storage, file, 'pdf', options);
    const second = await deriveFile(storage, file, 'pdf', options);
    expect(second.derived).toBe(false);
    expect(second.metadata).toEqual(first.metadata);
    const reads = storage.getLog.length;
    const third = await deriveFile(storage, { ...file, metadata: first.metadata }, 'pdf', options);
    expect(third.derived).toBe(false);
    expect(storage.getLog.length).toBe(reads);
  });

  it("refuses a file without the %PDF signature with the spec's message, and caches that verdict", async () => {
    const storage = new MemoryStorage();
    const file = await addFile(storage, 'fake.pdf', Buffer.from('<html>not a pdf</html>'));
    const outcome = await deriveFile(storage, file, 'pdf', options);
    expect(outcome.metadata).toEqual({ sha256: file.sha256, kind: 'pdf', error: NOT_A_PDF });
    expect(NOT_A_PDF).toBe('This file is not a valid PDF document.');
    const again = await deriveFile(storage, file, 'pdf', options);
    expect(again.derived).toBe(false);
    expect(again.metadata.error).toBe(NOT_A_PDF);
  });

  it('degrades a damaged PDF, an oversized one and a slow one to a reason, never throwing', async () => {
    const storage = new MemoryStorage();
    const damaged = await addFile(storage, 'damaged.pdf', Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 0x41)]));
    const outcome = await deriveFile(storage, damaged, 'pdf', options);
    expect(outcome.metadata.error).toMatch(/^(This file is not a valid PDF document\.|Preview not available: )/);
    expect(outcome.metadata.pages).toBeUndefined();

    const big = await addFile(storage, 'big.pdf', makePdf(4));
    const tooBig = await deriveFile(storage, big, 'pdf', { ...options, pdf: { maxInputBytes: 100 } });
    expect(tooBig.metadata.error).toBe('Preview not available: this PDF is larger than the preview limit.');

    // Out of time: the worker is terminated, the failure is not cached, and the next render works.
    const slow = await addFile(storage, 'slow.pdf', makePdf(5));
    const timedOut = await deriveFile(storage, slow, 'pdf', { ...options, pdf: { timeoutMs: 1 } });
    expect(timedOut.metadata.error).toBe('Preview not available: this PDF took too long to read.');
    expect(await storage.head(derivedKeys(slow.sha256).meta)).toBeNull();
    const retried = await deriveFile(storage, slow, 'pdf', options);
    expect(retried.metadata.pages).toBe(5);
  });
});
