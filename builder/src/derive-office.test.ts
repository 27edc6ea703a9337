import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { deriveFile, type TDeriveFileOptions } from './derive-file.ts';
import { derivedKeys, derivedPdfKey } from '@dropsite/shared';
import { NO_LIBREOFFICE } from './derive-office.ts';
import { createPdfRenderer } from './pdf-renderer.ts';
import { MemoryStorage } from '@dropsite/testkit/builder/memory-storage';
import { addFile } from '@dropsite/testkit/builder/fixtures';
import { hasTool, makeOdpLinkingTo, makePptx, requireTool } from '@dropsite/testkit/builder/media-fixtures';

const renderer = createPdfRenderer();
const options: TDeriveFileOptions = { pdfRenderer: renderer };
afterAll(() => renderer.close());

/** A folder of this test's own for conversions, to check that nothing is left in it. */
const newScratchDir = () => mkdtempSync(path.join(os.tmpdir(), 'dropsite-office-test-'));

describe('office documents without LibreOffice', () => {
  it('say LibreOffice is missing, and try again next time', async () => {
    const storage = new MemoryStorage();
    const file = await addFile(storage, 'deck.pptx', Buffer.from('PK\x03\x04 pretend'));
    const scratchDir = newScratchDir();
    const outcome = await deriveFile(storage, file, 'presentation', { ...options, office: { sofficePath: '/nonexistent/soffice', scratchDir } });
    expect(outcome.metadata).toEqual({ sha256: file.sha256, kind: 'presentation', error: NO_LIBREOFFICE });
    expect(NO_LIBREOFFICE).toBe('Preview not available: LibreOffice is not installed on this server.');
    expect(await storage.head(derivedKeys(file.sha256).meta)).toBeNull();
    expect(readdirSync(scratchDir)).toEqual([]); // the conversion's folder went away
    rmSync(scratchDir, { recursive: true });
  });

  it('explain that Keynote files cannot be converted', async () => {
    const storage = new MemoryStorage();
    const file = await addFile(storage, 'pitch.key', Buffer.from('keynote bytes'));
    const outcome = await deriveFile(storage, file, 'presentation', options);
    expect(outcome.metadata.error).toBe('Preview not available: Keynote presentations cannot be converted on this server.');
  });
});

// LibreOffice runs only inside bubblewrap's sandbox: both are needed to convert.
const haveConverter = requireTool('LibreOffice', hasTool('soffice', ['--version'])) && requireTool('bubblewrap', hasTool('bwrap', ['--version']));

describe.runIf(haveConverter)('office documents with LibreOffice', () => {
  let pptx: Buffer;
  beforeAll(() => {
    pptx = makePptx();
  }, 120_000);

  it('converts a presentation to PDF, stores it, and counts its pages with a first-slide thumbnail', async () => {
    const storage = new MemoryStorage();
    const file = await addFile(storage, 'Quarterly review.pptx', pptx);
    const scratchDir = newScratchDir();
    const outcome = await deriveFile(storage, file, 'presentation', { ...options, office: { scratchDir } });

    expect(outcome.metadata.error).toBeUndefined();
    expect(outcome.metadata).toMatchObject({ kind: 'presentation', format: 'pptx', pages: 2 });
    const pdfKey = derivedPdfKey(file.sha256);
    expect(pdfKey).toBe(`derived/${file.sha256}/document.pdf`);
    const pdf = storage.objects.get(pdfKey)!;
    expect(pdf.contentType).toBe('application/pdf');
    expect(pdf.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(outcome.metadata.pdf).toEqual({ key: pdfKey, size: pdf.body.length });
    expect(outcome.metadata.thumbnail?.width).toBe(300);
    expect(outcome.metadata.thumbnail!.height).toBeLessThan(300); // slides are landscape
    expect(readdirSync(scratchDir)).toEqual([]);
    rmSync(scratchDir, { recursive: true });

    expect((await deriveFile(storage, file, 'presentation', options)).derived).toBe(false);
  }, 120_000);

  it('converts a document that links a picture by URL without fetching it', async () => {
    let hits = 0;
    const server = http.createServer((_req, res) => {
      hits++;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    try {
      const { port } = server.address() as AddressInfo;
      const storage = new MemoryStorage();
      const file = await addFile(storage, 'linked.odp', makeOdpLinkingTo(`http://127.0.0.1:${port}/internal/secret.png`));
      const outcome = await deriveFile(storage, file, 'presentation', options);
      expect(outcome.metadata.error).toBeUndefined();
      expect(outcome.metadata.pages).toBe(1);
      expect(hits).toBe(0);
    } finally {
      server.close();
    }
  }, 120_000);
});
