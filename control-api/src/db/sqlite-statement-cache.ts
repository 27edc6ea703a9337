/**
 * better-sqlite3 compiles a statement each time kysely runs a query; for the small queries of
 * the engagement calls that compile is the largest single cost (about a sixth of a request).
 * Reusing the prepared statement for the same SQL text removes it. A statement that is busy
 * (being iterated by a streaming query) is never handed out twice. SQLite re-prepares cached
 * statements itself after a schema change.
 */
import type SQLite from 'better-sqlite3';

const MAX_CACHED = 1000;

export function cachePreparedStatements(database: SQLite.Database, onStatement: (source: string) => void = () => {}): SQLite.Database {
  const prepare = database.prepare.bind(database);
  const cache = new Map<string, SQLite.Statement>();
  const cachedPrepare = (source: string): SQLite.Statement => {
    // Kysely prepares right before it runs, so this sees every statement as it is about to run.
    onStatement(source);
    const cached = cache.get(source);
    if (cached && !cached.busy) return cached;
    const statement = prepare(source);
    // Many distinct texts (IN lists of every length) would grow the map without bound.
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(source, statement);
    return statement;
  };
  database.prepare = cachedPrepare as typeof database.prepare;
  return database;
}
