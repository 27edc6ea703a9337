/**
 * Billing (issue 13): what a subscription row needs beyond the initial columns. The interval it is
 * billed at, a cancellation at the period's end, the trial (its end, and that the creator had one:
 * once per creator), the grace period of a failed renewal, and the Checkout Session the webhooks
 * last fulfilled (the return page waits for it). Webhooks find a row by its Stripe subscription.
 * A usage row also keeps the derived part of its storage (thumbnails, display copies, converted
 * PDFs), which only storage knows: limit checks add it to the originals counted live.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One column per statement: SQLite adds one column per ALTER TABLE.
  await db.schema.alterTable('subscriptions').addColumn('billing_interval', 'text').execute();
  await db.schema
    .alterTable('subscriptions')
    .addColumn('cancel_at_period_end', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('subscriptions').addColumn('trial_end', 'bigint').execute();
  await db.schema.alterTable('subscriptions').addColumn('trial_used_at', 'bigint').execute();
  await db.schema.alterTable('subscriptions').addColumn('grace_period_end', 'bigint').execute();
  await db.schema.alterTable('subscriptions').addColumn('last_checkout_session_id', 'text').execute();
  await db.schema
    .alterTable('usage')
    .addColumn('derived_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('subscriptions_stripe_subscription_idx').on('subscriptions').column('stripe_subscription_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('subscriptions_stripe_subscription_idx').ifExists().execute();
  await db.schema.alterTable('usage').dropColumn('derived_bytes').execute();
  for (const column of ['last_checkout_session_id', 'grace_period_end', 'trial_used_at', 'trial_end', 'cancel_at_period_end', 'billing_interval']) {
    await db.schema.alterTable('subscriptions').dropColumn(column).execute();
  }
}
