/**
 * Workspaces own sites (and, with the next migrations, the subscription and usage): every account
 * gets its personal workspace, whose id is the account's own id, with the account as its owner, and
 * every site an account owns moves into that workspace. Members, invitations (only the SHA-256 of a
 * token is kept) and the append-only audit log get their tables; a session remembers the workspace
 * its dashboard shows.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('workspaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('personal', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('workspace_members')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('creator_id', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('invited_by', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('workspace_members_pk', ['workspace_id', 'creator_id'])
    .execute();
  await db.schema.createIndex('workspace_members_creator_idx').on('workspace_members').column('creator_id').execute();

  await db.schema
    .createTable('workspace_invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('accepted_at', 'bigint')
    .addColumn('accepted_by', 'text')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('workspace_invitations_workspace_idx').on('workspace_invitations').columns(['workspace_id', 'created_at']).execute();

  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('actor_creator_id', 'text')
    .addColumn('actor_name', 'text')
    .addColumn('target', 'text')
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_events_workspace_idx').on('audit_events').columns(['workspace_id', 'created_at', 'id']).execute();

  await db.schema.alterTable('projects').addColumn('workspace_id', 'text').execute();
  await db.schema.createIndex('projects_workspace_idx').on('projects').column('workspace_id').execute();
  await db.schema.alterTable('auth_sessions').addColumn('current_workspace_id', 'text').execute();

  // Every account's personal workspace (its id is the account's), the account its owner, its sites in it.
  await sql`insert into workspaces (id, name, personal, created_by, created_at, updated_at)
    select id, case when name <> '' then name else 'Personal' end, 1, id, created_at, created_at from creators`.execute(db);
  await sql`insert into workspace_members (workspace_id, creator_id, role, invited_by, created_at)
    select id, id, 'owner', null, created_at from creators`.execute(db);
  await sql`update projects set workspace_id = owner_creator_id where owner_creator_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('auth_sessions').dropColumn('current_workspace_id').execute();
  await db.schema.dropIndex('projects_workspace_idx').ifExists().execute();
  await db.schema.alterTable('projects').dropColumn('workspace_id').execute();
  for (const table of ['audit_events', 'workspace_invitations', 'workspace_members', 'workspaces']) await db.schema.dropTable(table).ifExists().execute();
}
