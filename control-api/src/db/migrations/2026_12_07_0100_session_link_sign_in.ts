/**
 * When a session was opened by an emailed link (a sign-in link, a reset, an undone address
 * change): an account without a password proves itself again by such a recent link before it
 * changes its address, sets a password or is deleted. Tokens are also looked up by address: a
 * previous address that an undo link may still take back is not open to sign-ups.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('auth_sessions').addColumn('link_signed_in_at', 'bigint').execute();
  await db.schema.createIndex('account_tokens_email_idx').ifNotExists().on('account_tokens').columns(['email', 'purpose']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('account_tokens_email_idx').ifExists().execute();
  await db.schema.alterTable('auth_sessions').dropColumn('link_signed_in_at').execute();
}
