/**
 * A sign-up answers alike whether or not its address has an account, so it no longer makes the
 * account at once: the name and the password's argon2id hash wait on the sign-in link mailed to the
 * address, and the account is made with them when that link is used (by whoever holds the inbox).
 * Null on every other link.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('account_tokens').addColumn('sign_up_name', 'text').execute();
  await db.schema.alterTable('account_tokens').addColumn('sign_up_password_hash', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('account_tokens').dropColumn('sign_up_password_hash').execute();
  await db.schema.alterTable('account_tokens').dropColumn('sign_up_name').execute();
}
