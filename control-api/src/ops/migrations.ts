/**
 * The schema's migrations as `npm run migrate` shows and applies them: every migration this code
 * knows, applied (and when, as kysely's migration table records it) or pending.
 */
import type { Kysely } from 'kysely';
import { createMigrator, migrateToLatest } from '../db/database.ts';
import type { Database } from '../db/tables.ts';

type TDb = Kysely<Database>;

export interface TMigrationState {
  name: string;
  /** When it was applied (epoch ms); null while pending. */
  appliedAt: number | null;
}

/** Every migration in the order they run. Reads only: an empty database gets no migration table from this. */
export async function listMigrationStates(db: TDb): Promise<TMigrationState[]> {
  const migrator = await createMigrator(db);
  const migrations = await migrator.getMigrations();
  return migrations.map((m) => ({ name: m.name, appliedAt: m.executedAt?.getTime() ?? null }));
}

/** Applies every pending migration and answers the names of those that ran, in order (none: already up to date). */
export async function applyPendingMigrations(db: TDb): Promise<string[]> {
  const before = await listMigrationStates(db);
  const pending = before.filter((m) => m.appliedAt === null).map((m) => m.name);
  if (pending.length === 0) return [];
  await migrateToLatest(db);
  const applied = new Set((await listMigrationStates(db)).filter((m) => m.appliedAt !== null).map((m) => m.name));
  return pending.filter((name) => applied.has(name));
}
