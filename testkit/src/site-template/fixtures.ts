/** Hand-made render models for the template's tests: every viewer, with the details the builder derives. */
import { DEFAULT_PUBLIC_SITE_SETTINGS, detectFileKind, type TPublicFileDetails, type TSiteFile, type TSiteRenderModel } from '@dropsite/shared';

let counter = 0;

function id(): string {
  counter += 1;
  return `file_${String(counter).padStart(16, '0')}`;
}

export function makeFile(name: string, overrides: Partial<TSiteFile> = {}, details: TPublicFileDetails = {}): TSiteFile {
  const fileId = overrides.id ?? id();
  const base = `/api/files/${fileId}`;
  return {
    id: fileId,
    name,
    type: '',
    size: 120_000,
    kind: detectFileKind(name),
    url: `${base}?mode=preview`,
    downloadUrl: `${base}?mode=download`,
    thumbnailUrl: null,
    width: null,
    height: null,
    thumbnailWidth: null,
    thumbnailHeight: null,
    format: null,
    uploadedAt: '2025-03-04T10:00:00.000Z',
    group: null,
    details,
    ...overrides,
  };
}

/** A photo with its derived thumbnail (300 px on the long side) and display copy. */
export function makeImage(i: number, options: { hasThumbnail?: boolean; portrait?: boolean } = {}): TSiteFile {
  const portrait = options.portrait ?? i % 3 === 0;
  const [width, height] = portrait ? [2000, 3000] : [3000, 2000];
  const file = makeFile(`photo-${String(i).padStart(2, '0')}.jpg`, { size: 2_400_000 + i, width, height, format: 'jpeg', type: 'image/jpeg' });
  if (options.hasThumbnail === false) return file;
  return { ...file, thumbnailUrl: `${file.url}&size=300`, thumbnailWidth: portrait ? 200 : 300, thumbnailHeight: portrait ? 300 : 200 };
}

export function makePdfFile(name: string, pages: number): TSiteFile {
  const file = makeFile(name, { size: 480_000, type: 'application/pdf' });
  return { ...file, thumbnailUrl: `${file.url}&size=300`, thumbnailWidth: 232, thumbnailHeight: 300, details: { pages, pdfUrl: file.url } };
}

export function makeVideoFile(): TSiteFile {
  const file = makeFile('behind-the-scenes.mp4', { size: 4_800_000, type: 'video/mp4' });
  return {
    ...file,
    details: {
      posterUrl: `/api/files/${file.id}/poster`,
      media: { durationSeconds: 83.5, width: 1920, height: 1080, bitrate: 4_600_000, container: 'mov,mp4,m4a,3gp,3g2,mj2', videoCodec: 'h264', audioCodec: 'aac' },
    },
  };
}

export function makeZipFile(): TSiteFile {
  const file = makeFile('selects.zip', { size: 900_000, type: 'application/zip' });
  return {
    ...file,
    details: {
      archive: {
        format: 'zip',
        totalFiles: 3,
        totalFolders: 1,
        size: 1_500_000,
        compressedSize: 900_000,
        ratio: 0.6,
        truncated: false,
        entries: [
          {
            name: 'raw',
            path: 'raw',
            type: 'folder',
            size: 1_200_000,
            children: [
              { name: 'b-frame.cr2', path: 'raw/b-frame.cr2', type: 'file', size: 700_000, modified: '2025-01-02T10:00:00.000Z' },
              { name: 'a-frame.cr2', path: 'raw/a-frame.cr2', type: 'file', size: 500_000, modified: '2025-01-03T10:00:00.000Z' },
            ],
          },
          { name: 'notes.txt', path: 'notes.txt', type: 'file', size: 300_000, modified: '2025-01-01T10:00:00.000Z' },
        ],
      },
    },
  };
}

export const LONG_LINE = 'The quick brown fox jumps over the lazy dog while the photographer waits.';

export function makeTextFile(): TSiteFile {
  const firstLines = [LONG_LINE, ...Array.from({ length: 19 }, (_, i) => `line ${i + 2}`)];
  return makeFile('notes.txt', { size: 2_000, type: 'text/plain' }, { text: { encoding: 'utf-8', firstLines, totalLines: 40 } });
}

export function makeSite(files: TSiteFile[], overrides: Partial<TSiteRenderModel> = {}): TSiteRenderModel {
  return {
    projectId: 'proj_0000000000000001',
    slug: 'render-fixture',
    title: 'Harbour Lights',
    subLine: 'Final selects from the October shoot.',
    tagLine: 'By Mira Solberg',
    description: 'Final selects from the October shoot.',
    authorName: 'Mira Solberg',
    template: 'universal',
    theme: 'professional-light',
    settings: DEFAULT_PUBLIC_SITE_SETTINGS,
    contactInfo: { email: 'mira@example.com', website: '', instagram: '', twitter: '', linkedin: '', github: '' },
    files,
    publishedAt: '2025-03-04T10:00:00.000Z',
    siteOrigin: 'https://dropsite.test',
    ...overrides,
  };
}
