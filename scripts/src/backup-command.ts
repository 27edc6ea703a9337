/**
 * npm run backup [-- --out <dir>]
 * Backs up the embedded defaults (the SQLite database and the disk store) while the server keeps
 * running and writing, as one archive: <dir>/dropsite-<UTC time>.tar.gz, by default in `backups`
 * beside DATA_DIR. The archive gets its name only once it is whole. `npm run restore` brings it back.
 */
import path from 'node:path';
import { formatBytes } from '@dropsite/shared';
import { keepDataPrivate, loadConfig } from '@dropsite/control-api';
import { createBackup, type TBackupResult } from './backup/backup.ts';
import { embeddedDataOf, RefusedError } from './backup/locations.ts';
import { failUsage, readCommandLine } from './cli.ts';
import { createProgressBar } from './progress-bar.ts';

process.env.NODE_ENV ??= 'production';

const USAGE = `Usage: npm run backup [-- --out <dir>]

Backs up the database (SQLite) and the stored files (disk storage) while the server keeps
running, into one archive: <dir>/dropsite-<UTC time>.tar.gz. Bring it back with
npm run restore -- <archive>. PostgreSQL and S3 storage are backed up with their own tools:
see docs/operations.md, "Backup and restore".

Options:
  --out <dir>  Folder for the archive (default: "backups" beside DATA_DIR, ./backups for ./data).
  -h, --help   Show this help.
`;

function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function describe(result: TBackupResult): string {
  const { database, storage, skipped } = result;
  const lines = [
    `Backed up to ${result.archivePath} (${formatBytes(result.archiveBytes)})`,
    `  database: ${database.sites} sites, ${database.files} files (${formatBytes(database.fileBytes)} of uploads); snapshot ${formatBytes(database.bytes)}, SHA-256 ${database.sha256}`,
    `  storage: ${storage.files} files, ${formatBytes(storage.bytes)}`,
  ];
  const left: string[] = [];
  if (skipped.temporaryFiles > 0) left.push(`${counted(skipped.temporaryFiles, 'temporary file')} of writes in progress`);
  if (skipped.uploadsInProgress > 0) left.push(`${counted(skipped.uploadsInProgress, 'resumable upload')} not yet finished (after a restore the uploader starts again)`);
  if (skipped.notFiles > 0) left.push(`${counted(skipped.notFiles, 'entry', 'entries')} that are not files (links, sockets)`);
  if (left.length > 0) lines.push(`  left out: ${left.join('; ')}`);
  if (!result.pinned) {
    lines.push(
      `  note: the stored files could not be hard-linked beside the store, so files deleted while the archive was written are missing from it${skipped.deletedWhileCopying > 0 ? ` (${skipped.deletedWhileCopying})` : ''}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const { values } = readCommandLine(USAGE, { out: { type: 'string' } });
if (values.out === '') failUsage(USAGE, '--out takes a folder.');
let exitCode = 0;
try {
  const config = loadConfig();
  // The archive holds the database and the stored originals: readable by this user only, as they are.
  keepDataPrivate(config);
  const data = embeddedDataOf(config);
  const outDir = path.resolve(values.out ?? data.defaultBackupDir);
  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort(new Error(`stopped by ${signal}`)));
  // A bar on a terminal only: from cron every line is mailed.
  const bar = process.stderr.isTTY ? createProgressBar('Archiving stored files') : undefined;
  const result = await createBackup({
    databasePath: data.databasePath,
    storageDir: data.storageDir,
    outDir,
    signal: stop.signal,
    onProgress: ({ done, total }) => bar?.update(done, total),
  });
  process.stdout.write(describe(result));
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof RefusedError) {
    process.stderr.write(`${message}\n`);
    exitCode = 2;
  } else {
    process.stderr.write(`Backup failed: ${message}\nNo archive was written.\n`);
    exitCode = 1;
  }
}
process.exit(exitCode);
