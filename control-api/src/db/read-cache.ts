/**
 * Answers for hot reads (a site's access row, a file's comment threads) kept in memory while they
 * are still exactly what the database holds. A cached answer is stamped with a generation per table
 * it read, and reused only while none of them moved.
 *
 * - SQLite: the process sees every change. Its own writes are noted as each statement is prepared
 *   (by the table it writes), and commits of other processes on the same file (an ops command, a
 *   builder) show in SQLite's `data_version`, so a password change, an expiry or a new comment is
 *   seen by the very next request.
 * - PostgreSQL (`pg-change-feed.ts`): other API processes write too. This process's own writes
 *   move their tables once committed; everyone's commits reach every process as notifications sent
 *   by triggers on the cached tables, a moment after the commit.
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

/** What a statement about to run may change: nothing, some tables, or anything (DDL, unrecognised SQL). */
export type TStatementWrites = { kind: 'none' } | { kind: 'tables'; tables: readonly string[] } | { kind: 'everything' };

const NONE: TStatementWrites = { kind: 'none' };
const EVERYTHING: TStatementWrites = { kind: 'everything' };
/** A write inside a `with` statement (PostgreSQL's data-modifying common table expressions). */
const WRITE_IN_WITH = /\b(insert\s+into|update|delete\s+from)\s+"?([A-Za-z_]\w*)"?/gi;

export function writesOfStatement(sql: string): TStatementWrites {
  if (NO_DATA_CHANGE.test(sql)) return NONE;
  const match = WRITE_STATEMENT.exec(sql);
  if (match) {
    const table = tableWrittenBy(match[1]!, match[2]!);
    return table === null ? EVERYTHING : { kind: 'tables', tables: [table] };
  }
  if (!/^\s*with\b/i.test(sql)) return EVERYTHING;
  const tables: string[] = [];
  for (const [, verb, table] of sql.matchAll(WRITE_IN_WITH)) {
    const written = tableWrittenBy(verb!, table!);
    if (written === null) return EVERYTHING;
    tables.push(written);
  }
  return tables.length === 0 ? NONE : { kind: 'tables', tables };
}

/** The table a write changes, or null when it may change any (a delete that cascades). */
function tableWrittenBy(verb: string, table: string): string | null {
  const name = table.toLowerCase();
  const action = verb.toLowerCase();
  return (action.startsWith('delete') || action === 'replace') && CASCADING_PARENTS.has(name) ? null : name;
}

/** A counter per table and one for everything: a cached answer's stamp is their sum over what it read. */
export interface TTableGenerations {
  stampOf(tables: readonly string[]): number;
  bump(table: string): void;
  bumpEverything(): void;
  /** Applies what `writesOfStatement` found. */
  note(writes: TStatementWrites): void;
}

export function createTableGenerations(): TTableGenerations {
  const generations = new Map<string, number>();
  /** Bumped by changes that may touch any table; part of every stamp. */
  let everything = 0;
  const bump = (table: string) => generations.set(table, (generations.get(table) ?? 0) + 1);
  return {
    // Changes whenever any of the tables (or everything) is written; generations only grow.
    stampOf(tables) {
      let stamp = everything;
      for (const table of tables) stamp += generations.get(table) ?? 0;
      return stamp;
    },
    bump,
    bumpEverything() {
      everything++;
    },
    note(writes) {
      if (writes.kind === 'tables') for (const table of writes.tables) bump(table);
      else if (writes.kind === 'everything') everything++;
    },
  };
}

/**
 * A cache of answers stamped with `generations` and with `version()` (a value that moves with
 * changes the generations cannot see); `version()` answering null means nothing may be cached now.
 */
export function createGenerationalCache(generations: TTableGenerations, version: (tables: readonly string[]) => number | null): ReadCache {
  const entries = new Map<string, TEntry>();
  return {
    async read<T>(key: string, tables: readonly string[], load: () => Promise<T>): Promise<T> {
      const current = version(tables);
      if (current === null) return load();
      const stamp = generations.stampOf(tables);
      const entry = entries.get(key);
      if (entry && entry.stamp === stamp && entry.dataVersion === current) return entry.value as T;
      // Stamped before loading: a write that lands while the load awaits makes this entry stale at once.
      const value = await load();
      if (entries.size >= MAX_ENTRIES) entries.clear();
      entries.set(key, { stamp, dataVersion: current, value });
      return value;
    },
  };
}

export function createSqliteWriteTracker(prepareDataVersion: () => SQLite.Statement): TSqliteWriteTracker {
  const generations = createTableGenerations();
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

  return {
    cache: createGenerationalCache(generations, dataVersion),
    noteStatement(sql) {
      generations.note(writesOfStatement(sql));
    },
    noteUnknownChange() {
      generations.bumpEverything();
    },
  };
}

/** A runtime's database caches as repositories take them (`deps.caches`); a repository test may give none. */
export interface TDbCaches {
  reads?: ReadCache | undefined;
  queries?: TQueryCache | undefined;
}
