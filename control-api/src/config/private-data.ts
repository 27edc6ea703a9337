/**
 * The data folder holds the database (password hashes, email addresses), stored originals of locked
 * sites, the outbox and the cookie key: only the user the server runs as may read it. Every entry
 * point (the API, a separate builder, the ops commands) calls keepDataPrivate before it opens
 * anything: from then on what the process creates (the SQLite database and its -wal and -shm, stored
 * objects and their folders, outbox messages, temporary files) is 0600 or 0700 whatever the
 * user's umask, and the data folder made or left readable by others before is closed again.
 */
import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { TConfig } from './config.ts';

/** Nothing a process creates is readable, writable or searchable by its group or anyone else. */
export const PRIVATE_UMASK = 0o077;

/**
 * Sets the process's umask to PRIVATE_UMASK, makes the data folder (and a disk store kept outside it)
 * 0700, and takes group and other access off what the data folder holds at its top (the database
 * files, the cookie key, and the folders everything else is in). Answers what could not be changed
 * (a folder this user does not own), for the caller to report; it never throws for that.
 */
export function keepDataPrivate(config: Pick<TConfig, 'dataDir' | 'storage'>): string[] {
  process.umask(PRIVATE_UMASK);
  const refused: string[] = [];
  const restrict = (target: string, mode: number) => {
    try {
      chmodSync(target, mode);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') refused.push(target);
    }
  };
  const folders = [config.dataDir, ...(config.storage.driver === 'disk' ? [config.storage.root] : [])];
  for (const folder of folders) {
    try {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
    } catch {
      refused.push(folder);
      continue;
    }
    restrict(folder, 0o700);
  }
  let entries: import('node:fs').Dirent[] = [];
  try {
    entries = readdirSync(config.dataDir, { withFileTypes: true });
  } catch {
    // Reported above when it could not be made.
  }
  for (const entry of entries) {
    if (entry.isDirectory()) restrict(path.join(config.dataDir, entry.name), 0o700);
    else if (entry.isFile()) restrict(path.join(config.dataDir, entry.name), 0o600);
  }
  return refused;
}
