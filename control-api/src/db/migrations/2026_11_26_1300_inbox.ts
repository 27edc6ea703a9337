/**
 * The public forms' inbox and the newsletter. A contact, feedback or sales message is kept in
 * `messages` (made by the initial migration) and now records when it was emailed to the operator
 * (null: not yet, e.g. the mail server was down). Newsletter subscribers: one row per address, its
 * state (pending, confirmed, unsubscribed), the confirmation token's SHA-256 and expiry, and when a
 * confirmation was last sent (at most one per address within the resend window).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('emailed_at', 'bigint').execute();
  await db.schema.createIndex('messages_created_idx').on('messages').column('created_at').execute();

  await db.schema
    .createTable('newsletter_subscribers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text')
    .addColumn('token_expires_at', 'bigint')
    .addColumn('confirm_sent_at', 'bigint')
    .addColumn('confirmed_at', 'bigint')
    .addColumn('unsubscribed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('newsletter_subscribers_token_idx').on('newsletter_subscribers').column('token_hash').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('newsletter_subscribers').ifExists().execute();
  await db.schema.dropIndex('messages_created_idx').ifExists().execute();
  await db.schema.alterTable('messages').dropColumn('emailed_at').execute();
}
