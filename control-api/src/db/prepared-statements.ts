/**
 * Hot statements PostgreSQL parses and plans once per connection (named prepared statements) instead
 * of on every call: for a favourite's statement, planning took about as long as running it. Such a
 * statement is run with `runPrepared`, and each pooled connection runs the texts given that way by
 * name (`namePreparedStatements`). Only statements whose SQL text is the same on every call and
 * whose result columns are listed belong here: a prepared `select *` fails once a migration (of a
 * newer process) adds a column.
 */
import type pg from 'pg';
import type { Kysely, QueryResult, RawBuilder, Transaction } from 'kysely';
import type { Database } from './tables.ts';

/** More texts than the hot statements would be: past this, statements run unnamed. */
const MAX_PREPARED = 50;

/** The name of each statement text run with `runPrepared`, the same in every connection. */
const names = new Map<string, string>();

/** Runs the statement (compiled through `db`, plugins included), by name on PostgreSQL connections. */
export function runPrepared<R>(db: Kysely<Database> | Transaction<Database>, statement: RawBuilder<R>): Promise<QueryResult<R>> {
  const compiled = statement.compile(db);
  if (!names.has(compiled.sql) && names.size < MAX_PREPARED) names.set(compiled.sql, `dropsite_prepared_${names.size + 1}`);
  return db.executeQuery(compiled);
}

/** Makes a pooled connection run the texts given to `runPrepared` as named prepared statements. */
export function namePreparedStatements(client: pg.ClientBase): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const [text, values] = args;
    const name = args.length === 2 && typeof text === 'string' && Array.isArray(values) ? names.get(text) : undefined;
    return name === undefined ? query(...args) : query({ name, text, values });
  }) as typeof client.query;
}
