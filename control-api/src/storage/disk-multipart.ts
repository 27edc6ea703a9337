/**
 * Multipart uploads on disk: one sparse data file per upload with part n at (n-1)*partSize, so completing
 * is a truncate, one fsync and a rename, never a copy. A part counts once its marker file exists,
 * written after the part's bytes. Parts are not fsynced one by one (an fsync per part made every
 * chunk wait for the disk): the data file is fsynced once, at completion, before the object exists.
 * Until then a power cut may take a part's bytes or marker with it; `readPart` lets the parts' owner
 * check them against what it recorded (upload-sessions/stored-chunk-check.ts), and a torn marker
 * is no part.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { assertSafePrefix, isMissing, publishFile, readDirectory, syncDirectoryCoalesced, toReadable } from './disk-files.ts';
import { buildSidecar, type TDiskLayout } from './disk-layout.ts';
import { InvalidPartError, MultipartUploadNotFoundError, assertConsecutiveParts, assertValidPart, createExactLengthGuard } from './storage.ts';
import type { Storage, TMultipartUpload, TMultipartUploadInfo, TObjectInfo, TPartInfo } from './storage.ts';

const UPLOAD_ID = /^[A-Za-z0-9_-]{22}$/;
const MAX_DISK_PART_SIZE = 5 * 1024 ** 3;
const PART_WRITE_BUFFER = 1024 * 1024;

/** An upload's upload.json, written when it is created. */
const ZMultipartManifestSchema = z.object({
  key: z.string(),
  partSize: z.number().int().positive(),
  contentType: z.string().optional(),
  initiatedAt: z.number(),
});
type TMultipartManifest = z.infer<typeof ZMultipartManifestSchema>;

function parseManifest(text: string): TMultipartManifest {
  return ZMultipartManifestSchema.parse(JSON.parse(text));
}

/** A part's marker, written after its bytes. */
const ZPartMarkerSchema = z.object({ partNumber: z.number(), size: z.number(), etag: z.string() });

export type TDiskMultipart = Pick<
  Storage,
  'createMultipartUpload' | 'putPart' | 'listParts' | 'completeMultipartUpload' | 'abortMultipartUpload' | 'listMultipartUploads' | 'close'
> & { readPart: NonNullable<Storage['readPart']> };

export function createDiskMultipart(layout: TDiskLayout): TDiskMultipart {
  const { multipartRoot, resolveObjectPath, resolveSidecarPath, publishSidecar } = layout;

  /** The folder of an upload; ids are checked before any path is built from them. */
  function uploadDirOf(uploadId: string): string {
    if (!UPLOAD_ID.test(uploadId)) throw new MultipartUploadNotFoundError(uploadId);
    return join(multipartRoot, uploadId);
  }

  async function readManifest(upload: Pick<TMultipartUpload, 'key' | 'uploadId'>): Promise<TMultipartManifest> {
    const dir = uploadDirOf(upload.uploadId);
    let manifest: TMultipartManifest;
    try {
      manifest = parseManifest(await readFile(join(dir, 'upload.json'), 'utf8'));
    } catch (error) {
      if (isMissing(error)) throw new MultipartUploadNotFoundError(upload.uploadId);
      throw error;
    }
    // An upload id is only good for the key it was made for, as in S3.
    if (manifest.key !== upload.key) throw new MultipartUploadNotFoundError(upload.uploadId);
    return manifest;
  }

  async function createMultipartUpload(key: string, options: { partSize: number; contentType?: string }): Promise<TMultipartUpload> {
    resolveObjectPath(key);
    if (!Number.isSafeInteger(options.partSize) || options.partSize < 1 || options.partSize > MAX_DISK_PART_SIZE) {
      throw new InvalidPartError(`Part size must be from 1 byte to 5 GiB, not ${options.partSize}`);
    }
    const uploadId = randomBytes(16).toString('base64url');
    const dir = join(multipartRoot, uploadId);
    await mkdir(join(dir, 'parts'), { recursive: true });
    const manifest: TMultipartManifest = { key, partSize: options.partSize, contentType: options.contentType, initiatedAt: Date.now() };
    await writeFile(join(dir, 'data'), new Uint8Array(0), { flag: 'wx', flush: true });
    // The manifest is written last: an upload without one is half-made and is not listed.
    await writeFile(join(dir, 'upload.json'), JSON.stringify(manifest), { flag: 'wx', flush: true });
    return { key, uploadId, partSize: options.partSize };
  }

  async function putPart(upload: TMultipartUpload, partNumber: number, body: Readable | Uint8Array, size: number): Promise<TPartInfo> {
    assertValidPart(upload, partNumber, size);
    const manifest = await readManifest(upload);
    if (manifest.partSize !== upload.partSize) throw new InvalidPartError(`This upload's part size is ${manifest.partSize}, not ${upload.partSize}`);
    const dir = uploadDirOf(upload.uploadId);
    const markerPath = join(dir, 'parts', `${partNumber}.json`);
    // Forget the part first: if rewriting it fails midway, it is missing rather than silently corrupt.
    await rm(markerPath, { force: true });
    try {
      await pipeline(
        toReadable(body),
        createExactLengthGuard(size),
        // r+ writes in place without truncating; no fsync here (see MULTIPART_DIR).
        // A 1 MiB buffer lets the socket keep reading while earlier bytes are being written: with
        // the default 64 KiB every network read waited for the write before it (a third of the rate).
        createWriteStream(join(dir, 'data'), { flags: 'r+', start: (partNumber - 1) * upload.partSize, highWaterMark: PART_WRITE_BUFFER }),
      );
    } catch (error) {
      if (isMissing(error)) throw new MultipartUploadNotFoundError(upload.uploadId);
      throw error;
    }
    const part: TPartInfo = { partNumber, size, etag: `"${randomBytes(12).toString('hex')}"` };
    const tmpMarker = join(dir, 'parts', `.${partNumber}.${randomUUID()}.tmp`);
    try {
      await writeFile(tmpMarker, JSON.stringify(part), { flag: 'wx' });
      await rename(tmpMarker, markerPath);
    } catch (error) {
      await rm(tmpMarker, { force: true });
      // Aborted while this part was being written: the folder is gone, and so is the part.
      if (isMissing(error)) throw new MultipartUploadNotFoundError(upload.uploadId);
      throw error;
    }
    writeBackInBackground(upload.uploadId, join(dir, 'data'));
    return part;
  }

  /**
   * Multipart data files being written back to the disk now, by upload id. The kernel would hold a
   * gigabyte of written parts in its cache for half a minute and leave the whole write to the fsync
   * of completion; starting the write-back as parts arrive (never waited for) leaves that fsync little to do.
   */
  const writeBacks = new Map<string, { again: boolean; done: Promise<void> }>();

  function writeBackInBackground(uploadId: string, dataPath: string): void {
    const running = writeBacks.get(uploadId);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: false, done: Promise.resolve() };
    state.done = (async () => {
      try {
        do {
          state.again = false;
          const handle = await open(dataPath, 'r');
          try {
            await handle.datasync();
          } finally {
            await handle.close();
          }
        } while (state.again);
      } catch {
        // Completed or aborted meanwhile: completion fsyncs on its own, an abort needs nothing.
      } finally {
        writeBacks.delete(uploadId);
      }
    })();
    writeBacks.set(uploadId, state);
  }

  /**
   * Two buffers (the next block is read while this one is used), kept for the next read-back: a chunk read
   * back makes no garbage (dead buffers wait for a garbage collection that a gigabyte upload rarely asks for).
   */
  let spareReadBuffers: [Buffer, Buffer] | undefined;

  async function* readPart(upload: TMultipartUpload, partNumber: number, size: number): AsyncGenerator<Uint8Array> {
    assertValidPart(upload, partNumber, size);
    await readManifest(upload);
    if (size === 0) return;
    const handle = await open(join(uploadDirOf(upload.uploadId), 'data'), 'r');
    const buffers = spareReadBuffers ?? [Buffer.allocUnsafe(PART_WRITE_BUFFER), Buffer.allocUnsafe(PART_WRITE_BUFFER)];
    spareReadBuffers = undefined;
    let pending: Promise<{ bytesRead: number; buffer: Buffer }> | undefined;
    try {
      let position = (partNumber - 1) * upload.partSize;
      let left = size;
      let turn = 0;
      pending = handle.read(buffers[0], 0, Math.min(PART_WRITE_BUFFER, left), position);
      while (pending) {
        const { bytesRead, buffer } = await pending;
        pending = undefined;
        if (bytesRead === 0) throw new InvalidPartError(`Part ${partNumber} is shorter than its ${size} bytes`);
        left -= bytesRead;
        position += bytesRead;
        turn ^= 1;
        if (left > 0) pending = handle.read(buffers[turn]!, 0, Math.min(PART_WRITE_BUFFER, left), position);
        // Valid until the next piece is asked for.
        yield buffer.subarray(0, bytesRead);
      }
    } finally {
      // A reader that stopped early leaves a read in flight: the buffers are reused only once it is done.
      await pending?.catch(() => undefined);
      spareReadBuffers = buffers;
      await handle.close();
    }
  }

  async function listParts(upload: TMultipartUpload): Promise<TPartInfo[]> {
    await readManifest(upload);
    const partsDir = join(uploadDirOf(upload.uploadId), 'parts');
    const parts: TPartInfo[] = [];
    for (const entry of await readDirectory(partsDir)) {
      if (!/^\d+\.json$/.test(entry.name)) continue;
      let text: string;
      try {
        text = await readFile(join(partsDir, entry.name), 'utf8');
      } catch (error) {
        // Replaced or aborted between the listing and the read: not a part any more.
        if (!isMissing(error)) throw error;
        continue;
      }
      const part = parsePartMarker(text);
      // A marker torn by a power cut (markers are not fsynced) is no part: it is sent again.
      if (part) parts.push(part);
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  async function completeMultipartUpload(upload: TMultipartUpload, parts: ReadonlyArray<Pick<TPartInfo, 'partNumber' | 'etag'>>): Promise<TObjectInfo> {
    assertConsecutiveParts(parts);
    const manifest = await readManifest(upload);
    const stored = new Map((await listParts(upload)).map((p) => [p.partNumber, p]));
    let total = 0;
    parts.forEach((wanted, i) => {
      const part = stored.get(wanted.partNumber);
      if (!part || part.etag !== wanted.etag) throw new InvalidPartError(`Part ${wanted.partNumber} was not stored with that etag`);
      const isLast = i === parts.length - 1;
      // Parts sit at fixed offsets, so every part but the last must fill its slot.
      if (!isLast && part.size !== manifest.partSize) {
        throw new InvalidPartError(`Part ${wanted.partNumber} has ${part.size} bytes; every part but the last needs ${manifest.partSize}`);
      }
      total += part.size;
    });
    const dir = uploadDirOf(upload.uploadId);
    const dataPath = join(dir, 'data');
    const handle = await open(dataPath, 'r+');
    try {
      // Drops bytes of parts beyond the last one and of a longer earlier version of the last part.
      await handle.truncate(total);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    const objectPath = resolveObjectPath(upload.key);
    const sidecarPath = resolveSidecarPath(upload.key);
    const sidecar = buildSidecar({ contentType: manifest.contentType });
    await publishSidecar(sidecar, join(dir, `sidecar-${randomUUID()}.json`), sidecarPath, upload.key);
    await publishFile(dataPath, objectPath, upload.key);
    await syncDirectoryCoalesced(dirname(objectPath));
    await rm(dir, { recursive: true, force: true });
    const info = await stat(objectPath);
    return { key: upload.key, size: info.size, contentType: manifest.contentType, modifiedAt: info.mtimeMs };
  }

  async function abortMultipartUpload(upload: Pick<TMultipartUpload, 'key' | 'uploadId'>): Promise<void> {
    if (!UPLOAD_ID.test(upload.uploadId)) return;
    try {
      await readManifest(upload);
    } catch (error) {
      if (error instanceof MultipartUploadNotFoundError) {
        // A half-made upload (no manifest yet) still goes.
        await rm(uploadDirOf(upload.uploadId), { recursive: true, force: true }).catch(() => {});
        return;
      }
      throw error;
    }
    await rm(uploadDirOf(upload.uploadId), { recursive: true, force: true });
  }

  async function* listMultipartUploads(prefix: string): AsyncIterable<TMultipartUploadInfo> {
    assertSafePrefix(prefix);
    const entries = (await readDirectory(multipartRoot)).filter((e) => e.isDirectory() && UPLOAD_ID.test(e.name));
    const uploads: TMultipartUploadInfo[] = [];
    for (const entry of entries) {
      try {
        const manifest = parseManifest(await readFile(join(multipartRoot, entry.name, 'upload.json'), 'utf8'));
        if (manifest.key.startsWith(prefix)) uploads.push({ key: manifest.key, uploadId: entry.name, initiatedAt: manifest.initiatedAt });
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    }
    uploads.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.initiatedAt - b.initiatedAt));
    yield* uploads;
  }

  async function close(): Promise<void> {
    await Promise.all([...writeBacks.values()].map((w) => w.done));
  }

  return { createMultipartUpload, putPart, listParts, readPart, completeMultipartUpload, abortMultipartUpload, listMultipartUploads, close };
}

function parsePartMarker(text: string): TPartInfo | undefined {
  try {
    const part = ZPartMarkerSchema.safeParse(JSON.parse(text));
    return part.success ? part.data : undefined;
  } catch {
    return undefined;
  }
}
