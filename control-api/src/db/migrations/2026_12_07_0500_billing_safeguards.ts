/**
 * Billing safeguards. The Checkout Session a creator has open (and its price), so a second checkout
 * continues or expires it instead of leaving two sessions that could both be paid. The Pro trials
 * started per client address: a slot per address (its hash, never the address) and per allowed
 * trial, taken again once its 30 days are over. The slots outlive the account that used them, so
 * deleting an account and signing up again does not give a new trial.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('subscriptions').addColumn('open_checkout_session_id', 'text').execute();
  await db.schema.alterTable('subscriptions').addColumn('open_checkout_price', 'text').execute();
  await db.schema
    .createTable('trial_address_slots')
    .addColumn('address_hash', 'text', (c) => c.notNull())
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('trial_address_slots_pk', ['address_hash', 'slot'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('trial_address_slots').ifExists().execute();
  for (const column of ['open_checkout_price', 'open_checkout_session_id']) {
    await db.schema.alterTable('subscriptions').dropColumn(column).execute();
  }
}
