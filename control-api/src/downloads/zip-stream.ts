/**
 * One ZIP streamed to the response with yazl: entries are opened one after another, only when
 * the archive reaches them, and backpressure from the client paces the reads, so memory stays
 * flat whatever the total size. Already-compressed formats are stored as they are (no CPU spent
 * deflating JPEGs again); when every entry is stored the total size is known in advance and
 * sent as Content-Length, so the browser shows real progress.
 */
import type { Readable } from 'node:stream';
import type { Request, Response } from 'express';
import yazl from 'yazl';
import { getExtension } from '@dropsite/shared';
import { contentDisposition } from '../http/content-disposition.ts';
import type { Logger } from '../logger.ts';

export interface TZipItem {
  /** Path inside the ZIP: '/'-separated, relative, no '..'. */
  name: string;
  size: number;
  mtime: Date;
  /** Deflate the entry; by default only formats that deflate can shrink are. */
  compress?: boolean;
  open(): Promise<Readable>;
}

/** Formats that deflate cannot shrink: images, audio and video, archives, PDFs and Office's zipped XML. */
const ALREADY_COMPRESSED = new Set([
  'jpg',
  'jpeg',
  'png',
  'gif',
  'webp',
  'avif',
  'heic',
  'heif',
  'mp4',
  'm4v',
  'mov',
  'webm',
  'mkv',
  'avi',
  'ogv',
  'mp3',
  'm4a',
  'aac',
  'ogg',
  'oga',
  'opus',
  'flac',
  'zip',
  'rar',
  '7z',
  'gz',
  'tgz',
  'bz2',
  'xz',
  'zst',
  'pdf',
  'docx',
  'xlsx',
  'pptx',
  'odt',
  'ods',
  'odp',
  'key',
  'pages',
  'numbers',
  'epub',
  'jar',
  'apk',
]);

export function isAlreadyCompressed(name: string): boolean {
  return ALREADY_COMPRESSED.has(getExtension(name));
}

/** A file name safe as one ZIP path component: no separators, no control characters. */
export function zipSafeName(name: string): string {
  const cleaned = name
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(/[\\/]/g, '_')
    .trim();
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'file' : cleaned;
}

/**
 * Names made unique the way a desktop does it: 'photo.jpg', 'photo (2).jpg'. Case-insensitive,
 * because Windows and macOS would otherwise overwrite one file with another on unzip.
 */
export function dedupeNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    let candidate = name;
    const dot = name.lastIndexOf('.');
    const stem = dot > 0 ? name.slice(0, dot) : name;
    const ext = dot > 0 ? name.slice(dot) : '';
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

/** Streams the ZIP; resolves when the response is finished or the client went away. */
export function sendZip(req: Request, res: Response, items: readonly TZipItem[], fileName: string, log: Logger): Promise<void> {
  const zip = new yazl.ZipFile();
  let begin!: () => void;
  // yazl asks for the first entry at once; nothing is read from storage until the body is wanted.
  const started = new Promise<void>((resolve) => (begin = resolve));
  let current: Readable | null = null;
  let stopped = false;

  for (const item of items) {
    zip.addReadStreamLazy(item.name, { size: item.size, mtime: item.mtime, compress: item.compress ?? !isAlreadyCompressed(item.name) }, (callback) => {
      started
        .then(() => {
          if (stopped) throw new Error('The download was stopped');
          return item.open();
        })
        .then(
          (stream) => {
            current = stream;
            // yazl does not watch the streams it is handed.
            stream.on('error', (error) => zip.emit('error', error));
            callback(null, stream);
          },
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), undefined as unknown as NodeJS.ReadableStream),
        );
    });
  }
  let totalSize = -1;
  // @types/yazl leaves out the size the callback receives (-1 when compression makes it unknowable).
  const end = zip.end as (options: object, calculatedTotalSize: (size: number) => void) => void;
  end.call(zip, {}, (size) => {
    totalSize = size;
  });
  const output = zip.outputStream as Readable;

  res.status(200).set({
    'Content-Type': 'application/zip',
    'Content-Disposition': contentDisposition('attachment', fileName),
    'Cache-Control': 'private, no-store',
  });
  if (totalSize > 0) res.set('Content-Length', String(totalSize));

  const stop = () => {
    stopped = true;
    current?.destroy();
    output.unpipe(res);
    output.destroy();
  };
  output.on('error', () => {});
  if (req.method === 'HEAD') {
    stop();
    res.end();
    return Promise.resolve();
  }

  return new Promise((resolve) => {
    zip.on('error', (error: Error) => {
      if (!stopped) log.warn({ err: error, fileName }, 'zip download failed mid-stream');
      stop();
      // Headers are gone already: cutting the connection is how the browser learns the download failed.
      res.destroy(error);
      resolve();
    });
    res.on('close', () => {
      if (!res.writableFinished) stop();
      resolve();
    });
    begin();
    output.pipe(res);
  });
}
