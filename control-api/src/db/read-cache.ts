/**
 * Answers for hot reads (a site's access row, a file's comment threads, a visitor's name) kept in
 * memory while they are still exactly what the database holds. A cached answer is reused only while nothing it was
 * read from changed: the tables it read, or, when the reader names them, the very rows (a site's row
 * and its file's, which a publish of another site, adding its own rows, leaves alone).
 *
 * - SQLite: the process sees every change. Its own writes are noted as each statement runs (the
 *   table it writes; rows it adds; the row of an update by id), and commits of other processes on
 *   the same file (an ops command, a builder) show in SQLite's `data_version`, so a password
 *   change, an expiry or a new comment is seen by the very next request.
 * - PostgreSQL (`pg-change-feed.ts`): other API processes write too. This process's own writes
 *   move their tables once committed; everyone's commits reach every process as notifications sent
 *   by triggers on the cached tables, a moment after the commit.
 *
 * Cached answers are shared between requests: callers must treat them as read-only.
 */
import type SQLite from 'better-sqlite3';
import type { TQueryCache } from './compiled-query.ts';

export interface ReadCache {
  /**
   * `load()`'s answer, kept while none of `tables` changed. When `rowsOf` gives the rows (by their
   * `id` column) an answer was read from, it is kept while none of those rows changed: rows added to
   * the tables, or other rows changed, leave it be. `rowsOf` answering null (nothing found: a row
   * added may be the one asked for) falls back to the whole tables.
   */
  read<T>(key: string, tables: readonly string[], load: () => Promise<T>, rowsOf?: (value: T) => readonly TRowRef[] | null): Promise<T>;
}

/** A row an answer was read from: its table and the value of its `id` column. */
export interface TRowRef {
  table: string;
  id: string;
}

/** The part of a prepared statement's life the cache needs to see. */
export interface TSqliteWriteTracker {
  cache: ReadCache;
  /** Called with the text (and, when known, the parameters) of every statement about to run on the connection. */
  noteStatement(sql: string, parameters?: readonly unknown[]): void;
  /** Called when SQL runs outside prepared statements (exec): anything may have changed. */
  noteUnknownChange(): void;
}

const MAX_ENTRIES = 10_000;
/** Rows whose last change is remembered, per table; past that, the table counts as wholly changed. */
const MAX_ROWS_PER_TABLE = 50_000;

/**
 * Tables whose deletes cascade (or set null) into others: deleting from one may change any
 * cached answer. Deletes elsewhere (a favourite taken back) change only their own table.
 */
const CASCADING_PARENTS = new Set(['creators', 'projects', 'files', 'upload_sessions', 'upload_files']);

const WRITE_STATEMENT = /^\s*(insert|replace|update|delete)\b(?:\s+or\s+\w+)?\s+(?:into\s+|from\s+)?"?([A-Za-z_]\w*)"?/i;
const NO_DATA_CHANGE = /^\s*(?:select|pragma|begin|commit|end|rollback|savepoint|release|explain)\b/i;
/** An insert that only adds rows: no `or replace`, no `on conflict … do update`. */
const PLAIN_INSERT = /^\s*insert\s+into\b/i;
const UPSERT = /\bon\s+conflict\b/i;
/** `replace` and `insert or replace`: a row in the way is deleted first. */
const REPLACE = /^\s*(?:replace|insert\s+or\s+replace)\b/i;
/**
 * An update of the one row whose `id` is the last parameter: `update "t" set … where "id" = ?`, with
 * nothing after but a `returning` list. One that reads other tables (`from`, a join) is not one.
 */
const ROW_UPDATE = /^\s*update\s+"?[A-Za-z_]\w*"?\s+set\s[\s\S]*\swhere\s+(?:"?[A-Za-z_]\w*"?\.)?"?id"?\s*=\s*\?\s*(?:returning\s[^?]*)?;?\s*$/i;
const READS_OTHER_TABLES = /\b(?:from|join)\b/i;

/**
 * `load()`, or its cached answer when there is a cache (the runtime's `deps.caches.reads`, made with
 * its SQLite handle) and nothing it was read from changed since. Inside a transaction it always
 * loads: a transaction sees its own uncommitted writes, which must never be answered to anyone else.
 */
export function cachedRead<T>(
  db: { isTransaction: boolean },
  cache: ReadCache | undefined,
  key: string,
  tables: readonly string[],
  load: () => Promise<T>,
  rowsOf?: (value: T) => readonly TRowRef[] | null,
): Promise<T> {
  return cache && !db.isTransaction ? cache.read(key, tables, load, rowsOf) : load();
}

interface TEntry {
  /** The change sequence when the load began: a change after it makes the entry stale. */
  at: number;
  dataVersion: number;
  tables: readonly string[];
  rows: readonly TRowRef[] | null;
  value: unknown;
}

/** What a statement about to run may change: nothing, rows it adds, one row, some tables, or anything (DDL, unrecognised SQL). */
export type TStatementWrites =
  | { kind: 'none' }
  | { kind: 'insert'; table: string }
  | { kind: 'row'; table: string; id: string }
  | { kind: 'tables'; tables: readonly string[] }
  | { kind: 'everything' };

const NONE: TStatementWrites = { kind: 'none' };
const EVERYTHING: TStatementWrites = { kind: 'everything' };
/** A write inside a `with` statement (PostgreSQL's data-modifying common table expressions). */
const WRITE_IN_WITH = /\b(insert\s+into|update|delete\s+from)\s+"?([A-Za-z_]\w*)"?/gi;

/**
 * What `sql` may change. Given its parameters, an update of one row by id is told apart (a
 * statement's parameters are only known as it runs); without them, it changes its table.
 */
export function writesOfStatement(sql: string, parameters?: readonly unknown[]): TStatementWrites {
  if (NO_DATA_CHANGE.test(sql)) return NONE;
  const match = WRITE_STATEMENT.exec(sql);
  if (match) {
    const table = tableWrittenBy(match[1]!, match[2]!, REPLACE.test(sql));
    if (table === null) return EVERYTHING;
    if (PLAIN_INSERT.test(sql) && !UPSERT.test(sql)) return { kind: 'insert', table };
    const id = parameters && rowUpdatedBy(sql, parameters);
    return id ? { kind: 'row', table, id } : { kind: 'tables', tables: [table] };
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

/** The id of the one row an update by id changes, or null when it may change others. */
function rowUpdatedBy(sql: string, parameters: readonly unknown[]): string | null {
  if (!ROW_UPDATE.test(sql) || READS_OTHER_TABLES.test(sql)) return null;
  // The id is the last placeholder's value only when every placeholder has its value.
  let placeholders = 0;
  for (let i = sql.indexOf('?'); i !== -1; i = sql.indexOf('?', i + 1)) placeholders++;
  if (placeholders !== parameters.length) return null;
  const id = parameters[parameters.length - 1];
  return typeof id === 'string' || typeof id === 'number' || typeof id === 'bigint' ? String(id) : null;
}

/** The table a write changes, or null when it may change any (a delete, or a replace that deletes, that cascades). */
function tableWrittenBy(verb: string, table: string, replaces = false): string | null {
  const name = table.toLowerCase();
  return (verb.toLowerCase().startsWith('delete') || replaces) && CASCADING_PARENTS.has(name) ? null : name;
}

/**
 * When each table, and each row of a table changed one at a time, last changed, as a sequence that
 * only grows. An answer taken at sequence `at` is current while nothing it was read from changed
 * after `at`.
 */
export interface TTableChanges {
  now(): number;
  changedSince(at: number, tables: readonly string[], rows: readonly TRowRef[] | null): boolean;
  /** The table changed in any way. */
  bump(table: string): void;
  bumpEverything(): void;
  /** Applies what `writesOfStatement` found. */
  note(writes: TStatementWrites): void;
}

export function createTableChanges(maxRowsPerTable = MAX_ROWS_PER_TABLE): TTableChanges {
  let sequence = 0;
  let everythingAt = 0;
  /** The last change of any kind to each table. */
  const anyAt = new Map<string, number>();
  /** The last change to each table other than rows added or one row updated: it may have changed any row. */
  const wideAt = new Map<string, number>();
  /** The last update of each row changed one at a time, per table. */
  const rowAt = new Map<string, Map<string, number>>();

  const bump = (table: string): void => {
    const at = ++sequence;
    anyAt.set(table, at);
    wideAt.set(table, at);
    rowAt.delete(table);
  };
  const bumpEverything = (): void => {
    everythingAt = ++sequence;
    rowAt.clear();
  };
  const bumpRow = (table: string, id: string): void => {
    const rows = rowAt.get(table) ?? new Map<string, number>();
    if (rows.size >= maxRowsPerTable && !rows.has(id)) {
      bump(table);
      return;
    }
    const at = ++sequence;
    anyAt.set(table, at);
    rows.set(id, at);
    rowAt.set(table, rows);
  };
  return {
    now: () => sequence,
    changedSince(at, tables, rows) {
      if (everythingAt > at) return true;
      if (rows === null) {
        for (const table of tables) if ((anyAt.get(table) ?? 0) > at) return true;
        return false;
      }
      for (const row of rows) {
        if ((wideAt.get(row.table) ?? 0) > at) return true;
        if ((rowAt.get(row.table)?.get(row.id) ?? 0) > at) return true;
      }
      return false;
    },
    bump,
    bumpEverything,
    note(writes) {
      switch (writes.kind) {
        case 'insert':
          anyAt.set(writes.table, ++sequence);
          return;
        case 'row':
          bumpRow(writes.table, writes.id);
          return;
        case 'tables':
          for (const table of writes.tables) bump(table);
          return;
        case 'everything':
          bumpEverything();
          return;
        case 'none':
          return;
      }
    },
  };
}

/**
 * A cache of answers checked against `changes` and against `version()` (a value that moves with
 * changes the sequence cannot see); `version()` answering null means nothing may be cached now.
 */
export function createChangeCheckedCache(changes: TTableChanges, version: (tables: readonly string[]) => number | null): ReadCache {
  const entries = new Map<string, TEntry>();
  return {
    async read<T>(key: string, tables: readonly string[], load: () => Promise<T>, rowsOf?: (value: T) => readonly TRowRef[] | null): Promise<T> {
      const current = version(tables);
      if (current === null) return load();
      const entry = entries.get(key);
      if (entry && entry.dataVersion === current && !changes.changedSince(entry.at, entry.tables, entry.rows)) return entry.value as T;
      // Taken before loading: a write that lands while the load awaits makes this entry stale at once.
      const at = changes.now();
      const value = await load();
      if (entries.size >= MAX_ENTRIES) entries.clear();
      entries.set(key, { at, dataVersion: current, tables, rows: rowsOf?.(value) ?? null, value });
      return value;
    },
  };
}

export function createSqliteWriteTracker(prepareDataVersion: () => SQLite.Statement): TSqliteWriteTracker {
  const changes = createTableChanges();
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
    cache: createChangeCheckedCache(changes, dataVersion),
    noteStatement(sql, parameters) {
      changes.note(writesOfStatement(sql, parameters));
    },
    noteUnknownChange() {
      changes.bumpEverything();
    },
  };
}

/** A runtime's database caches as repositories take them (`deps.caches`); a repository test may give none. */
export interface TDbCaches {
  reads?: ReadCache | undefined;
  queries?: TQueryCache | undefined;
}
