/**
 * A received chunk is recorded with its CRC-32 (8 hex digits), no longer with its own SHA-256: the
 * file's SHA-256 is computed once, while its chunks arrive. Rows recorded before keep their SHA-256
 * (64 hex digits) under the new name, and are compared as such.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('upload_chunks').renameColumn('sha256', 'checksum').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('upload_chunks').renameColumn('checksum', 'sha256').execute();
}
