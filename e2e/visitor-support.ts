/**
 * Real files for the visitor-site end-to-end tests, published through the regular upload call
 * (POST /api/upload) and waited on until the site is live. Images are small but photo-like,
 * PDFs are real (bench/lib.ts), videos come from ffmpeg, archives from yazl, presentations from
 * LibreOffice (converted from a PDF).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import yazl from 'yazl';
import { makePdf } from '@dropsite/testkit/builder/media-fixtures';
import { afterFrames } from './page-settle.ts';

const run = promisify(execFile);

export interface TUploadFile {
  name: string;
  type: string;
  bytes: Buffer;
  /** The folder it was dropped in (a gallery category, a product colour). */
  group?: string;
}

/** A landscape or portrait picture: a gradient with a horizon, different per seed. */
export async function makePhoto(seed: number, width = 1200, height = 800): Promise<Buffer> {
  const hue = (seed * 47) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue} 55% 30%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360} 70% 78%)"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <circle cx="${width * 0.72}" cy="${height * 0.32}" r="${Math.min(width, height) * 0.12}" fill="hsl(${(hue + 180) % 360} 90% 85%)" fill-opacity="0.85"/>
    <path d="M0 ${height * 0.75} Q ${width * 0.35} ${height * 0.6} ${width * 0.6} ${height * 0.72} T ${width} ${height * 0.68} V ${height} H 0 Z" fill="hsl(${hue} 40% 14%)"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 82 }).toBuffer();
}

export async function photos(count: number, prefix = 'frame'): Promise<TUploadFile[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => ({
      name: `${prefix}-${String(i + 1).padStart(2, '0')}.jpg`,
      type: 'image/jpeg',
      bytes: await makePhoto(i + 1, i % 4 === 3 ? 800 : 1200, i % 4 === 3 ? 1200 : 800),
    })),
  );
}

export function pdf(name: string, pages: number): TUploadFile {
  return { name, type: 'application/pdf', bytes: makePdf(pages) };
}

/** A 3 s 640x360 H.264 test picture with a tone, via ffmpeg. */
export async function video(name = 'clip.mp4', seconds = 3): Promise<TUploadFile> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-e2e-video-'));
  try {
    const out = path.join(dir, name);
    await run('ffmpeg', [
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      `testsrc=duration=${seconds}:size=640x360:rate=25`,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:duration=${seconds}`,
      '-pix_fmt',
      'yuv420p',
      '-c:v',
      'libx264',
      '-c:a',
      'aac',
      '-shortest',
      '-movflags',
      '+faststart',
      out,
    ]);
    return { name, type: 'video/mp4', bytes: await readFile(out) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A ZIP with folders, via yazl. */
export async function zip(name: string, entries: Array<{ path: string; data: string | Buffer; mtime?: Date }>): Promise<TUploadFile> {
  const archive = new yazl.ZipFile();
  for (const entry of entries) {
    archive.addBuffer(typeof entry.data === 'string' ? Buffer.from(entry.data) : entry.data, entry.path, { mtime: entry.mtime ?? new Date('2025-01-01T12:00:00Z') });
  }
  archive.end();
  const chunks: Buffer[] = [];
  for await (const chunk of archive.outputStream) chunks.push(chunk as Buffer);
  return { name, type: 'application/zip', bytes: Buffer.concat(chunks) };
}

/** A second of silence as a 16-bit mono WAV. */
export function silentWav(): Buffer {
  const rate = 8000;
  const data = Buffer.alloc(rate * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

export function text(name: string, body: string): TUploadFile {
  return { name, type: 'text/plain', bytes: Buffer.from(body, 'utf8') };
}

export async function hasSoffice(): Promise<boolean> {
  try {
    await run('soffice', ['--version'], { timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}

/** A real .pptx: LibreOffice imports a PDF into Impress and saves it as PowerPoint. */
export async function presentation(name: string, slides: number): Promise<TUploadFile> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-e2e-pptx-'));
  try {
    const source = path.join(dir, 'deck.pdf');
    await writeFile(source, makePdf(slides));
    await run(
      'soffice',
      [`-env:UserInstallation=file://${path.join(dir, 'profile')}`, '--headless', '--infilter=impress_pdf_import', '--convert-to', 'pptx', '--outdir', dir, source],
      { timeout: 120_000 },
    );
    return { name, type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', bytes: await readFile(path.join(dir, 'deck.pptx')) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Publishes files as a site through the regular upload call and waits until it is live. Answers the slug. */
export async function publish(request: APIRequestContext, files: TUploadFile[], fields: Record<string, string> = {}): Promise<string> {
  const form = new FormData();
  const all: Record<string, string> = { title: 'Visitor test', description: 'Files for the visitor tests', template: 'universal', authorName: 'Mira Solberg', ...fields };
  for (const [key, value] of Object.entries(all)) form.append(key, value);
  form.append('filesMetadata', JSON.stringify(files.map((f) => ({ name: f.name, type: f.type, size: f.bytes.byteLength, ...(f.group ? { group: f.group } : {}) }))));
  for (const file of files) form.append('files', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const response = await request.post('/api/upload', { multipart: form, timeout: 120_000 });
  const body = (await response.json()) as { success: boolean; slug?: string; error?: string };
  expect(body.success, body.error).toBe(true);
  const slug = body.slug!;
  await expect
    .poll(
      async () => {
        const status = (await (await request.get(`/api/sites/${slug}/status`)).json()) as { status: string };
        if (status.status === 'failed') throw new Error(`the build of ${slug} failed`);
        return status.status;
      },
      { timeout: 120_000, intervals: [100, 250, 500] },
    )
    .toBe('live');
  return slug;
}

/**
 * What a visitor's first movement does: the pointer moves over the page. Islands hydrate once they are
 * in view and the visitor has given any input (site-template's client:interaction); before that a page
 * runs no island code.
 */
export async function moveThePointer(page: Page): Promise<void> {
  await page.mouse.move(4, 4);
  await page.mouse.move(8, 8);
}

/**
 * Opens a site, moves the pointer and waits until the island holding `selector` has hydrated: islands
 * hydrate once in view after the visitor's first input (a click before that is replayed once hydrated).
 */
export async function openSiteWhenLive(page: Page, slug: string, selector: string): Promise<void> {
  await page.goto(`/${slug}`);
  await moveThePointer(page);
  await page
    .locator('astro-island:not([ssr])', { has: page.locator(selector) })
    .first()
    .waitFor({ state: 'attached' });
}

/** Scrolls through the page so every island (many hydrate when seen) hydrates, and waits for them. */
export async function hydrateAll(page: Page): Promise<void> {
  // A page that fits the screen does not scroll: the pointer's move is the input that page gets.
  await moveThePointer(page);
  for (let y = 0; y < 20; y++) {
    const done = await page.evaluate((step) => {
      window.scrollTo(0, step * window.innerHeight);
      return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight;
    }, y);
    await afterFrames(page);
    if (done) break;
  }
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0, { timeout: 20_000 });
}
