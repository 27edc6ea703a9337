/**
 * Archive entry names are shown in the tree and sent back as download names, so they get the
 * same cleaning as uploaded file names: no direction overrides (which disguise an extension,
 * 'invoice\u202Efdp.exe' shows as 'invoiceexe.pdf'), and no line breaks, whether written as
 * UTF-8 or as the CP437 bytes older ZIP tools use (which decode to look-alike glyphs).
 */
import { describe, expect, it } from 'vitest';
import { uploadKey } from '@dropsite/shared';
import { openZipArchive } from './zip-archive.ts';
import { MemoryStorage } from '@dropsite/testkit/builder/memory-storage';
import { makeZip, type TZipFixtureEntry } from '@dropsite/testkit/builder/media-fixtures';

/** makeZip marks every name UTF-8; these names are then rewritten as raw CP437 bytes, flag cleared. */
function makeCp437Zip(entries: TZipFixtureEntry[], raw: Record<string, Buffer>): Buffer {
  let bytes = makeZip(entries);
  for (const [placeholder, real] of Object.entries(raw)) {
    if (placeholder.length !== real.length) throw new Error('same length only');
    bytes = Buffer.from(bytes.toString('latin1').split(placeholder).join(real.toString('latin1')), 'latin1');
  }
  for (let i = 0; i + 4 <= bytes.length; i++) {
    const signature = bytes.readUInt32LE(i);
    if (signature === 0x04034b50) bytes.writeUInt16LE(bytes.readUInt16LE(i + 6) & ~0x0800, i + 6);
    if (signature === 0x02014b50) bytes.writeUInt16LE(bytes.readUInt16LE(i + 8) & ~0x0800, i + 8);
  }
  return bytes;
}

async function open(bytes: Buffer) {
  const storage = new MemoryStorage();
  await storage.put(uploadKey('zip-fixture', 'archive'), bytes);
  return openZipArchive(storage, uploadKey('zip-fixture', 'archive'), bytes.length);
}

describe('archive entry names', () => {
  it('drops direction overrides and isolates from names in the tree, and the cleaned path extracts', async () => {
    const archive = await open(
      makeZip([
        { name: 'docs/invoice\u202Efdp.exe', data: 'MZ' },
        { name: 'docs/\u2067report\u2069.txt', data: 'fine' },
        { name: 'cafe\u0301/menu.txt', data: 'NFC' },
      ]),
    );
    expect([...archive.files.keys()].sort()).toEqual(['café/menu.txt', 'docs/invoicefdp.exe', 'docs/report.txt']);
    const text = JSON.stringify(archive.summary.entries);
    expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200e\u200f]/);
    const chunks: Buffer[] = [];
    for await (const chunk of await archive.openEntry('docs/invoicefdp.exe')) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('MZ');
    archive.close();
  });

  it('leaves out CP437 names holding line breaks or other control bytes, which would show as glyphs', async () => {
    const archive = await open(
      makeCp437Zip(
        [
          { name: 'aXXb.txt', data: 'line break' },
          { name: 'cYd.txt', data: 'delete' },
          { name: 'cafE.txt', data: 'honest CP437' },
        ],
        { aXXb: Buffer.from([0x61, 0x0d, 0x0a, 0x62]), cYd: Buffer.from([0x63, 0x7f, 0x64]), cafE: Buffer.from([0x63, 0x61, 0x66, 0x82]) },
      ),
    );
    // 0x82 is é in CP437; the names decode as CP437 because the UTF-8 flag is clear.
    expect([...archive.files.keys()]).toEqual(['café.txt']);
    expect(archive.summary.skippedEntries).toBe(2);
    expect(JSON.stringify(archive.summary.entries)).not.toMatch(/[◙♪⌂]/);
    archive.close();
  });
});
