/** Visitor rows: the only module that queries the visitors table. */
import type { Kysely, Selectable } from 'kysely';
import type { Database, VisitorsTable } from '../db/tables.ts';
import { cachedRead, type TDbCaches } from '../db/read-cache.ts';

/** Records a visitor once; a second call for the same id is a no-op on either dialect. */
export async function insertVisitorIfMissing(db: Kysely<Database>, id: string, now: number): Promise<void> {
  await db
    .insertInto('visitors')
    .values({ id, created_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export async function findVisitorById(db: Kysely<Database>, id: string): Promise<{ id: string; created_at: number } | null> {
  return (await db.selectFrom('visitors').select(['id', 'created_at']).where('id', '=', id).executeTakeFirst()) ?? null;
}

export type TVisitorProfileRow = Pick<Selectable<VisitorsTable>, 'display_name' | 'email'>;

/**
 * The name and address a visitor gave (both null when they gave none, or were never recorded):
 * read for every favourite, comment and approval, so answered from the read cache while the
 * visitors table is unchanged.
 */
export async function findVisitorProfile(db: Kysely<Database>, id: string, caches: TDbCaches = {}): Promise<TVisitorProfileRow> {
  return cachedRead(
    db,
    caches.reads,
    `visitor-profile\u0000${id}`,
    ['visitors'],
    async () => (await db.selectFrom('visitors').select(['display_name', 'email']).where('id', '=', id).executeTakeFirst()) ?? { display_name: null, email: null },
  );
}

/** Stores the visitor's name and address, recording the visitor first when needed (one statement). */
export async function saveVisitorProfile(db: Kysely<Database>, id: string, profile: TVisitorProfileRow, now: number): Promise<void> {
  await db
    .insertInto('visitors')
    .values({ id, created_at: now, display_name: profile.display_name, email: profile.email })
    .onConflict((oc) => oc.column('id').doUpdateSet({ display_name: profile.display_name, email: profile.email }))
    .execute();
}
