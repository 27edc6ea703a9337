/**
 * Creator accounts. A session row records when it was last used and by which browser, so the
 * account page can list the creator's sessions; a creator records when their address was
 * verified (notifications only go to verified addresses). One-time tokens (email verification,
 * password reset, the emailed sign-in link) are kept as their SHA-256 only, each with its
 * purpose, expiry and the moment it was used; a sign-in link may carry the anonymous session it
 * claims and the page to go back to.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('auth_sessions')
    .addColumn('last_used_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('auth_sessions').addColumn('user_agent', 'text').execute();
  await db.schema.alterTable('creators').addColumn('email_verified_at', 'bigint').execute();

  await db.schema
    .createTable('account_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('creator_id', 'text', (c) => c.references('creators.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('anonymous_session_id', 'text')
    .addColumn('return_to', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('account_tokens_creator_idx').on('account_tokens').column('creator_id').execute();
  await db.schema.createIndex('account_tokens_expires_idx').on('account_tokens').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('account_tokens').ifExists().execute();
  await db.schema.alterTable('creators').dropColumn('email_verified_at').execute();
  await db.schema.alterTable('auth_sessions').dropColumn('user_agent').execute();
  await db.schema.alterTable('auth_sessions').dropColumn('last_used_at').execute();
}
