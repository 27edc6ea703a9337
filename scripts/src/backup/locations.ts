/**
 * Where the embedded defaults keep their data: the SQLite file and the disk store, from the
 * configuration. Backup and restore work on those two only; a PostgreSQL database or an S3 bucket
 * is backed up with its own tools (docs/operations.md, "Backup and restore").
 */
import path from 'node:path';
import type { TConfig } from '@dropsite/control-api';

export interface TEmbeddedData {
  /** The SQLite database file. */
  databasePath: string;
  /** The root of the disk store (STORAGE_DIR, by default DATA_DIR/storage). */
  storageDir: string;
  /** Where archives go when no --out is given: `backups` beside DATA_DIR (./backups for the default ./data). */
  defaultBackupDir: string;
}

/** A configuration these commands cannot work on, or a call they refuse: nothing was done. */
export class RefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedError';
  }
}

/** The embedded defaults' locations; RefusedError for PostgreSQL, S3 or an in-memory database. */
export function embeddedDataOf(config: Pick<TConfig, 'dataDir' | 'databaseUrl' | 'storage'>): TEmbeddedData {
  const refusals: string[] = [];
  if (/^postgres(ql)?:\/\//i.test(config.databaseUrl)) {
    refusals.push('DATABASE_URL is PostgreSQL: back it up with pg_dump -Fc and restore it with pg_restore.');
  }
  if (config.storage.driver === 's3') {
    refusals.push(`Storage is the S3 bucket ${config.storage.bucket}: keep it with bucket versioning and a lifecycle rule for old versions.`);
  }
  const databasePath = sqlitePathOf(config.databaseUrl);
  if (refusals.length === 0 && (databasePath === '' || databasePath === ':memory:')) refusals.push('DATABASE_URL names an in-memory database: there is nothing to back up.');
  if (refusals.length > 0 || config.storage.driver !== 'disk') {
    throw new RefusedError(
      `${refusals.join('\n')}\nnpm run backup and npm run restore cover the embedded defaults (SQLite and disk storage) only; see docs/operations.md, "Backup and restore".`,
    );
  }
  return { databasePath: path.resolve(databasePath), storageDir: path.resolve(config.storage.root), defaultBackupDir: path.join(path.dirname(config.dataDir), 'backups') };
}

/** The file a `sqlite:` URL (or plain path) names, read as the API reads it (control-api/src/db/database.ts). */
function sqlitePathOf(url: string): string {
  if (!url.startsWith('sqlite:')) return url;
  const rest = url.slice('sqlite:'.length);
  return rest.startsWith('//') ? rest.slice(2) : rest;
}
