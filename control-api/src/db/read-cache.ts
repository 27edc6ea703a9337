/**
 * Answers for hot reads (a site's access row, a file's comment threads) kept in memory while they
 * are still exactly what the database holds. Only on the embedded SQLite database, where the
 * process sees every change: its own writes are noted as each statement is prepared (by the
 * table it writes), and commits of other processes on the same file (an ops command, a builder)
 * show in SQLite's `data_version`. A cached answer is reused only when neither moved since it was
 * read, so a password change, an expiry or a new comment is seen by the very next request.
 * On PostgreSQL, where other API processes write too, every read goes to the database.
 *
 * Cached answers are shared between requests: callers must treat them as read-only.
 */
import type SQLite from 'better-sqlite3';
import type { TQueryCache } from './compiled-query.ts';

export interface ReadCache {
  read<T>(key: string, tables: readonly string[], load: () => Promise<T>): Promise<T>;
}

/** The part of a prepared statement's life the cache needs to see. */
export interface TSqliteWriteTracker {
  cache: ReadCache;
  /** Called with the text of every statement about to run on the connection. */
  noteStatement(sql: string): void;
  /** Called when SQL runs outside prepared statements (exec): anything may have changed. */
  noteUnknownChange(): void;
}

const MAX_ENTRIES = 10_000;

/**
 * Tables whose deletes cascade (or set null) into others: deleting from one may change any
 * cached answer. Deletes elsewhere (a favourite taken back) change only their own table.
 */
const CASCADING_PARENTS = new Set(['creators', 'projects', 'files', 'upload_sessions', 'upload_files']);

const WRITE_STATEMENT = /^\s*(insert|replace|update|delete)\b(?:\s+or\s+\w+)?\s+(?:into\s+|from\s+)?"?([A-Za-z_]\w*)"?/i;
const NO_DATA_CHANGE = /^\s*(?:select|pragma|begin|commit|end|rollback|savepoint|release|explain)\b/i;

/**
 * `load()`, or its cached answer when there is a cache (the runtime's `deps.caches.reads`, made with
 * its SQLite handle) and none of `tables` changed since. Inside a transaction it always loads: a
 * transaction sees its own uncommitted writes, which must never be answered to anyone else.
 */
export function cachedRead<T>(db: { isTransaction: boolean }, cache: ReadCache | undefined, key: string, tables: readonly string[], load: () => Promise<T>): Promise<T> {
  return cache && !db.isTransaction ? cache.read(key, tables, load) : load();
}

interface TEntry {
  stamp: number;
  dataVersion: number;
  value: unknown;
}

export function createSqliteWriteTracker(prepareDataVersion: () => SQLite.Statement): TSqliteWriteTracker {
  const generations = new Map<string, number>();
  /** Bumped by changes that may touch any table; part of every stamp. */
  let everything = 0;
  const entries = new Map<string, TEntry>();
  let dataVersionStatement: SQLite.Statement | null = null;
  /** Read once per turn of the event loop: requests handled in the same turn share it. */
  let turnDataVersion: number | null = null;

  const dataVersion = (): number => {
    if (turnDataVersion !== null) return turnDataVersion;
    dataVersionStatement ??= prepareDataVersion().pluck();
    turnDataVersion = Number(dataVersionStatement.get());
    setImmediate(() => {
      turnDataVersion = null;
    });
    return turnDataVersion;
  };

  /** Changes whenever any of the tables (or everything) is written; generations only grow. */
  const stampOf = (tables: readonly string[]): number => {
    let stamp = everything;
    for (const table of tables) stamp += generations.get(table) ?? 0;
    return stamp;
  };

  const bump = (table: string) => generations.set(table, (generations.get(table) ?? 0) + 1);

  const cache: ReadCache = {
    async read<T>(key: string, tables: readonly string[], load: () => Promise<T>): Promise<T> {
      const version = dataVersion();
      const stamp = stampOf(tables);
      const entry = entries.get(key);
      if (entry && entry.stamp === stamp && entry.dataVersion === version) return entry.value as T;
      // Stamped before loading: a write that lands while the load awaits makes this entry stale at once.
      const value = await load();
      if (entries.size >= MAX_ENTRIES) entries.clear();
      entries.set(key, { stamp, dataVersion: version, value });
      return value;
    },
  };

  return {
    cache,
    noteStatement(sql) {
      if (NO_DATA_CHANGE.test(sql)) return;
      const match = WRITE_STATEMENT.exec(sql);
      if (!match) {
        everything++; // DDL or anything not recognised
        return;
      }
      const verb = match[1]!.toLowerCase();
      const table = match[2]!.toLowerCase();
      if ((verb === 'delete' || verb === 'replace') && CASCADING_PARENTS.has(table)) everything++;
      else bump(table);
    },
    noteUnknownChange() {
      everything++;
    },
  };
}

/** A runtime's database caches as repositories take them (`deps.caches`); a repository test may give none. */
export interface TDbCaches {
  reads?: ReadCache | undefined;
  queries?: TQueryCache | undefined;
}
