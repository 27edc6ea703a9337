/** What the visitors area is wired with: the pieces of the runtime it reads. deps.ts gives it the whole runtime. */
import type { Clock } from '../clock.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';

export interface TVisitorsDeps {
  db: Kysely<Database>;
  clock: Clock;
  caches: { knownVisitors: Set<string> };
}
