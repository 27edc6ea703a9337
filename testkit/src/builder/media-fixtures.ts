/**
 * Real inputs for the derivation tests: PDFs written by hand, videos and audio made by ffmpeg
 * (lavfi test sources), presentations made by LibreOffice, ZIP archives written byte by byte
 * (so tests can make the hostile ones no ZIP library would: traversal names, symlinks, lying
 * sizes, overlapping entries).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { crc32, deflateRawSync } from 'node:zlib';

/** A valid PDF with `pages` US-letter pages, each saying 'Page n' in Helvetica. */
export function makePdf(pages = 3): Buffer {
  const objects: string[] = [];
  const kids = Array.from({ length: pages }, (_, i) => `${4 + i * 2} 0 R`).join(' ');
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  for (let i = 0; i < pages; i++) {
    const content = `0.1 0.3 0.8 rg 72 600 468 120 re f BT /F1 36 Tf 72 700 Td (Page ${i + 1}) Tj ET`;
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

export function hasTool(command: string, args: string[] = ['-version']): boolean {
  const result = spawnSync(command, args, { stdio: 'ignore', timeout: 20_000 });
  return result.error === undefined && result.status === 0;
}

/**
 * Whether a suite can use a tool. Locally a missing tool skips with a printed reason; on CI
 * (CI=true) it is an error, so a pipeline cannot pass by skipping (like requireService).
 */
export function requireTool(name: string, available: boolean): boolean {
  if (available) return true;
  const reason = `${name} is not installed`;
  if (process.env.CI === 'true') throw new Error(`${reason}; CI=true requires it instead of skipping the tests that use it`);
  console.warn(`Skipping tests that need ${name}: ${reason}`);
  return false;
}

function runFfmpeg(args: string[], ext: string): Buffer {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dropsite-media-'));
  try {
    const out = path.join(dir, `out.${ext}`);
    const result = spawnSync('ffmpeg', ['-v', 'error', '-nostdin', '-y', ...args, out], { encoding: 'utf8', timeout: 60_000 });
    if (result.status !== 0) throw new Error(`ffmpeg failed: ${result.stderr}`);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A 640x360, 25 fps H.264 + AAC MP4 of the lavfi test pattern with a 440 Hz tone. */
export function makeVideo(seconds = 2, size = '640x360'): Buffer {
  return runFfmpeg(
    [
      '-f',
      'lavfi',
      '-i',
      `testsrc=duration=${seconds}:size=${size}:rate=25`,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:duration=${seconds}`,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
      '-movflags',
      '+faststart',
    ],
    'mp4',
  );
}

/** A mono AAC tone in an M4A container. */
export function makeAudio(seconds = 1.5): Buffer {
  return runFfmpeg(['-f', 'lavfi', '-i', `sine=frequency=660:duration=${seconds}`, '-c:a', 'aac'], 'm4a');
}

/** A two-slide presentation: a flat ODF file converted to PPTX by LibreOffice. */
export function makePptx(): Buffer {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dropsite-pptx-'));
  try {
    const source = path.join(dir, 'deck.fodp');
    writeFileSync(
      source,
      `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.presentation">
 <office:body><office:presentation>
  <draw:page draw:name="One"><draw:frame svg:x="2cm" svg:y="2cm" svg:width="20cm" svg:height="3cm"><draw:text-box><text:p>Quarterly review</text:p></draw:text-box></draw:frame></draw:page>
  <draw:page draw:name="Two"><draw:frame svg:x="2cm" svg:y="2cm" svg:width="20cm" svg:height="3cm"><draw:text-box><text:p>Next steps</text:p></draw:text-box></draw:frame></draw:page>
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

export interface TZipFixtureEntry {
  name: string;
  data?: Buffer | string;
  /** Default 'deflate' for files. */
  method?: 'store' | 'deflate';
  /** Unix mode stored in the external attributes, e.g. 0o120777 for a symbolic link. */
  mode?: number;
  /** Claim this uncompressed size in the central directory instead of the real one. */
  declaredSize?: number;
  /** Point the central directory record at the local header of this earlier entry (overlap). */
  sameDataAs?: number;
  modified?: Date;
}

/** A ZIP written byte by byte: UTF-8 names, Unix 'made by', DOS times in UTC. */
export function makeZip(entries: TZipFixtureEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  const offsets: number[] = [];
  const records: Array<{ crc: number; packedLength: number }> = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const data = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : (entry.data ?? Buffer.alloc(0));
    const isDir = entry.name.endsWith('/');
    const method = isDir || entry.method === 'store' ? 0 : 8;
    const packed = method === 8 ? deflateRawSync(data) : data;
    const crc = crc32(data);
    const date = entry.modified ?? new Date(Date.UTC(2025, 0, 15, 9, 30, 0));
    const dosTime = (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2);
    const dosDate = ((date.getUTCFullYear() - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate();

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(dosTime, 10);
    local.writeUInt16LE(dosDate, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);

    const target = entry.sameDataAs;
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(target === undefined ? method : 8, 10);
    central.writeUInt16LE(dosTime, 12);
    central.writeUInt16LE(dosDate, 14);
    central.writeUInt32LE(target === undefined ? crc : records[target]!.crc, 16);
    central.writeUInt32LE(target === undefined ? packed.length : records[target]!.packedLength, 20);
    central.writeUInt32LE(Math.min(entry.declaredSize ?? data.length, 0xffffffff), 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((entry.mode ?? (isDir ? 0o040755 : 0o100644)) << 16) >>> 0, 38);
    central.writeUInt32LE(target === undefined ? offset : offsets[target]!, 42);

    offsets.push(offset);
    records.push({ crc, packedLength: packed.length });
    if (target === undefined) {
      locals.push(local, name, packed);
      offset += local.length + name.length + packed.length;
    }
    centrals.push(central, name);
  }
  const centralDirectory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralDirectory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralDirectory, end]);
}

/** A one-slide ODP (written by hand) whose image is only linked, by URL: LibreOffice would fetch it. */
export function makeOdpLinkingTo(url: string): Buffer {
  const content = `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" office:version="1.3">
 <office:body><office:presentation>
  <draw:page draw:name="One"><draw:frame svg:x="2cm" svg:y="2cm" svg:width="10cm" svg:height="3cm"><draw:text-box><text:p>Linked picture</text:p></draw:text-box></draw:frame>
  <draw:frame svg:x="2cm" svg:y="6cm" svg:width="10cm" svg:height="10cm"><draw:image xlink:href="${url}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></draw:page>
 </office:presentation></office:body>
</office:document-content>`;
  return makeOdfPackage('application/vnd.oasis.opendocument.presentation', content);
}

/** An OpenDocument package (ZIP) of the given type holding only `content.xml`. */
export function makeOdfPackage(mediaType: string, contentXml: string): Buffer {
  const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">
 <manifest:file-entry manifest:full-path="/" manifest:media-type="${mediaType}"/>
 <manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>
</manifest:manifest>`;
  return makeZip([
    { name: 'mimetype', data: mediaType, method: 'store' },
    { name: 'content.xml', data: contentXml },
    { name: 'META-INF/manifest.xml', data: manifest },
  ]);
}
