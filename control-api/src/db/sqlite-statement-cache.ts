/**
 * better-sqlite3 compiles a statement each time kysely runs a query; for the small queries of
 * the engagement calls that compile is the largest single cost (about a sixth of a request).
 * Reusing the prepared statement for the same SQL text removes it. A statement that is busy
 * (being iterated by a streaming query) is never handed out twice. SQLite re-prepares cached
 * statements itself after a schema change. Each run is told to `onStatement` with its parameters,
 * as it is about to run (the read cache learns there what a write changes).
 */
import type SQLite from 'better-sqlite3';

const MAX_CACHED = 1000;

export function cachePreparedStatements(database: SQLite.Database, onStatement: (source: string, parameters: readonly unknown[]) => void = () => {}): SQLite.Database {
  const prepare = database.prepare.bind(database);
  const cache = new Map<string, SQLite.Statement>();
  const cachedPrepare = (source: string): SQLite.Statement => {
    const cached = cache.get(source);
    if (cached && !cached.busy) return cached;
    const statement = noteEachRun(prepare(source), source, onStatement);
    // Many distinct texts (IN lists of every length) would grow the map without bound.
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(source, statement);
    return statement;
  };
  database.prepare = cachedPrepare as typeof database.prepare;
  return database;
}

/** Tells `onStatement` of every run of the statement, with its parameters, just before it runs. */
function noteEachRun(statement: SQLite.Statement, source: string, onStatement: (source: string, parameters: readonly unknown[]) => void): SQLite.Statement {
  // Kysely passes its parameters as one array; better-sqlite3 also takes them spread.
  const parametersOf = (args: unknown[]): readonly unknown[] => (args.length === 1 && Array.isArray(args[0]) ? args[0] : args);
  const runs = statement as unknown as Record<'run' | 'get' | 'all' | 'iterate', (...args: unknown[]) => unknown>;
  for (const method of ['run', 'get', 'all', 'iterate'] as const) {
    const run = runs[method];
    runs[method] = (...args: unknown[]) => {
      onStatement(source, parametersOf(args));
      return run.apply(statement, args);
    };
  }
  return statement;
}
