/** The hero layout the owner chose for a site (minimal, centered, split, featured); null leaves the template's default. */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('hero_layout', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('hero_layout').execute();
}
