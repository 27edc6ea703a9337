/** Objects on disk: one file per key, written to a temp file and renamed into place, read from an open handle. */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import {
  assertSafePrefix,
  clampRange,
  isMissing,
  openObject,
  publishFile,
  readDirectory,
  removeEmptyParents,
  resolveInside,
  rewordPathConflict,
  statFile,
  syncDirectoryCoalesced,
  unlinkIfPresent,
  writeNewFile,
  type TWrittenFile,
} from './disk-files.ts';
import { RESERVED_TOP_LEVEL, buildSidecar, etagOf, metadataOf, readSidecar, type TDiskLayout } from './disk-layout.ts';
import { createDiskWriter, type TDiskWriter } from './disk-writer.ts';
import { assertValidEtag, assertValidMetadata } from './storage.ts';
import type { Storage, TByteRange, TGetResult, TObjectInfo, TPutOptions } from './storage.ts';

const HASH_READ_BUFFER = 4 * 1024 * 1024;
/** Bodies in memory up to this size are put by a writer thread (disk-writer.ts); larger ones and streams here. */
const WRITER_MAX_BYTES = 8 * 1024 * 1024;

/** One set of writer threads per process, whatever the number of stores. */
let writer: TDiskWriter | undefined;

export type TDiskObjects = Pick<Storage, 'put' | 'get' | 'head' | 'hashObject' | 'delete' | 'deletePrefix' | 'list'>;

export function createDiskObjects(layout: TDiskLayout): TDiskObjects {
  const { root, tmpRoot, sidecarRoot, resolveObjectPath, resolveSidecarPath, publishSidecar, removeSidecar } = layout;

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
    if (!(body instanceof Readable) && Buffer.byteLength(body) <= WRITER_MAX_BYTES) {
      writer ??= createDiskWriter();
      const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
      const job = { tmpRoot, tmpData, tmpSidecar, objectPath, sidecarPath, sidecarRoot, bytes, options };
      try {
        const written = await writer.put(job);
        return { key, size: written.size, contentType: options.contentType, modifiedAt: written.mtimeMs, etag: options.etag };
      } catch (error) {
        throw rewordPathConflict(error, key);
      }
    }
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
      return { body, size, contentType: sidecar?.contentType, range: effectiveRange, etag: etagOf(sidecar, file), metadata: metadataOf(sidecar, file) };
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
    return { key, size: info.size, contentType: sidecar?.contentType, modifiedAt: info.mtimeMs, etag: etagOf(sidecar, info), metadata: metadataOf(sidecar, info) };
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

  return { put, get, head, hashObject, delete: deleteObject, deletePrefix, list };
}
