/**
 * Makes the demo sites' sample files, each from its recipe, into a cache folder (git-ignored
 * `data/demo-samples/` by default, DEMO_SAMPLES_DIR to choose): a file is named by the hash of
 * its recipe and of SAMPLES_VERSION, so a recipe made once is read back, and a changed recipe or
 * generator makes a new file. Writes go to a temporary name first, so a crash leaves no half file.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { renderDocument, type TPictureSource } from './documents.ts';
import { renderImage } from './images.ts';
import type { TDemoFile, TDemoManifest, TSampleRecipe } from './manifest.ts';
import { storedZip } from './zip.ts';

/** Bump when a generator changes what a recipe makes (images, documents, archives, video). */
export const SAMPLES_VERSION = 3;

export interface TSample {
  name: string;
  type: string;
  group: string | null;
  bytes: Buffer;
  sha256: string;
}

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

/** Where samples are cached. */
export function samplesDir(): string {
  return process.env.DEMO_SAMPLES_DIR ? path.resolve(process.env.DEMO_SAMPLES_DIR) : path.join(REPO_ROOT, 'data', 'demo-samples');
}

let ffmpegFound: boolean | undefined;
/** Whether ffmpeg can be run (the video sample is left out without it). */
export function hasFfmpeg(): boolean {
  ffmpegFound ??= spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).status === 0;
  return ffmpegFound;
}

/** The files of a manifest that can be made here: the video only where ffmpeg is installed. */
export function sampleFilesOf(manifest: TDemoManifest): TDemoFile[] {
  return manifest.files.filter((file) => file.recipe.kind !== 'video' || hasFfmpeg());
}

const EXTENSIONS: Record<TSampleRecipe['kind'], string> = { image: '', pdf: '.pdf', text: '.txt', zip: '.zip', video: '.mp4' };

function cacheKey(recipe: TSampleRecipe, manifest: TDemoManifest): string {
  // A ZIP of the demo's images depends on those images' recipes too.
  const used = recipe.kind === 'zip' ? recipe.entries.flatMap((e) => ('image' in e ? [manifest.files.find((f) => f.name === e.image)?.recipe ?? null] : [])) : [];
  return createHash('sha256')
    .update(JSON.stringify({ v: SAMPLES_VERSION, recipe, used }))
    .digest('hex')
    .slice(0, 32);
}

/** The cache file a demo file is made into. */
function cacheFileOf(file: TDemoFile, manifest: TDemoManifest): string {
  const { recipe } = file;
  const ext = recipe.kind === 'image' ? (recipe.format === 'webp' ? '.webp' : '.jpg') : EXTENSIONS[recipe.kind];
  return `${cacheKey(recipe, manifest)}${ext}`;
}

const CACHE_FILE = /^[0-9a-f]{32}\.(jpg|webp|pdf|txt|zip|mp4)$/;

/** Removes cached samples no manifest makes any more (an earlier SAMPLES_VERSION's, a changed recipe's); answers how many. */
export async function pruneSampleCache(manifests: readonly TDemoManifest[]): Promise<number> {
  const dir = samplesDir();
  if (!existsSync(dir)) return 0;
  const wanted = new Set(manifests.flatMap((manifest) => manifest.files.map((file) => cacheFileOf(file, manifest))));
  let removed = 0;
  for (const name of await readdir(dir)) {
    if (CACHE_FILE.test(name) && !wanted.has(name)) {
      await rm(path.join(dir, name), { force: true });
      removed++;
    }
  }
  return removed;
}

async function cached(file: string, make: () => Promise<Buffer>): Promise<Buffer> {
  if (existsSync(file)) return readFile(file);
  const bytes = await make();
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, bytes);
  await rename(temp, file);
  return bytes;
}

function runFfmpeg(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg failed (${code}): ${stderr.slice(-500)}`))));
  });
}

/** A few seconds of slowly moving colour (ffmpeg's gradients source), H.264 in MP4, no sound. */
async function makeVideo(recipe: Extract<TSampleRecipe, { kind: 'video' }>): Promise<Buffer> {
  const out = path.join(os.tmpdir(), `dropsite-demo-video-${process.pid}.mp4`);
  try {
    const source = `gradients=s=${recipe.width}x${recipe.height}:r=25:c0=0x14213d:c1=0xf3c98b:c2=0x3a5a8c:c3=0xfff4dc:n=4:speed=0.03:seed=7:d=${recipe.seconds}`;
    await runFfmpeg([
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      source,
      '-t',
      String(recipe.seconds),
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-preset',
      'veryfast',
      '-crf',
      '28',
      '-threads',
      '1',
      '-movflags',
      '+faststart',
      '-fflags',
      '+bitexact',
      '-flags:v',
      '+bitexact',
      '-map_metadata',
      '-1',
      '-y',
      out,
    ]);
    return await readFile(out);
  } finally {
    await rm(out, { force: true });
  }
}

const picture: TPictureSource = async (recipe) => {
  const bytes = await renderImage({ ...recipe, kind: 'image', format: 'jpeg' });
  return { bytes, pixelWidth: recipe.width, pixelHeight: recipe.height };
};

/**
 * The sample files of a manifest, in its order, made or read from the cache. `onFile` hears of
 * each file as it is ready (the first run draws every picture, which takes a while).
 */
export async function makeSamples(manifest: TDemoManifest, onFile: (name: string, fromCache: boolean) => void = () => {}): Promise<TSample[]> {
  const dir = samplesDir();
  await mkdir(dir, { recursive: true });
  const made = new Map<string, Buffer>();
  const files = sampleFilesOf(manifest);
  // Images first: archives are made of them.
  const order = [...files].sort((a, b) => Number(a.recipe.kind === 'zip') - Number(b.recipe.kind === 'zip'));
  for (const file of order) {
    const { recipe } = file;
    const target = path.join(dir, cacheFileOf(file, manifest));
    const fromCache = existsSync(target);
    const bytes = await cached(target, async () => {
      switch (recipe.kind) {
        case 'image':
          return renderImage(recipe);
        case 'pdf':
          return renderDocument(recipe.document, picture);
        case 'text':
          return Buffer.from(recipe.text, 'utf8');
        case 'video':
          return makeVideo(recipe);
        case 'zip': {
          const entries = [];
          for (const entry of recipe.entries) {
            if ('text' in entry) entries.push({ name: entry.name, bytes: Buffer.from(entry.text, 'utf8') });
            else {
              const source = made.get(entry.image);
              if (!source) throw new Error(`${file.name}: no image ${entry.image} in this demo`);
              entries.push({ name: entry.name, bytes: await sharp(source).resize({ width: entry.width }).jpeg({ quality: 82 }).toBuffer() });
            }
          }
          return storedZip(entries);
        }
      }
    });
    made.set(file.name, bytes);
    onFile(file.name, fromCache);
  }
  return files.map((file) => {
    const bytes = made.get(file.name);
    if (!bytes) throw new Error(`${file.name} was not made`);
    return { name: file.name, type: file.type, group: file.group ?? null, bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
  });
}
