/**
 * npm run restore -- <archive> [--force]   (or --from <archive>)
 * Brings back a backup made by `npm run backup` as the database and stored files of the embedded
 * defaults (DATA_DIR, DATABASE_URL, STORAGE_DIR). The archive is unpacked beside the target and
 * checked against its manifest, and the database opened and migrated, before anything is moved
 * into place. A target that already holds data is refused unless --force, which renames that data
 * aside first. Run it with the server stopped.
 */
import path from 'node:path';
import { formatBytes } from '@dropsite/shared';
import { keepDataPrivate, loadConfig } from '@dropsite/control-api';
import { embeddedDataOf, RefusedError } from './backup/locations.ts';
import { DamagedArchiveError, restoreBackup, type TRestoreResult } from './backup/restore.ts';
import { failUsage, readCommandLine } from './cli.ts';

process.env.NODE_ENV ??= 'production';

const USAGE = `Usage: npm run restore -- <archive> [--force]
       npm run restore -- --from <archive> [--force]

Restores a backup made by npm run backup into the configured data folder (DATA_DIR, or
DATABASE_URL and STORAGE_DIR): its database and stored files. The archive is checked whole and
the database migrated before anything is moved into place. Stop the server first.

Options:
  --from <archive>  The archive (instead of naming it alone).
  --force           Restore over a data folder that already holds a database or stored files:
                    they are renamed aside (<name>.before-restore-<time>), not deleted.
  -h, --help        Show this help.
`;

function migrations(applied: string[]): string {
  if (applied.length === 0) return 'its schema is up to date';
  return `brought up to date by ${applied.length === 1 ? 'migration' : `${applied.length} migrations:`} ${applied.join(', ')}`;
}

function describe(archive: string, result: TRestoreResult): string {
  const { database, storage } = result;
  const lines = [
    `Restored ${archive} (backup taken ${result.createdAt})`,
    `  database: ${result.databasePath}: ${database.sites} sites, ${database.files} files (${formatBytes(database.fileBytes)} of uploads); ${migrations(result.migrationsApplied)}`,
    `  storage: ${result.storageDir}: ${storage.files} files, ${formatBytes(storage.bytes)}`,
  ];
  if (result.setAside.length > 0) lines.push('The data that was there is set aside (delete it once the restored data looks right):', ...result.setAside.map((p) => `  ${p}`));
  lines.push('Start the server, then run npm run rebuild -- --all: until they are built again, restored site pages are sent without their cache tags.');
  return `${lines.join('\n')}\n`;
}

const { values, positionals } = readCommandLine(USAGE, { from: { type: 'string' }, force: { type: 'boolean', default: false } }, { positionals: true });
const archives = [...(values.from === undefined ? [] : [values.from]), ...positionals];
if (archives.length !== 1 || archives[0] === '') failUsage(USAGE, archives.length > 1 ? `Name one archive, not ${archives.length}.` : 'Name the archive to restore.');
const archive = path.resolve(archives[0]!);
let exitCode = 0;
try {
  const config = loadConfig();
  keepDataPrivate(config);
  const data = embeddedDataOf(config);
  const result = await restoreBackup({ archivePath: archive, databasePath: data.databasePath, storageDir: data.storageDir, force: values.force });
  process.stdout.write(describe(archive, result));
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof RefusedError) {
    process.stderr.write(`${message}\n`);
    exitCode = 2;
  } else if (error instanceof DamagedArchiveError) {
    process.stderr.write(`Refused ${archive}: ${message}.\nNothing was changed.\n`);
    exitCode = 1;
  } else {
    process.stderr.write(`Restore failed: ${message}\nNothing was moved into place.\n`);
    exitCode = 1;
  }
}
process.exit(exitCode);
