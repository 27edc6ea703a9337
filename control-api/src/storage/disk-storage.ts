/** Storage on the local file system: one file per object, written atomically through a temp file. */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, readFileSync, statSync } from 'node:fs';
import { mkdir, open, readFile, readdir, rename, rm, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  InvalidPartError,
  MultipartUploadNotFoundError,
  StorageNotFoundError,
  assertConsecutiveParts,
  assertSafeKey,
  assertValidEtag,
  assertValidMetadata,
  assertValidPart,
  createExactLengthGuard,
} from './storage.ts';
import type { Storage, TByteRange, TGetResult, TMultipartUpload, TMultipartUploadInfo, TObjectInfo, TPartInfo, TPutOptions } from './storage.ts';

const TMP_DIR = '.tmp';
/** Content type and cache control live in a mirror tree so object files stay plain bytes. */
const META_DIR = '.meta';
/**
 * Multipart uploads: one sparse data file per upload with part n at (n-1)*partSize, so completing
 * is a truncate, one fsync and a rename, never a copy. A part counts once its marker file exists,
 * written after the part's bytes. Parts are not fsynced one by one (an fsync per part made every
 * chunk wait for the disk): the data file is fsynced once, at completion, before the object exists.
 * Until then a power cut may take a part's bytes or marker with it; `readPart` lets the parts' owner
 * check them against what it recorded (upload-sessions/stored-chunk-check.ts), and a torn marker
 * is no part.
 */
const MULTIPART_DIR = '.multipart';
const RESERVED_TOP_LEVEL = new Set([TMP_DIR, META_DIR, MULTIPART_DIR]);
const UPLOAD_ID = /^[A-Za-z0-9_-]{22}$/;
const MAX_DISK_PART_SIZE = 5 * 1024 ** 3;
const HASH_READ_BUFFER = 4 * 1024 * 1024;
const PART_WRITE_BUFFER = 1024 * 1024;

interface TMultipartManifest {
  key: string;
  partSize: number;
  contentType?: string;
  initiatedAt: number;
}

interface TSidecar {
  contentType?: string;
  cacheControl?: string;
  /**
   * The entity tag put with the object, and the inode and size of the file it was put with. The
   * sidecar is published before its object, so a reader between the two (or one that opened the
   * previous object) finds another inode and answers no tag rather than the new tag on old bytes.
   */
  etag?: string;
  ino?: number;
  size?: number;
  /** User metadata put with the object (TPutOptions.metadata). */
  metadata?: Record<string, string>;
}

/** The sidecar's entity tag when it was written for exactly this file. */
function etagOf(sidecar: TSidecar | undefined, file: { ino: number; size: number }): string | undefined {
  return sidecar?.etag !== undefined && sidecar.ino === file.ino && sidecar.size === file.size ? sidecar.etag : undefined;
}

export function createDiskStorage(rootDir: string): Storage {
  const root = resolve(rootDir);
  const tmpRoot = join(root, TMP_DIR);

  function resolveObjectPath(key: string): string {
    assertSafeKey(key);
    const firstSegment = key.split('/', 1)[0] ?? '';
    if (RESERVED_TOP_LEVEL.has(firstSegment)) {
      throw new Error(`Unsafe storage key: ${JSON.stringify(key)} is reserved by the disk driver`);
    }
    return resolveInside(root, key);
  }

  function resolveSidecarPath(key: string): string {
    return resolveInside(join(root, META_DIR), `${key}.json`);
  }

  /** The temp folder is made once per process (and again should something remove it). */
  let tmpRootReady: Promise<void> | null = null;
  const ensureTmpRoot = (): Promise<void> =>
    (tmpRootReady ??= mkdir(tmpRoot, { recursive: true }).then(
      () => undefined,
      (error: unknown) => {
        tmpRootReady = null;
        throw error;
      },
    ));

  /** Writes the body to a new temp file, fsynced before it is closed, and answers what was written. */
  async function writeTemp(tmpPath: string, body: Readable | Uint8Array | string): Promise<TWrittenFile> {
    await ensureTmpRoot();
    try {
      return await writeNewFile(tmpPath, body);
    } catch (error) {
      if (!isMissing(error) || body instanceof Readable) throw error;
      tmpRootReady = null; // the temp folder went away under us: make it again, once
      await ensureTmpRoot();
      return writeNewFile(tmpPath, body);
    }
  }

  async function put(key: string, body: Readable | Uint8Array | string, options: TPutOptions = {}): Promise<TObjectInfo> {
    const objectPath = resolveObjectPath(key);
    const sidecarPath = resolveSidecarPath(key);
    assertValidEtag(options.etag);
    assertValidMetadata(options.metadata);
    const tmpData = join(tmpRoot, `${randomUUID()}.part`);
    const tmpSidecar = `${tmpData}.json`;
    try {
      const written = await writeTemp(tmpData, body);
      // A rename keeps the inode, so the tag names the file that becomes the object.
      const sidecar = buildSidecar(options, written);
      await publishSidecar(sidecar, tmpSidecar, sidecarPath, key);
      try {
        await publishFile(tmpData, objectPath, key);
      } catch (error) {
        // The object cannot exist at this path, so the sidecar just placed would describe nothing.
        if (sidecar) await removeSidecar(sidecarPath);
        throw error;
      }
      await syncDirectoryCoalesced(dirname(objectPath));
      return { key, size: written.size, contentType: sidecar?.contentType, modifiedAt: written.mtimeMs, etag: sidecar?.etag };
    } catch (error) {
      await Promise.all([rm(tmpData, { force: true }), rm(tmpSidecar, { force: true })]);
      throw error;
    }
  }

  async function publishSidecar(sidecar: TSidecar | undefined, tmpPath: string, sidecarPath: string, key: string): Promise<void> {
    if (!sidecar) {
      // A previous put of the same key may have left a content type that no longer applies.
      await rm(sidecarPath, { force: true });
      return;
    }
    const json = JSON.stringify(sidecar);
    // Re-publishing an object (a rebuilt site) mostly keeps its content type: leave an identical sidecar be.
    if (readTextIfPresent(sidecarPath) === json) return;
    await writeFile(tmpPath, json, { flag: 'wx', flush: true });
    await publishFile(tmpPath, sidecarPath, key);
  }

  async function removeSidecar(sidecarPath: string): Promise<void> {
    if (await unlinkIfPresent(sidecarPath)) await removeEmptyParents(sidecarPath, join(root, META_DIR));
  }

  async function get(key: string, range?: TByteRange): Promise<TGetResult> {
    const objectPath = resolveObjectPath(key);
    // Opening first pins the inode, so a concurrent delete or overwrite cannot change what we stream.
    const handle = await openObject(objectPath, key);
    try {
      const file = await handle.stat();
      const { size } = file;
      const effectiveRange = range ? clampRange(range, size) : undefined;
      const sidecar = await readSidecar(resolveSidecarPath(key));
      const body = handle.createReadStream({ start: effectiveRange?.start, end: effectiveRange?.end, autoClose: true });
      return { body, size, contentType: sidecar?.contentType, range: effectiveRange, etag: etagOf(sidecar, file) };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async function hashObject(key: string): Promise<{ sha256: string; size: number }> {
    const handle = await openObject(resolveObjectPath(key), key);
    try {
      const hash = createHash('sha256');
      // Two buffers: the next block is read (in the thread pool) while this one is hashed.
      const buffers = [Buffer.allocUnsafe(HASH_READ_BUFFER), Buffer.allocUnsafe(HASH_READ_BUFFER)];
      let size = 0;
      let turn = 0;
      let pending = handle.read(buffers[0]!, 0, HASH_READ_BUFFER, null);
      for (;;) {
        const { bytesRead, buffer } = await pending;
        if (bytesRead === 0) break;
        turn ^= 1;
        pending = handle.read(buffers[turn]!, 0, HASH_READ_BUFFER, null);
        hash.update(buffer.subarray(0, bytesRead));
        size += bytesRead;
      }
      return { sha256: hash.digest('hex'), size };
    } finally {
      await handle.close();
    }
  }

  async function head(key: string): Promise<TObjectInfo | null> {
    const objectPath = resolveObjectPath(key);
    const info = await statFile(objectPath);
    if (!info) return null;
    const sidecar = await readSidecar(resolveSidecarPath(key));
    return { key, size: info.size, contentType: sidecar?.contentType, modifiedAt: info.mtimeMs, etag: etagOf(sidecar, info), metadata: sidecar?.metadata };
  }

  async function deleteObject(key: string): Promise<void> {
    const objectPath = resolveObjectPath(key);
    const sidecarPath = resolveSidecarPath(key);
    // Deleting what is not there (a withdrawn public copy, most of the time) costs one call per file.
    const removed = await unlinkIfPresent(objectPath);
    await Promise.all([removed ? removeEmptyParents(objectPath, root) : undefined, removeSidecar(sidecarPath)]);
  }

  async function deletePrefix(prefix: string): Promise<number> {
    if (prefix === '') throw new Error('Refusing to delete every object: deletePrefix needs a non-empty prefix');
    let count = 0;
    for await (const object of list(prefix)) {
      await deleteObject(object.key);
      count += 1;
    }
    return count;
  }

  async function* list(prefix: string): AsyncIterable<TObjectInfo> {
    assertSafePrefix(prefix);
    const slash = prefix.lastIndexOf('/');
    const dirKey = prefix.slice(0, slash + 1);
    const namePrefix = prefix.slice(slash + 1);
    if (dirKey !== '' && RESERVED_TOP_LEVEL.has(dirKey.split('/', 1)[0] ?? '')) return;
    const startDir = resolveInside(root, dirKey === '' ? '.' : dirKey);
    yield* walk(startDir, dirKey, (name) => name.startsWith(namePrefix) && !(dirKey === '' && RESERVED_TOP_LEVEL.has(name)));
  }

  async function* walk(dir: string, dirKey: string, accept: (name: string) => boolean): AsyncGenerator<TObjectInfo> {
    const entries = await readDirectory(dir);
    // Sorting "dir/" rather than "dir" makes a depth-first walk come out in S3's byte order of whole keys.
    const sorted = entries
      .filter((entry) => accept(entry.name))
      .map((entry) => ({ entry, sortKey: Buffer.from(entry.isDirectory() ? `${entry.name}/` : entry.name) }))
      .sort((a, b) => Buffer.compare(a.sortKey, b.sortKey));
    for (const { entry } of sorted) {
      const key = `${dirKey}${entry.name}`;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        yield* walk(path, `${key}/`, () => true);
      } else if (entry.isFile()) {
        const info = await statFile(path);
        // Listing carries no content type: S3 listings do not return it and callers must not depend on the driver.
        if (info) yield { key, size: info.size, contentType: undefined, modifiedAt: info.mtimeMs };
      }
    }
  }

  const multipartRoot = join(root, MULTIPART_DIR);

  /** The folder of an upload; ids are checked before any path is built from them. */
  function uploadDirOf(uploadId: string): string {
    if (!UPLOAD_ID.test(uploadId)) throw new MultipartUploadNotFoundError(uploadId);
    return join(multipartRoot, uploadId);
  }

  async function readManifest(upload: Pick<TMultipartUpload, 'key' | 'uploadId'>): Promise<TMultipartManifest> {
    const dir = uploadDirOf(upload.uploadId);
    let manifest: TMultipartManifest;
    try {
      manifest = JSON.parse(await readFile(join(dir, 'upload.json'), 'utf8')) as TMultipartManifest;
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
      await handle.sync();
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
        const manifest = JSON.parse(await readFile(join(multipartRoot, entry.name, 'upload.json'), 'utf8')) as TMultipartManifest;
        if (manifest.key.startsWith(prefix)) uploads.push({ key: manifest.key, uploadId: entry.name, initiatedAt: manifest.initiatedAt });
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    }
    uploads.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.initiatedAt - b.initiatedAt));
    yield* uploads;
  }

  return {
    driver: 'disk',
    put,
    get,
    head,
    hashObject,
    delete: deleteObject,
    deletePrefix,
    list,
    createMultipartUpload,
    putPart,
    listParts,
    readPart,
    completeMultipartUpload,
    abortMultipartUpload,
    listMultipartUploads,
    // Disk has no URL of its own: parts reach it through the API's chunk endpoint.
    createPartUploadUrl: async () => null,
    close: async () => {
      await Promise.all([...writeBacks.values()].map((w) => w.done));
    },
  };
}

/** A prefix is safe when some safe key could start with it; appending a character turns that into a key check. */
function assertSafePrefix(prefix: string): void {
  if (prefix === '') return;
  try {
    assertSafeKey(`${prefix}x`);
  } catch {
    throw new Error(`Unsafe storage prefix: ${JSON.stringify(prefix)}`);
  }
}

function resolveInside(base: string, relativePath: string): string {
  const path = resolve(base, relativePath);
  const rel = relative(base, path);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new Error(`Unsafe storage key: ${JSON.stringify(relativePath)} resolves outside the storage root`);
  }
  return path;
}

/** Clamps the end to the object like HTTP does; a start past the end cannot be served. */
function clampRange(range: TByteRange, size: number): TByteRange {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`Invalid byte range ${start}-${end}`);
  }
  if (start >= size) throw new RangeError(`Byte range ${start}-${end} is outside an object of ${size} bytes`);
  return { start, end: Math.min(end, size - 1) };
}

function toReadable(body: Readable | Uint8Array | string): Readable {
  if (body instanceof Readable) return body;
  const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return Readable.from([bytes]);
}

function buildSidecar(options: TPutOptions, file?: { ino: number; size: number }): TSidecar | undefined {
  if (options.contentType === undefined && options.cacheControl === undefined && options.etag === undefined && options.metadata === undefined) return undefined;
  const sidecar: TSidecar = {
    contentType: options.contentType,
    cacheControl: options.cacheControl,
    ...(options.metadata === undefined ? {} : { metadata: { ...options.metadata } }),
  };
  return options.etag !== undefined && file ? { ...sidecar, etag: options.etag, ino: file.ino, size: file.size } : sidecar;
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');
}

/** Read synchronously, like a stat (see statFile). */
async function readSidecar(path: string): Promise<TSidecar | undefined> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { contentType, cacheControl, etag, ino, size, metadata } = parsed as Record<string, unknown>;
    return {
      contentType: typeof contentType === 'string' ? contentType : undefined,
      cacheControl: typeof cacheControl === 'string' ? cacheControl : undefined,
      ...(isStringRecord(metadata) ? { metadata } : {}),
      ...(typeof etag === 'string' && typeof ino === 'number' && typeof size === 'number' ? { etag, ino, size } : {}),
    };
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

async function openObject(path: string, key: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if (isMissing(error) || errorCode(error) === 'EISDIR') throw new StorageNotFoundError(key);
    throw error;
  }
  const info = await handle.stat();
  if (!info.isFile()) {
    await handle.close();
    throw new StorageNotFoundError(key);
  }
  return handle;
}

/**
 * A stat and a sidecar (a few hundred bytes, in the page cache) are read synchronously: each takes
 * microseconds, while handing one to libuv's thread pool and waking the event loop again cost
 * 25-100 µs of the event loop's own time per call on the machines measured (26 November), which
 * made these small reads most of a rebuild's storage cost on the event loop.
 */
async function statFile(path: string): Promise<TWrittenFile | null> {
  try {
    const info = statSync(path, { throwIfNoEntry: false });
    return info?.isFile() ? { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino } : null;
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/** A small file's text, or null when it cannot be read (synchronous: see statFile). */
function readTextIfPresent(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

async function readDirectory(dir: string) {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

/** Moves a finished temp file into place; the rename is what makes a put atomic. */
async function publishFile(tmpPath: string, finalPath: string, key: string): Promise<void> {
  try {
    try {
      await rename(tmpPath, finalPath);
    } catch (error) {
      // The first object under a new folder: make the folder, then move it in. Twice, because a
      // concurrent delete may prune the freshly made folder.
      if (errorCode(error) !== 'ENOENT') throw error;
      await mkdir(dirname(finalPath), { recursive: true });
      try {
        await rename(tmpPath, finalPath);
      } catch (again) {
        if (errorCode(again) !== 'ENOENT') throw again;
        await mkdir(dirname(finalPath), { recursive: true });
        await rename(tmpPath, finalPath);
      }
    }
  } catch (error) {
    throw rewordPathConflict(error, key);
  }
}

interface TWrittenFile {
  size: number;
  mtimeMs: number;
  ino: number;
}

/** Creates `path` (never overwriting) with the body's bytes, fsynced before close. */
async function writeNewFile(path: string, body: Readable | Uint8Array | string): Promise<TWrittenFile> {
  if (body instanceof Readable) {
    // `flush` fsyncs before close, so a later rename never publishes bytes that are only in the page cache.
    await pipeline(body, createWriteStream(path, { flags: 'wx', flush: true }));
    const info = await stat(path);
    return { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino };
  }
  const handle = await open(path, 'wx');
  try {
    await handle.writeFile(body);
    await handle.sync();
    const info = await handle.stat();
    return { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino };
  } finally {
    await handle.close();
  }
}

/**
 * Directory fsyncs, one running and at most one waiting per folder: a put waits for an fsync that
 * started after its rename, and puts finishing together in one folder (a page and its variants)
 * share it instead of each making its own. (Measured on 26 November with 8 pages of 4 objects
 * written at once: 30-35 % less CPU per page than an fsync per put.)
 */
const directorySyncs = new Map<string, { running: Promise<void> | null; waiting: Promise<void> | null }>();

function syncDirectoryCoalesced(dir: string): Promise<void> {
  let state = directorySyncs.get(dir);
  if (!state) {
    state = { running: null, waiting: null };
    directorySyncs.set(dir, state);
  }
  const current = state;
  if (current.waiting) return current.waiting; // not started yet, so it starts after this rename
  const start = (): Promise<void> => {
    const run = syncDirectory(dir).finally(() => {
      current.running = null;
      if (!current.waiting) directorySyncs.delete(dir);
    });
    current.running = run;
    return run;
  };
  if (!current.running) return start();
  // The running fsync may have started before this rename: the next one is what counts.
  current.waiting = current.running.then(() => {
    current.waiting = null;
    return start();
  });
  return current.waiting;
}

/** Makes the rename itself durable; best effort because not every platform can fsync a directory. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Durability of the directory entry is a bonus, not part of the contract.
  } finally {
    await handle?.close();
  }
}

/**
 * Removes a file; false when there was none. A directory at the path holds other objects (this key
 * itself does not exist): false as well.
 */
async function unlinkIfPresent(path: string): Promise<boolean> {
  try {
    await unlink(path);
    return true;
  } catch (error) {
    if (isMissing(error) || errorCode(error) === 'EISDIR') return false;
    // macOS answers EPERM for a directory.
    if (errorCode(error) === 'EPERM' && (await stat(path).catch(() => null))?.isDirectory()) return false;
    throw error;
  }
}

/** Prunes directories left empty by deletes so listings and the tree do not accumulate husks. */
async function removeEmptyParents(path: string, stopAt: string): Promise<void> {
  let dir = dirname(path);
  while (dir !== stopAt && dir.startsWith(stopAt + sep)) {
    try {
      await rmdir(dir);
    } catch {
      return;
    }
    dir = dirname(dir);
  }
}

function rewordPathConflict(error: unknown, key: string): unknown {
  const code = errorCode(error);
  // mkdir reports EEXIST or ENOTDIR when a parent folder of the key is already an object; rename reports EISDIR the other way round.
  if (code === 'ENOTDIR' || code === 'EISDIR' || code === 'EEXIST') {
    return new Error(`Cannot store ${JSON.stringify(key)} on disk: it collides with another key used as a folder`, { cause: error });
  }
  return error;
}

function parsePartMarker(text: string): TPartInfo | undefined {
  try {
    const part = JSON.parse(text) as Partial<TPartInfo>;
    if (typeof part.partNumber !== 'number' || typeof part.size !== 'number' || typeof part.etag !== 'string') return undefined;
    return { partNumber: part.partNumber, size: part.size, etag: part.etag };
  } catch {
    return undefined;
  }
}

function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
