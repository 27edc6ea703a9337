/** Fixture projects, files and images for builder tests. */
import sharp from 'sharp';
import { DEFAULT_SITE_SETTINGS, detectFileKind } from '@dropsite/shared';
import type { TBuildFile, TBuildInput, TBuildSite, TBuilderLogger } from '@dropsite/builder';
import type { MemoryStorage } from './memory-storage.ts';
import { sha256 } from '../bytes.ts';

export const FIXTURE_CREATED_AT = Date.UTC(2025, 2, 4, 10, 30);

export function makeSite(overrides: Partial<TBuildSite> = {}): TBuildSite {
  return {
    id: 'proj_0000000000000001',
    slug: 'harbour-lights',
    title: 'Harbour Lights',
    description: 'Final selects from the October shoot.',
    subLine: 'Twelve frames, edited and ready for print.',
    tagLine: 'Client delivery',
    authorName: 'Mira Solberg',
    template: 'universal',
    theme: 'professional-light',
    settings: DEFAULT_SITE_SETTINGS,
    contactInfo: { email: 'mira@example.com', website: '', instagram: '', twitter: '', linkedin: '', github: '' },
    createdAt: FIXTURE_CREATED_AT,
    version: 1,
    ...overrides,
  };
}

/** A colourful test picture: a diagonal gradient with a few soft shapes, as JPEG (or another format). */
export async function makeImage(width: number, height: number, options: { hue?: number; format?: 'jpeg' | 'png' | 'webp'; orientation?: number } = {}): Promise<Buffer> {
  const hue = options.hue ?? 210;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue} 55% 28%)"/><stop offset="0.55" stop-color="hsl(${(hue + 35) % 360} 60% 55%)"/><stop offset="1" stop-color="hsl(${(hue + 70) % 360} 70% 80%)"/>
    </linearGradient><radialGradient id="s" cx="0.7" cy="0.3" r="0.35"><stop offset="0" stop-color="hsl(${(hue + 180) % 360} 90% 85%)" stop-opacity="0.9"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/><rect width="100%" height="100%" fill="url(#s)"/>
    <path d="M0 ${height * 0.78} Q ${width * 0.3} ${height * 0.62} ${width * 0.55} ${height * 0.74} T ${width} ${height * 0.7} V ${height} H 0 Z" fill="hsl(${hue} 40% 12%)" fill-opacity="0.75"/>
  </svg>`;
  let image = sharp(Buffer.from(svg));
  if (options.orientation) image = image.withMetadata({ orientation: options.orientation });
  const format = options.format ?? 'jpeg';
  return format === 'png' ? image.png().toBuffer() : format === 'webp' ? image.webp().toBuffer() : image.jpeg({ quality: 85 }).toBuffer();
}

let nextId = 1;

/** Stores the bytes as an original and answers the TBuildFile for it. */
export async function addFile(storage: MemoryStorage, name: string, bytes: Buffer, overrides: Partial<TBuildFile> = {}): Promise<TBuildFile> {
  const id = overrides.id ?? `file_${String(nextId++).padStart(16, '0')}`;
  const type = overrides.type ?? mimeOf(name);
  const storageKey = overrides.storageKey ?? `originals/${id}`;
  await storage.put(storageKey, bytes, { contentType: type });
  return {
    id,
    name,
    type,
    size: bytes.length,
    storageKey,
    sha256: sha256(bytes),
    kind: detectFileKind(name, type),
    metadata: null,
    createdAt: FIXTURE_CREATED_AT,
    ...overrides,
  };
}

export function makeInput(project: TBuildSite, files: TBuildFile[]): TBuildInput {
  return { site: project, files };
}

function mimeOf(name: string): string {
  const ext = name.split('.').pop()?.toLowerCase() ?? '';
  const types: Record<string, string> = {
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    png: 'image/png',
    webp: 'image/webp',
    pdf: 'application/pdf',
    zip: 'application/zip',
    mp4: 'video/mp4',
    mp3: 'audio/mpeg',
    txt: 'text/plain',
  };
  return types[ext] ?? 'application/octet-stream';
}

export interface TRecordingLogger extends TBuilderLogger {
  entries: { level: 'info' | 'warn' | 'error'; obj: object; msg: string | undefined }[];
}

export function recordingLogger(): TRecordingLogger {
  const entries: TRecordingLogger['entries'] = [];
  return {
    entries,
    info: (obj, msg) => void entries.push({ level: 'info', obj, msg }),
    warn: (obj, msg) => void entries.push({ level: 'warn', obj, msg }),
    error: (obj, msg) => void entries.push({ level: 'error', obj, msg }),
  };
}
