/**
 * Real files for the download tests: ZIPs made with yazl (the library the server streams with)
 * and read back with yauzl. PDFs, videos and presentations come from the builder's media fixtures.
 */
import yauzl from 'yauzl';
import yazl from 'yazl';

export { hasTool, makePdf, makePptx, makeVideo } from '../builder/media-fixtures.ts';

export interface TYazlEntry {
  name: string;
  data: Buffer | string;
  mode?: number;
  compress?: boolean;
}

/**
 * A ZIP made with yazl. yazl refuses '..' in names, so a hostile name is written under a
 * same-length placeholder and patched into the local and central headers afterwards.
 */
export async function makeYazlZip(entries: TYazlEntry[], hostile: Record<string, string> = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    const data = typeof entry.data === 'string' ? Buffer.from(entry.data) : entry.data;
    zip.addBuffer(data, entry.name, { mtime: new Date(Date.UTC(2025, 2, 1, 12, 0, 0)), ...(entry.mode ? { mode: entry.mode } : {}), compress: entry.compress ?? true });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  let bytes = Buffer.concat(chunks);
  for (const [placeholder, real] of Object.entries(hostile)) {
    if (Buffer.byteLength(placeholder) !== Buffer.byteLength(real)) throw new Error('A hostile name must be as long as its placeholder');
    bytes = Buffer.from(bytes.toString('latin1').split(placeholder).join(real), 'latin1');
  }
  return bytes;
}

/** Every entry of a ZIP, unpacked (directories left out). */
export async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zipfile = await yauzl.fromBufferPromise(bytes, { lazyEntries: true });
  const out = new Map<string, Buffer>();
  for await (const entry of zipfile.eachEntry()) {
    if (entry.fileName.endsWith('/')) continue;
    const stream = await zipfile.openReadStreamPromise(entry);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    out.set(entry.fileName, Buffer.concat(chunks));
  }
  return out;
}
