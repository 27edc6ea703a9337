/** Helpers shared by the benchmarks: temp runtimes, camera-like photos, a small PDF, figures. */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { crc32, deflateRawSync } from 'node:zlib';
import sharp from 'sharp';
import { createRuntime, loadConfig, type TRuntime } from '@dropsite/control-api';

export async function startEmbeddedRuntime(extraEnv: Record<string, string> = {}): Promise<{ runtime: TRuntime; dataDir: string; dispose(): Promise<void> }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-bench-'));
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0', ...extraEnv }, dataDir);
  const runtime = await createRuntime(config, { runBuilder: true });
  return {
    runtime,
    dataDir,
    async dispose() {
      await runtime.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A camera-sized JPEG (default 4000x3000) with gradients and grain, so it compresses like a photo (a few MB). */
export async function makeCameraJpeg(seed: number, width = 4000, height = 3000): Promise<Buffer> {
  const small = Buffer.alloc(400 * 300 * 3);
  let x = seed * 2654435761;
  for (let i = 0; i < small.length; i += 3) {
    const p = i / 3;
    const px = p % 400;
    const py = Math.floor(p / 400);
    x = (x * 1103515245 + 12345) >>> 0;
    const grain = (x >>> 24) % 40;
    small[i] = (px * 0.6 + seed * 37 + grain) & 255;
    small[i + 1] = (py * 0.8 + grain) & 255;
    small[i + 2] = ((px + py) * 0.3 + 90 + grain) & 255;
  }
  const noise = await sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 18 } } }).raw().toBuffer();
  const base = await sharp(small, { raw: { width: 400, height: 300, channels: 3 } }).resize(width, height, { kernel: 'cubic' }).raw().toBuffer();
  for (let i = 0; i < base.length; i++) base[i] = Math.max(0, Math.min(255, base[i]! + ((noise[i]! - 128) >> 1)));
  return sharp(base, { raw: { width, height, channels: 3 } }).jpeg({ quality: 88 }).toBuffer();
}

/** A valid multi-page PDF written by hand (text on each page). */
export function makePdf(pages = 3): Buffer {
  const objects: string[] = [];
  const kids = Array.from({ length: pages }, (_, i) => `${4 + i * 2} 0 R`).join(' ');
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
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

/**
 * The same photo with a different JPEG comment: other bytes and content hash, the same
 * decoding work, so every run derives afresh instead of hitting the cache.
 */
export function withJpegComment(jpeg: Buffer, text: string): Buffer {
  const body = Buffer.from(text, 'utf8');
  const segment = Buffer.alloc(4 + body.length);
  segment[0] = 0xff;
  segment[1] = 0xfe;
  segment.writeUInt16BE(body.length + 2, 2);
  body.copy(segment, 4);
  return Buffer.concat([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]);
}

/** A valid ZIP archive (deflated entries), written by hand like makePdf. */
export function makeZip(entries: Array<{ name: string; data: Buffer | string }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  // 2025-01-01 12:00:00 in MS-DOS date and time.
  const dosTime = (12 << 11) | (0 << 5) | 0;
  const dosDate = ((2025 - 1980) << 9) | (1 << 5) | 1;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const data = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : entry.data;
    const packed = deflateRawSync(data);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(dosTime, 10);
    local.writeUInt16LE(dosDate, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by
    central.writeUInt16LE(20, 6); // needed
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(dosTime, 12);
    central.writeUInt16LE(dosDate, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const centralDir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralDir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralDir, end]);
}

/** Samples the resident set size every `intervalMs` until stopped; answers the peak and the start in bytes. */
export function startRssSampler(intervalMs = 50): { stop(): { startBytes: number; peakBytes: number; samples: number } } {
  const startBytes = process.memoryUsage.rss();
  let peakBytes = startBytes;
  let samples = 1;
  const timer = setInterval(() => {
    peakBytes = Math.max(peakBytes, process.memoryUsage.rss());
    samples++;
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      peakBytes = Math.max(peakBytes, process.memoryUsage.rss());
      return { startBytes, peakBytes, samples: samples + 1 };
    },
  };
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function printFigures(title: string, rows: Array<[string, string]>): void {
  const width = Math.max(...rows.map(([k]) => k.length));
  process.stdout.write(`\n${title}\n${'-'.repeat(title.length)}\n`);
  for (const [k, v] of rows) process.stdout.write(`${k.padEnd(width)}  ${v}\n`);
}
