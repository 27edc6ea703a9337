/**
 * A session an emailed sign-in link opened is marked: a link can be opened in a browser that is not
 * its address owner's (someone else's link, sent to their own address), so such a session never
 * claims the sites that browser made before signing in (the link's own claim, decided when it was
 * mailed, is the only one it makes).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('auth_sessions')
    .addColumn('opened_by_link', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('auth_sessions').dropColumn('opened_by_link').execute();
}
