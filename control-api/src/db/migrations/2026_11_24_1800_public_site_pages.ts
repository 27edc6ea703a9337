/**
 * Public pages carry only visitor-facing data. Pages rendered before that rule hold the owner's
 * notification address and Slack webhook in their island props, and the notification address was
 * copied into every site's public contact email. This clears that copy (contact details are now
 * their own fields in the wizard) and asks, through `pending_site_rebuilds`, for every site to be
 * rebuilt once: the next process that starts takes the request and queues the rebuilds.
 * Safe to run again: the table is created when missing, the request is written once.
 */
import type { Kysely } from 'kysely';

export const PUBLIC_SITE_PAGES_REBUILD = 'public-site-pages';

interface TMigrationDb {
  projects: { id: string; settings: string; contact_info: string };
  pending_site_rebuilds: { reason: string; requested_at: number };
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export async function up(untyped: Kysely<unknown>): Promise<void> {
  const db = untyped as unknown as Kysely<TMigrationDb>;
  await db.schema
    .createTable('pending_site_rebuilds')
    .ifNotExists()
    .addColumn('reason', 'text', (c) => c.primaryKey())
    .addColumn('requested_at', 'bigint', (c) => c.notNull())
    .execute();

  // Until now the contact email was always the notification address: clear it wherever it still is.
  const rows = await db.selectFrom('projects').select(['id', 'settings', 'contact_info']).execute();
  for (const row of rows) {
    const contact = parseObject(row.contact_info);
    const email = typeof contact.email === 'string' ? contact.email.trim() : '';
    const notificationEmail = parseObject(row.settings).notificationEmail;
    if (email === '' || typeof notificationEmail !== 'string' || email !== notificationEmail.trim()) continue;
    await db
      .updateTable('projects')
      .set({ contact_info: JSON.stringify({ ...contact, email: '' }) })
      .where('id', '=', row.id)
      .execute();
  }

  await db
    .insertInto('pending_site_rebuilds')
    .values({ reason: PUBLIC_SITE_PAGES_REBUILD, requested_at: Date.now() })
    .onConflict((oc) => oc.column('reason').doNothing())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('pending_site_rebuilds').ifExists().execute();
}
