/**
 * An online backup of the embedded defaults: the SQLite database and the disk store, as one
 * gzipped tar archive (archive-format.ts), taken while the API keeps serving and writing.
 *
 * The database is copied with SQLite's online backup API, in one step: a step reads one snapshot
 * (in WAL mode a reader never blocks the API's writes), and a copy in small steps would start over
 * after every write the API made between two steps. The store is copied after the snapshot, so
 * every object the snapshot refers to was already written; objects written later are harmless
 * extras. Objects are whole files: the disk driver writes each to a temp file and renames it into
 * place (control-api/src/storage/disk-storage.ts), and a file opened here keeps its bytes even if
 * it is replaced or deleted while it is read.
 *
 * Deletes are the other half: an object the snapshot refers to may be deleted while the archive is
 * written (a replaced file's old bytes, an expired site). So the store is first pinned: every file
 * is hard-linked into a folder beside the store before the snapshot and again after it, and the
 * archive is written from those links, which keep a deleted object's bytes. Where hard links cannot
 * be made (the store is a mount point, or its file system has none), the archive is written from
 * the store itself and an object deleted meanwhile is missing from it (the result says so).
 *
 * Not copied (TSkipped): the driver's temp files (`.tmp/`: puts in progress, never objects yet) and
 * multipart uploads in progress (`.multipart/`: parts of resumable uploads not yet completed; after
 * a restore such an upload answers "cancelled" and the uploader starts it again).
 *
 * The database is opened with node:sqlite, a SQLite library of its own, not the API's
 * better-sqlite3: run this in its own process (as `npm run backup` does), never in a process that
 * has the same database open through another SQLite library (closing one drops the other's locks).
 */
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { createWriteStream, existsSync, type Dirent } from 'node:fs';
import { link, lstat, mkdir, mkdtemp, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { backup as sqliteBackup, DatabaseSync } from 'node:sqlite';
import type { Clock } from '@dropsite/control-api';
import { buildManifest, createStorageDigest, DATABASE_ENTRY, MANIFEST_ENTRY, STORAGE_ENTRY_PREFIX, type TDatabaseCounts } from './archive-format.ts';
import { RefusedError } from './locations.ts';
import { tarStream, type TTarFile } from './tar.ts';

/** The disk driver's folders of work in progress at the store's top level (disk-storage.ts: TMP_DIR, MULTIPART_DIR). */
const TEMP_DIR = '.tmp';
const MULTIPART_DIR = '.multipart';
const READ_CHUNK = 1024 * 1024;

export interface TBackupOptions {
  databasePath: string;
  storageDir: string;
  /** Folder the archive is written to (made when missing). */
  outDir: string;
  /** Names and dates the archive; the system clock by default. */
  clock?: Clock;
  /** Stops the backup; nothing is left in outDir but what was there. */
  signal?: AbortSignal;
  /** Told as the store's files are archived: `done` of `total`. */
  onProgress?: (progress: { done: number; total: number }) => void;
}

export interface TSkipped {
  /** Files in the driver's temp folder: puts in progress. */
  temporaryFiles: number;
  /** Multipart uploads not yet completed. */
  uploadsInProgress: number;
  /** Objects listed but deleted before they were read (only when the store could not be pinned). */
  deletedWhileCopying: number;
  /** Entries that are not regular files or folders (symbolic links, sockets): the driver makes none. */
  notFiles: number;
}

export interface TBackupResult {
  archivePath: string;
  archiveBytes: number;
  createdAt: string;
  database: TDatabaseCounts & { bytes: number; sha256: string };
  storage: { files: number; bytes: number };
  skipped: TSkipped;
  /** Whether the store was pinned with hard links (see the module comment); false: deletes during the backup may be missing. */
  pinned: boolean;
}

/** Takes a backup into `outDir/dropsite-<UTC time>.tar.gz`; the archive has that name only once it is whole. */
export async function createBackup(options: TBackupOptions): Promise<TBackupResult> {
  const { databasePath, storageDir, outDir, signal, onProgress } = options;
  const createdAt = new Date((options.clock ?? { now: () => Date.now() }).now());
  const stamp = createdAt
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll(':', '-');
  if (!existsSync(databasePath)) throw new RefusedError(`No database at ${databasePath}: check DATA_DIR and DATABASE_URL.`);
  await mkdir(outDir, { recursive: true });
  // Everything in progress lives in one hidden folder beside the archive's final place (same file system, so the last step is a rename).
  const work = await mkdtemp(path.join(outDir, `.dropsite-${stamp}.partial-`));
  const skipped: TSkipped = { temporaryFiles: 0, uploadsInProgress: 0, deletedWhileCopying: 0, notFiles: 0 };
  let pins: TPins | undefined;
  try {
    pins = await pinStore(storageDir);
    signal?.throwIfAborted();
    const snapshotPath = path.join(work, 'database.sqlite');
    const database = await snapshotDatabase(databasePath, snapshotPath);
    signal?.throwIfAborted();
    // What is left out is counted in the store itself, by the last pass over it.
    if (pins && !(await pins.refresh(skipped))) {
      pins = undefined;
      Object.assign(skipped, { temporaryFiles: 0, uploadsInProgress: 0, notFiles: 0 });
    }
    signal?.throwIfAborted();
    const source = pins?.dir ?? storageDir;
    const files: string[] = [];
    for await (const file of storeFiles(source, pins ? undefined : skipped)) files.push(file);

    const digest = createStorageDigest();
    async function* entries(): AsyncGenerator<TTarFile> {
      // The file being archived: closed here too, should the archive be torn down before its bytes are read.
      let handle: FileHandle | undefined;
      try {
        handle = await open(snapshotPath, 'r');
        yield { name: DATABASE_ENTRY, size: database.bytes, mtimeMs: createdAt.getTime(), body: readHashed(handle) };
        onProgress?.({ done: 0, total: files.length });
        let done = 0;
        for (const relative of files) {
          try {
            handle = await open(path.join(source, relative), 'r');
          } catch (error) {
            // Deleted after the listing: only the unpinned store loses files (the pins are this backup's own).
            if (errorCode(error) !== 'ENOENT') throw error;
            skipped.deletedWhileCopying += 1;
            continue;
          }
          const info = await handle.stat();
          const hash = createHash('sha256');
          yield { name: `${STORAGE_ENTRY_PREFIX}${relative}`, size: info.size, mtimeMs: info.mtimeMs, body: readHashed(handle, hash) };
          // The tar stream asks for the next entry once this one's bytes are all written.
          digest.add(relative, info.size, hash.digest('hex'));
          done += 1;
          onProgress?.({ done, total: files.length });
        }
      } finally {
        await handle?.close();
      }
      const manifest = Buffer.from(`${JSON.stringify(buildManifest({ createdAt: createdAt.toISOString(), database, storage: digest.result() }), null, 2)}\n`);
      yield { name: MANIFEST_ENTRY, size: manifest.length, mtimeMs: createdAt.getTime(), body: [manifest] };
    }

    const partial = path.join(work, 'archive.tar.gz');
    try {
      // Readable by its owner only: the database holds password hashes, sessions and email addresses.
      await pipeline(tarStream(entries()), createGzip(), createWriteStream(partial, { flags: 'wx', mode: 0o600 }), signal ? { signal } : {});
    } catch (error) {
      // Stopped: say why (the pipeline only says it was aborted).
      throw signal?.aborted ? signal.reason : error;
    }
    await syncFile(partial);
    const archivePath = await publish(partial, outDir, `dropsite-${stamp}`);
    const storage = digest.result();
    return {
      archivePath,
      archiveBytes: (await stat(archivePath)).size,
      createdAt: createdAt.toISOString(),
      database,
      storage: { files: storage.files, bytes: storage.bytes },
      skipped,
      pinned: pins !== undefined,
    };
  } finally {
    await rm(work, { recursive: true, force: true });
    await pins?.remove();
  }
}

/** Copies the live database into `target` (one read snapshot), checks the copy, counts it, and makes it one self-contained file. */
async function snapshotDatabase(databasePath: string, target: string): Promise<TDatabaseCounts & { bytes: number; sha256: string }> {
  const source = new DatabaseSync(databasePath, { readOnly: true, timeout: 10_000 });
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        // Every page in one step (see the module comment); the step runs off the event loop.
        await sqliteBackup(source, target, { rate: 2 ** 31 - 1 });
        break;
      } catch (error) {
        // SQLITE_BUSY or SQLITE_LOCKED: a checkpoint or recovery of the log held it for a moment.
        if (attempt >= 5 || !isBusy(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  } finally {
    source.close();
  }
  const copy = new DatabaseSync(target);
  let counts: TDatabaseCounts;
  try {
    const check = copy.prepare('PRAGMA integrity_check').all();
    const verdict = check.map((row) => String(Object.values(row)[0])).join('; ');
    if (verdict !== 'ok') throw new Error(`The database snapshot failed its integrity check: ${verdict}`);
    const sites = copy.prepare('SELECT count(*) AS n FROM projects WHERE deleted_at IS NULL').get();
    const files = copy.prepare('SELECT count(*) AS n, coalesce(sum(f.size), 0) AS bytes FROM files f JOIN projects p ON p.id = f.project_id WHERE p.deleted_at IS NULL').get();
    counts = { sites: Number(sites?.n ?? 0), files: Number(files?.n ?? 0), fileBytes: Number(files?.bytes ?? 0) };
    // The copy keeps the live database's WAL mode; in rollback mode it is one file with nothing beside it.
    copy.exec('PRAGMA journal_mode = DELETE');
  } finally {
    copy.close();
  }
  const { sha256, size } = await hashFile(target);
  return { ...counts, bytes: size, sha256 };
}

interface TPins {
  dir: string;
  /** Links what the store holds now (after the snapshot) over the first links, counting what it leaves out; false when that failed and the pins are gone. */
  refresh(skipped: TSkipped): Promise<boolean>;
  remove(): Promise<void>;
}

/**
 * Hard-links every file of the store into a hidden folder beside it, or answers undefined when
 * links cannot be made there. Nothing in the store is changed.
 */
async function pinStore(storageDir: string): Promise<TPins | undefined> {
  const dir = path.join(path.dirname(storageDir), `.${path.basename(storageDir)}.backup-${randomBytes(6).toString('hex')}`);
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    await mkdir(dir);
  } catch {
    return undefined;
  }
  // Replacing a pin goes through a temp name in the pins' own `.tmp`, a folder no listing takes.
  const spare = path.join(dir, TEMP_DIR);
  let spares = 0;
  async function linkAll(skipped?: TSkipped): Promise<boolean> {
    try {
      for await (const relative of storeFiles(storageDir, skipped)) {
        const from = path.join(storageDir, relative);
        const to = path.join(dir, relative);
        const outcome = await linkFile(from, to);
        if (outcome !== 'exists') continue;
        // Pinned before the snapshot: keep that file unless the store now has another at this path.
        const [now, pinned] = await Promise.all([stat(from).catch(() => null), stat(to)]);
        if (!now || now.ino === pinned.ino) continue;
        await mkdir(spare, { recursive: true });
        const fresh = path.join(spare, String(spares++));
        if ((await linkFile(from, fresh)) === 'linked') await rename(fresh, to);
      }
      return true;
    } catch {
      // No hard links here (EXDEV, EPERM, EMLINK…): the archive is written from the store itself.
      await remove();
      return false;
    }
  }
  if (!(await linkAll())) return undefined;
  return { dir, refresh: linkAll, remove };
}

/** Hard-links `from` at `to` (making folders): 'gone' when `from` no longer exists, 'exists' when `to` does. */
async function linkFile(from: string, to: string): Promise<'linked' | 'gone' | 'exists'> {
  try {
    await link(from, to);
    return 'linked';
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return 'exists';
    if (errorCode(error) !== 'ENOENT') throw error;
  }
  // ENOENT: the folder of `to` is not made yet, or `from` went away.
  await mkdir(path.dirname(to), { recursive: true });
  try {
    await link(from, to);
    return 'linked';
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return 'gone';
    throw error;
  }
}

/**
 * The store's regular files as '/'-separated paths under `root`, in name order, leaving out the
 * driver's work in progress at the top level (counted in `skipped`).
 */
async function* storeFiles(root: string, skipped?: TSkipped, relative = ''): AsyncGenerator<string> {
  let entries: Dirent[];
  try {
    entries = await readdir(path.join(root, relative), { withFileTypes: true });
  } catch (error) {
    // The store was never written to (no folder yet), or a folder was pruned after the listing above it.
    if (errorCode(error) === 'ENOENT') return;
    throw error;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (relative === '' && entry.name === TEMP_DIR) {
      if (skipped) skipped.temporaryFiles += await countFiles(path.join(root, child));
    } else if (relative === '' && entry.name === MULTIPART_DIR) {
      if (skipped) skipped.uploadsInProgress += (await readdir(path.join(root, child)).catch(() => [])).length;
    } else if (entry.isDirectory()) {
      yield* storeFiles(root, skipped, child);
    } else if (entry.isFile()) {
      yield child;
    } else if (skipped) {
      skipped.notFiles += 1;
    }
  }
}

async function countFiles(dir: string): Promise<number> {
  let count = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])) if (entry.isFile()) count += 1;
  return count;
}

/** A file's bytes in fresh chunks (the gzip stream may still hold the last one), hashed on the way; closes the file. */
async function* readHashed(handle: FileHandle, hash?: Hash): AsyncGenerator<Uint8Array> {
  try {
    for (;;) {
      const buffer = Buffer.allocUnsafe(READ_CHUNK);
      const { bytesRead } = await handle.read(buffer, 0, READ_CHUNK, null);
      if (bytesRead === 0) return;
      const chunk = buffer.subarray(0, bytesRead);
      hash?.update(chunk);
      yield chunk;
    }
  } finally {
    await handle.close();
  }
}

async function hashFile(file: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of readHashed(await open(file, 'r'), hash)) size += chunk.byteLength;
  return { sha256: hash.digest('hex'), size };
}

/** Moves the finished archive to its final name (never over another archive) and makes the rename durable. */
async function publish(partial: string, outDir: string, base: string): Promise<string> {
  let target = path.join(outDir, `${base}.tar.gz`);
  for (
    let n = 2;
    await lstat(target).then(
      () => true,
      () => false,
    );
    n++
  )
    target = path.join(outDir, `${base}-${n}.tar.gz`);
  await rename(partial, target);
  await syncFile(outDir);
  return target;
}

/** fsync of a file or folder (a folder's, best effort: not every platform can). */
async function syncFile(file: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, 'r');
    await handle.sync();
  } catch (error) {
    if ((await stat(file)).isFile()) throw error;
  } finally {
    await handle?.close();
  }
}

function isBusy(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'errcode' in error ? Number(error.errcode) & 0xff : undefined;
  return code === 5 || code === 6;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
