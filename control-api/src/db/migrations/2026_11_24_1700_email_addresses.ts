/**
 * Notification email only goes to addresses that confirmed a link. One row per address and
 * creator (the anonymous session, the account, or the site when it has neither): its state
 * (pending, confirmed, unsubscribed), the confirmation token's SHA-256 and expiry, and when a
 * confirmation was asked for and last sent (confirmations to one address are rate limited).
 * A second table counts the distinct addresses each client address asked us to write to per day.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('email_addresses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('owner_key', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text')
    .addColumn('token_expires_at', 'bigint')
    .addColumn('confirm_requested_at', 'bigint')
    .addColumn('confirm_sent_at', 'bigint')
    .addColumn('confirm_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('confirmed_at', 'bigint')
    .addColumn('unsubscribed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_addresses_email_owner_idx').on('email_addresses').columns(['email', 'owner_key']).unique().execute();
  await db.schema.createIndex('email_addresses_token_idx').on('email_addresses').column('token_hash').execute();
  await db.schema.createIndex('email_addresses_email_sent_idx').on('email_addresses').columns(['email', 'confirm_sent_at']).execute();
  await db.schema.createIndex('email_addresses_owed_idx').on('email_addresses').column('confirm_requested_at').execute();

  await db.schema
    .createTable('email_recipient_requests')
    .addColumn('requester', 'text', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('email_recipient_requests_pk', ['requester', 'day', 'email'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('email_recipient_requests').ifExists().execute();
  await db.schema.dropTable('email_addresses').ifExists().execute();
}
