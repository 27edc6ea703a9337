/**
 * Whether a slug can be given to a new site. Slugs are handed out by publishing (regular uploads,
 * and upload sessions, which reserve theirs at init), so the question is asked here, of both places
 * a slug lives: sites (deleted ones too, the unique constraint covers them) and sessions' reservations.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';

export async function isSlugInUse(db: Kysely<Database>, slug: string): Promise<boolean> {
  const row = await db
    .selectFrom('projects')
    .select(sql<number>`1`.as('used'))
    .where('slug', '=', slug)
    .unionAll(db.selectFrom('upload_sessions').select(sql<number>`1`.as('used')).where('project_slug', '=', slug))
    .executeTakeFirst();
  return row !== undefined;
}
