/**
 * A form message whose email to the operator failed is sent again later: each message counts its
 * attempts and when the last one started, so one API process claims a retry at a time and a message
 * that keeps failing is given up after a few tries (it stays stored, `emailed_at` null).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One column per statement: SQLite adds one column per ALTER TABLE.
  await db.schema
    .alterTable('messages')
    .addColumn('email_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('messages').addColumn('email_attempted_at', 'bigint').execute();
  await db.schema.createIndex('messages_unsent_idx').on('messages').columns(['emailed_at', 'email_attempted_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('messages_unsent_idx').ifExists().execute();
  await db.schema.alterTable('messages').dropColumn('email_attempted_at').execute();
  await db.schema.alterTable('messages').dropColumn('email_attempts').execute();
}
