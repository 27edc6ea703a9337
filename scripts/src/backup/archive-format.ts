/**
 * What a backup archive holds, under one folder so that unpacking it by hand makes no mess:
 *
 *   dropsite-backup/database.sqlite   the database snapshot (one file, no write-ahead log)
 *   dropsite-backup/storage/…         the disk store's files, by their path under STORAGE_DIR
 *   dropsite-backup/manifest.json     written last: what the entries before it must be
 *
 * The manifest names the snapshot's SHA-256 and size, and the store's file count, bytes and a
 * digest of every file's path, size and SHA-256 in archive order; a restore checks all of them.
 */
import { createHash } from 'node:crypto';

export const ARCHIVE_ROOT = 'dropsite-backup';
export const DATABASE_ENTRY = `${ARCHIVE_ROOT}/database.sqlite`;
export const STORAGE_ENTRY_PREFIX = `${ARCHIVE_ROOT}/storage/`;
export const MANIFEST_ENTRY = `${ARCHIVE_ROOT}/manifest.json`;
/** Larger than any manifest we write; a bigger one is refused unread. */
export const MANIFEST_MAX_BYTES = 1024 * 1024;

const FORMAT = 'dropsite-backup';
const VERSION = 1;

/** What the snapshot holds, counted from the snapshot itself. */
export interface TDatabaseCounts {
  /** Sites not deleted (live, building, failed, expired or taken down). */
  sites: number;
  /** Files of those sites. */
  files: number;
  /** Their bytes as uploaded. */
  fileBytes: number;
}

export interface TBackupManifest {
  format: typeof FORMAT;
  version: typeof VERSION;
  /** When the backup was taken (ISO 8601). */
  createdAt: string;
  database: TDatabaseCounts & { bytes: number; sha256: string };
  storage: { files: number; bytes: number; digest: string };
}

export function buildManifest(fields: Omit<TBackupManifest, 'format' | 'version'>): TBackupManifest {
  return { format: FORMAT, version: VERSION, ...fields };
}

/** The manifest, or a reason it is not one this version can restore. */
export function parseManifest(bytes: Buffer): TBackupManifest | string {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return 'its manifest is not JSON';
  }
  if (!isRecord(value) || value.format !== FORMAT) return 'its manifest is not a Dropsite backup manifest';
  if (value.version !== VERSION) return `it was written in backup format ${String(value.version)}, which this version cannot restore`;
  const { createdAt, database, storage } = value;
  const counts = ['sites', 'files', 'fileBytes', 'bytes'] as const;
  if (
    typeof createdAt !== 'string' ||
    !isRecord(database) ||
    !counts.every((name) => isCount(database[name])) ||
    typeof database.sha256 !== 'string' ||
    !isRecord(storage) ||
    !isCount(storage.files) ||
    !isCount(storage.bytes) ||
    typeof storage.digest !== 'string'
  ) {
    return 'its manifest is missing fields';
  }
  return value as unknown as TBackupManifest;
}

/** A running digest of the store's files as archived: path, size and SHA-256 of each, in order. */
export function createStorageDigest() {
  const hash = createHash('sha256');
  let files = 0;
  let bytes = 0;
  return {
    add(relativePath: string, size: number, sha256: string): void {
      hash.update(`${relativePath}\0${size}\0${sha256}\n`);
      files += 1;
      bytes += size;
    },
    result(): TBackupManifest['storage'] {
      return { files, bytes, digest: hash.copy().digest('hex') };
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
