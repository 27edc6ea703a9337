/**
 * Hot queries built and compiled once per runtime, then run with each call's values (kysely's
 * "split build, compile and execute" recipe). Building and compiling the same SQL text again on
 * every call was a tenth of a favourite's cost. Every argument must reach the SQL as a bound
 * parameter, never shape it; compiling checks that each one did.
 */
import type { CompiledQuery, Compilable, Kysely, QueryResult, Transaction } from 'kysely';
import type { Database } from './tables.ts';

type TDb = Kysely<Database> | Transaction<Database>;

/** Stands in for an argument while the query is compiled. */
class ArgumentSlot {
  readonly index: number;
  constructor(index: number) {
    this.index = index;
  }
}

interface TCompiled<R> {
  query: CompiledQuery<R>;
  /** For each parameter: the argument it takes, or null for a constant of the query itself. */
  sources: Array<number | null>;
}

/**
 * Where a runtime keeps its compiled queries (`deps.caches.queries`), by query. A runtime has one
 * database, and its transactions compile to the same SQL, so one compiled form serves them all.
 */
export type TQueryCache = Map<object, TCompiled<unknown>>;

export function createQueryCache(): TQueryCache {
  return new Map();
}

/**
 * A query built and compiled once per cache, run with each call's values. Without a cache (a
 * repository test, an ops command) it is compiled for the call.
 */
export function compiledQuery<TArgs extends readonly unknown[], R>(
  build: (db: TDb, ...args: TArgs) => Compilable<R>,
): (db: TDb, cache: TQueryCache | undefined, ...args: TArgs) => Promise<QueryResult<R>> {
  const compile = (db: TDb, arity: number): TCompiled<R> => {
    const slots = Array.from({ length: arity }, (_, i) => new ArgumentSlot(i));
    const query = build(db, ...(slots as unknown as TArgs)).compile();
    const sources = query.parameters.map((p) => (p instanceof ArgumentSlot ? p.index : null));
    const used = new Set(sources.filter((s) => s !== null));
    if (used.size !== arity) throw new Error(`A compiled query must bind each of its ${arity} arguments as a parameter: ${query.sql}`);
    return { query, sources };
  };
  // The cache's key: this query, whichever runtime runs it.
  const key = {};
  return async (db, cache, ...args) => {
    let compiled = cache?.get(key) as TCompiled<R> | undefined;
    if (!compiled) {
      compiled = compile(db, args.length);
      cache?.set(key, compiled);
    }
    const { query, sources } = compiled;
    const parameters = sources.map((source, i) => (source === null ? query.parameters[i] : args[source]));
    return db.executeQuery<R>({ ...query, parameters });
  };
}
