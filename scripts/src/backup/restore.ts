/**
 * Brings a backup archive (backup.ts) back as the embedded defaults' database and disk store.
 *
 * Nothing at the target changes until the archive has proved whole: it is unpacked into a hidden
 * folder beside the target (same file system), every entry is checked against the manifest (the
 * database's SHA-256 and size; the store's file count, bytes and digest of every file), the
 * database is opened and migrated to this version's schema, and only then are the database file
 * and the store folder renamed into place. A target that already holds a database or stored files
 * is refused unless `force`, which first renames the current data aside (never deletes it).
 *
 * Run it with the server stopped: the API keeps the database open and would not see the swap.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type Dirent } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, rm, rmdir, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { applyPendingMigrations, createDatabase, type Clock } from '@dropsite/control-api';
import {
  createStorageDigest,
  DATABASE_ENTRY,
  MANIFEST_ENTRY,
  MANIFEST_MAX_BYTES,
  parseManifest,
  STORAGE_ENTRY_PREFIX,
  type TBackupManifest,
  type TDatabaseCounts,
} from './archive-format.ts';
import { RefusedError } from './locations.ts';
import { readTar, TarFormatError } from './tar.ts';

export interface TRestoreOptions {
  archivePath: string;
  databasePath: string;
  storageDir: string;
  /** Restore over existing data, which is renamed aside first. */
  force?: boolean;
  /** Dates the names the current data is set aside under; the system clock by default. */
  clock?: Clock;
}

export interface TRestoreResult {
  /** When the backup was taken. */
  createdAt: string;
  databasePath: string;
  storageDir: string;
  /** Counted in the restored database, after its migrations. */
  database: TDatabaseCounts;
  /** The migrations that ran on it (an archive of an older version); none when it was up to date. */
  migrationsApplied: string[];
  storage: { files: number; bytes: number };
  /** Where the data that was there before went (with `force`); delete it once the restore looks right. */
  setAside: string[];
}

/** The archive is not a whole, unaltered backup: nothing at the target was changed. */
export class DamagedArchiveError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'DamagedArchiveError';
  }
}

/** Files beside a SQLite database that belong to it: a stale log next to another database would be replayed into it. */
const DATABASE_COMPANIONS = ['-wal', '-shm', '-journal'];

export async function restoreBackup(options: TRestoreOptions): Promise<TRestoreResult> {
  const databasePath = path.resolve(options.databasePath);
  const storageDir = path.resolve(options.storageDir);
  const archive = await stat(options.archivePath).catch(() => null);
  if (!archive?.isFile()) throw new RefusedError(`No archive at ${options.archivePath}.`);

  const present = await existingData(databasePath, storageDir);
  if (present.length > 0 && !options.force) {
    throw new RefusedError(
      `The target already holds data:\n${present.map((p) => `  ${p}`).join('\n')}\n` +
        'Restore into an empty data folder (set DATA_DIR), or stop the server and pass --force to rename the current data aside first.',
    );
  }

  const stamp = new Date((options.clock ?? { now: () => Date.now() }).now())
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll(':', '-');
  const staging = await createStaging([path.dirname(databasePath), path.dirname(storageDir)], stamp);
  let restored = false;
  try {
    const stagedDatabase = path.join(staging.folderBeside(databasePath), 'database.sqlite');
    const stagedStorage = path.join(staging.folderBeside(storageDir), 'storage');
    const manifest = await unpack(options.archivePath, stagedDatabase, stagedStorage);
    const { counts, migrationsApplied } = await openAndMigrate(stagedDatabase);

    // Each rename is undone, last first, should a later one fail.
    const moves: Array<{ from: string; to: string }> = [];
    const move = async (from: string, to: string) => {
      await rename(from, to);
      moves.push({ from, to });
    };
    try {
      if (options.force) {
        for (const file of [databasePath, ...DATABASE_COMPANIONS.map((suffix) => `${databasePath}${suffix}`), storageDir]) {
          if (await exists(file)) await move(file, `${file}.before-restore-${stamp}`);
        }
      } else if (await exists(storageDir)) {
        // Folders without a file in them (checked above): nothing to keep.
        await rm(storageDir, { recursive: true });
      }
      await move(stagedDatabase, databasePath);
      await move(stagedStorage, storageDir);
    } catch (error) {
      for (const { from, to } of moves.reverse()) await rename(to, from).catch(() => undefined);
      throw error;
    }
    const setAside = moves.filter(({ from }) => from !== stagedDatabase && from !== stagedStorage).map(({ to }) => to);
    restored = true;
    for (const dir of new Set([path.dirname(databasePath), path.dirname(storageDir)])) await syncFolder(dir);
    return {
      createdAt: manifest.createdAt,
      databasePath,
      storageDir,
      database: counts,
      migrationsApplied,
      storage: { files: manifest.storage.files, bytes: manifest.storage.bytes },
      setAside,
    };
  } finally {
    await staging.remove(!restored);
  }
}

/** What at the target a restore would replace: a database (or its log) and the store's files. */
async function existingData(databasePath: string, storageDir: string): Promise<string[]> {
  const present: string[] = [];
  for (const file of [databasePath, ...DATABASE_COMPANIONS.map((suffix) => `${databasePath}${suffix}`)]) {
    if (await exists(file)) present.push(`database: ${file}`);
  }
  if (await holdsAFile(storageDir)) present.push(`stored files under ${storageDir}`);
  return present;
}

async function holdsAFile(dir: string): Promise<boolean> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    if (errorCode(error) === 'ENOTDIR') return true;
    throw error;
  }
  for (const entry of entries) {
    if (!entry.isDirectory()) return true;
    if (await holdsAFile(path.join(dir, entry.name))) return true;
  }
  return false;
}

/**
 * One hidden folder beside each target (the database's folder and the store's parent are usually
 * the same, DATA_DIR): renames out of it stay on one file system. `remove(undo)` deletes them, and
 * with `undo` also the folders made to hold them, so a refused archive leaves the target as it was.
 */
async function createStaging(parents: string[], stamp: string) {
  const folders = new Map<string, string>();
  const made: string[] = [];
  const suffix = randomBytes(4).toString('hex');
  for (const parent of new Set(parents)) {
    const first = await mkdir(parent, { recursive: true });
    if (first) made.push(first);
    const folder = path.join(parent, `.restore-${stamp}-${suffix}`);
    await mkdir(folder);
    folders.set(parent, folder);
  }
  return {
    folderBeside(target: string): string {
      return folders.get(path.dirname(target))!;
    },
    async remove(undo: boolean): Promise<void> {
      for (const folder of folders.values()) await rm(folder, { recursive: true, force: true });
      if (!undo) return;
      // Up from each parent to the first folder made for it, while they are empty.
      const within = (dir: string, top: string) => dir === top || dir.startsWith(`${top}${path.sep}`);
      for (const parent of folders.keys()) {
        const top = made.find((first) => within(parent, first));
        for (let dir = parent; top !== undefined && within(dir, top); dir = path.dirname(dir)) {
          const removed = await rmdir(dir).then(
            () => true,
            () => false,
          );
          if (!removed) break;
        }
      }
    },
  };
}

/** Unpacks the archive into the staged database file and store folder, checking every entry against the manifest. */
async function unpack(archivePath: string, stagedDatabase: string, stagedStorage: string): Promise<TBackupManifest> {
  await mkdir(stagedStorage);
  const digest = createStorageDigest();
  const madeFolders = new Set<string>([stagedStorage]);
  let database: { sha256: string; size: number } | undefined;
  let manifestBytes: Buffer | undefined;
  const gunzip = createGunzip();
  const reading = pipeline(createReadStream(archivePath), gunzip).catch(() => undefined);
  try {
    await readTar(gunzip, async (entry, body) => {
      if (manifestBytes) throw new DamagedArchiveError(`${entry.name} comes after the manifest, which is written last`);
      if (entry.name === MANIFEST_ENTRY) {
        if (entry.size > MANIFEST_MAX_BYTES) throw new DamagedArchiveError(`Its manifest is ${entry.size} bytes, larger than any backup writes`);
        const chunks: Buffer[] = [];
        for await (const chunk of body) chunks.push(chunk);
        manifestBytes = Buffer.concat(chunks);
      } else if (entry.name === DATABASE_ENTRY) {
        if (database) throw new DamagedArchiveError('It holds the database twice');
        database = await writeFile(body, stagedDatabase, entry.mtimeMs);
      } else if (entry.name.startsWith(STORAGE_ENTRY_PREFIX)) {
        const relative = entry.name.slice(STORAGE_ENTRY_PREFIX.length);
        const segments = relative.split('/');
        // A path that could leave the store, as the disk driver's key rule has it (storage.ts: assertSafeKey).
        if (segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\0') || s.includes('\\'))) {
          throw new DamagedArchiveError(`It holds an unsafe path: ${JSON.stringify(entry.name)}`);
        }
        const target = path.join(stagedStorage, ...segments);
        const folder = path.dirname(target);
        if (!madeFolders.has(folder)) {
          await mkdir(folder, { recursive: true });
          madeFolders.add(folder);
        }
        const written = await writeFile(body, target, entry.mtimeMs);
        digest.add(relative, written.size, written.sha256);
      } else {
        throw new DamagedArchiveError(`It holds ${JSON.stringify(entry.name)}, which is not part of a Dropsite backup`);
      }
    });
  } catch (error) {
    if (error instanceof DamagedArchiveError) throw error;
    if (error instanceof TarFormatError || isZlibError(error)) throw new DamagedArchiveError(`The archive cannot be read: ${(error as Error).message}`, { cause: error });
    if (errorCode(error) === 'EEXIST') throw new DamagedArchiveError('It holds the same file twice', { cause: error });
    throw error;
  } finally {
    gunzip.destroy();
    await reading;
  }
  if (!manifestBytes) throw new DamagedArchiveError('It has no manifest: the archive is incomplete');
  const manifest = parseManifest(manifestBytes);
  if (typeof manifest === 'string') throw new DamagedArchiveError(`It cannot be restored: ${manifest}`);
  if (!database) throw new DamagedArchiveError('It holds no database');
  if (database.sha256 !== manifest.database.sha256 || database.size !== manifest.database.bytes) {
    throw new DamagedArchiveError(
      `Its database does not match the manifest (SHA-256 ${database.sha256}, ${database.size} bytes; the manifest says ${manifest.database.sha256}, ${manifest.database.bytes} bytes)`,
    );
  }
  const storage = digest.result();
  if (storage.files !== manifest.storage.files || storage.bytes !== manifest.storage.bytes || storage.digest !== manifest.storage.digest) {
    throw new DamagedArchiveError(
      `Its stored files do not match the manifest (${storage.files} files, ${storage.bytes} bytes; the manifest says ${manifest.storage.files} files, ${manifest.storage.bytes} bytes${storage.files === manifest.storage.files && storage.bytes === manifest.storage.bytes ? ', with other contents' : ''})`,
    );
  }
  return manifest;
}

/** Writes a new file (never over one) durably, with the archived modification time; answers its SHA-256 and size. */
async function writeFile(body: AsyncIterable<Buffer>, target: string, mtimeMs: number): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  await pipeline(
    async function* () {
      for await (const chunk of body) {
        hash.update(chunk);
        size += chunk.length;
        yield chunk;
      }
    },
    createWriteStream(target, { flags: 'wx', flush: true }),
  );
  const when = new Date(mtimeMs);
  await utimes(target, when, when);
  return { sha256: hash.digest('hex'), size };
}

/**
 * Opens the staged database as the API does and runs this version's migrations (an archive from an
 * older version is brought up to date here, one from a newer one is refused), then counts it.
 */
async function openAndMigrate(file: string): Promise<{ counts: TDatabaseCounts; migrationsApplied: string[] }> {
  const handle = await createDatabase(`sqlite:${file}`);
  let counts: TDatabaseCounts;
  let migrationsApplied: string[];
  try {
    migrationsApplied = await applyPendingMigrations(handle.db);
    const sites = await handle.db
      .selectFrom('projects')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    const files = await handle.db
      .selectFrom('files')
      .innerJoin('projects', 'projects.id', 'files.project_id')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.coalesce(eb.fn.sum<number>('files.size'), eb.val(0)).as('bytes')])
      .where('projects.deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    counts = { sites: Number(sites.n), files: Number(files.n), fileBytes: Number(files.bytes) };
  } finally {
    await handle.close();
  }
  // The last connection's close folds the log back into the file; a log left over would not follow it into place.
  const log = await stat(`${file}-wal`).catch(() => null);
  if (log && log.size > 0) throw new Error(`The restored database kept a write-ahead log (${file}-wal) after it was closed; nothing was moved into place`);
  await rm(`${file}-wal`, { force: true });
  await rm(`${file}-shm`, { force: true });
  return { counts, migrationsApplied };
}

async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(() => undefined);
  try {
    await handle?.sync();
  } catch {
    // Not every platform can fsync a folder.
  } finally {
    await handle?.close();
  }
}

async function exists(file: string): Promise<boolean> {
  return lstat(file).then(
    () => true,
    () => false,
  );
}

function isZlibError(error: unknown): boolean {
  return errorCode(error)?.startsWith('Z_') === true;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
