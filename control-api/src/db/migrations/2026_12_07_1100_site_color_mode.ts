/**
 * A site's colour mode ('auto' follows each visitor's light/dark preference, 'light' / 'dark' pin
 * one) and whether its visitors get a light/dark toggle. Sites saved before (null) keep a dark theme
 * pinned and follow the visitor otherwise (shared/src/site-look.ts, storedSiteLook).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('color_mode', 'text').execute();
  await db.schema
    .alterTable('projects')
    .addColumn('visitor_mode_toggle', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('visitor_mode_toggle').execute();
  await db.schema.alterTable('projects').dropColumn('color_mode').execute();
}
