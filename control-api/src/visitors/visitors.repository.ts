/** Visitor rows: the only module that queries the visitors table. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';

/** Records a visitor once; a second call for the same id is a no-op on either dialect. */
export async function insertVisitorIfMissing(db: Kysely<Database>, id: string, now: number): Promise<void> {
  await db
    .insertInto('visitors')
    .values({ id, created_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export async function findVisitorById(db: Kysely<Database>, id: string): Promise<{ id: string; created_at: number } | null> {
  return (await db.selectFrom('visitors').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}
