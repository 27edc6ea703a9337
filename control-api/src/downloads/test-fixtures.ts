/** Real files for the download tests: a hand-written PDF, ZIPs made with yazl, media made with ffmpeg and LibreOffice. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import yauzl from 'yauzl';
import yazl from 'yazl';

/** A valid PDF of `pages` pages. */
export function makePdf(pages: number): Buffer {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${4 + i * 2} 0 R`).join(' ')}] /Count ${pages} >>`, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'];
  for (let i = 0; i < pages; i++) {
    const content = `BT /F1 36 Tf 72 700 Td (Page ${i + 1}) Tj ET`;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`);
    objects.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  }
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

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

export function hasTool(command: string, args: string[] = ['-version']): boolean {
  const result = spawnSync(command, args, { stdio: 'ignore', timeout: 20_000 });
  return result.error === undefined && result.status === 0;
}

/** A 2 s 320x240 H.264 MP4 of the lavfi test pattern. */
export function makeVideo(): Buffer {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dropsite-video-'));
  try {
    const out = path.join(dir, 'clip.mp4');
    const result = spawnSync(
      'ffmpeg',
      ['-v', 'error', '-nostdin', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=2:size=320x240:rate=25', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', out],
      { encoding: 'utf8', timeout: 60_000 },
    );
    if (result.status !== 0) throw new Error(`ffmpeg failed: ${result.stderr}`);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A one-slide PPTX made by LibreOffice from a flat ODF presentation. */
export function makePptx(): Buffer {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dropsite-pptx-'));
  try {
    const source = path.join(dir, 'deck.fodp');
    writeFileSync(
      source,
      `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.presentation">
 <office:body><office:presentation>
  <draw:page draw:name="One"><draw:frame svg:x="2cm" svg:y="2cm" svg:width="20cm" svg:height="3cm"><draw:text-box><text:p>Launch plan</text:p></draw:text-box></draw:frame></draw:page>
 </office:presentation></office:body>
</office:document>`,
    );
    const result = spawnSync(
      'soffice',
      [`-env:UserInstallation=${pathToFileURL(path.join(dir, 'profile')).href}`, '--headless', '--norestore', '--convert-to', 'pptx', '--outdir', dir, source],
      { encoding: 'utf8', timeout: 120_000, env: { ...process.env, HOME: dir } },
    );
    if (result.status !== 0) throw new Error(`soffice failed: ${result.stderr}`);
    return readFileSync(path.join(dir, 'deck.pptx'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
