/**
 * Upgrading a database made before workspaces: every account gets its personal workspace with itself
 * as owner, its sites move into it (an anonymous creator's stay in none), and its subscription and
 * usage rows keep their values under workspace_id. From the schema as 2026_12_07_2200_chunk_checksum
 * left it, on SQLite and PostgreSQL.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase, migrateToLatest, migrateUpTo, type TDatabaseHandle } from '../db/database.ts';
import { isDialectAvailable, makeSiteRow, TEST_DIALECTS, TEST_POSTGRES_URL, testAppDatabase } from '@dropsite/testkit/control-api/test-database';

const BEFORE_WORKSPACES = '2026_12_07_2200_chunk_checksum';
const NOW = Date.UTC(2026, 11, 1);

describe.each(TEST_DIALECTS)('upgrading to workspaces (%s)', async (dialect) => {
  const available = await isDialectAvailable(dialect);
  let database: TDatabaseHandle;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    if (!available) return;
    if (dialect === 'postgres') {
      const schema = testAppDatabase(dialect, 'workspace_upgrade');
      database = await createDatabase(schema.config.databaseUrl ?? TEST_POSTGRES_URL, { maxConnections: 2 });
      cleanup = async () => {
        await database.close();
        await schema.drop();
      };
    } else {
      const dir = await mkdtemp(join(tmpdir(), 'dropsite-workspace-upgrade-'));
      database = await createDatabase(`sqlite:${join(dir, 'old.db')}`);
      cleanup = async () => {
        await database.close();
        await rm(dir, { recursive: true, force: true });
      };
    }
  });
  afterEach(async () => {
    if (available) await cleanup();
  });

  it.skipIf(!available)('gives every account its personal workspace, moves its sites, and keeps its plan and usage under the workspace', async () => {
    const db = database.db;
    await migrateUpTo(db, BEFORE_WORKSPACES);
    // Accounts as they were: one named, one without a name, one with nothing at all.
    for (const [id, email, name] of [
      ['mara', 'mara@example.com', 'Mara Lind'],
      ['noname', 'noname@example.com', ''],
      ['idle', 'idle@example.com', 'Idle'],
    ] as const) {
      await sql`insert into creators (id, email, name, avatar_url, external_user_id, password_hash, created_at, updated_at, email_verified_at)
        values (${id}, ${email}, ${name}, '', null, null, ${NOW}, ${NOW}, ${NOW})`.execute(db);
    }
    const marasSite = makeSiteRow({ owner_creator_id: 'mara', title: 'Wedding', created_at: NOW, updated_at: NOW });
    const nonamesSite = makeSiteRow({ owner_creator_id: 'noname', title: 'Portfolio', created_at: NOW, updated_at: NOW });
    const anonymousSite = makeSiteRow({ owner_creator_id: null, anonymous_session_id: 'anon-session', title: 'Before signing in', created_at: NOW, updated_at: NOW });
    for (const site of [marasSite, nonamesSite, anonymousSite]) await db.insertInto('projects').values(site).execute();
    await sql`insert into subscriptions (id, creator_id, plan_id, status, stripe_customer_id, stripe_subscription_id, current_period_end, last_event_at, created_at, updated_at, billing_interval, cancel_at_period_end)
      values ('sub-mara', 'mara', 'pro', 'active', 'cus_mara', 'sub_mara', ${NOW + 1000}, ${NOW}, ${NOW}, ${NOW}, 'yearly', 1)`.execute(db);
    await sql`insert into usage (creator_id, period, storage_used, projects_count, collaborators_count, api_requests_count, updated_at, derived_bytes)
      values ('mara', '2026-12', 12345, 1, 1, 77, ${NOW}, 345)`.execute(db);

    await migrateToLatest(db);

    const workspaces = await db.selectFrom('workspaces').select(['id', 'name', 'personal', 'created_by']).orderBy('id').execute();
    expect(workspaces).toEqual([
      { id: 'idle', name: 'Idle', personal: 1, created_by: 'idle' },
      { id: 'mara', name: 'Mara Lind', personal: 1, created_by: 'mara' },
      { id: 'noname', name: 'Personal', personal: 1, created_by: 'noname' },
    ]);
    const members = await db.selectFrom('workspace_members').select(['workspace_id', 'creator_id', 'role']).orderBy('workspace_id').execute();
    expect(members).toEqual([
      { workspace_id: 'idle', creator_id: 'idle', role: 'owner' },
      { workspace_id: 'mara', creator_id: 'mara', role: 'owner' },
      { workspace_id: 'noname', creator_id: 'noname', role: 'owner' },
    ]);
    const sites = new Map((await db.selectFrom('projects').select(['id', 'workspace_id', 'owner_creator_id']).execute()).map((s) => [s.id, s]));
    expect(sites.get(marasSite.id)).toEqual({ id: marasSite.id, workspace_id: 'mara', owner_creator_id: 'mara' });
    expect(sites.get(nonamesSite.id)).toEqual({ id: nonamesSite.id, workspace_id: 'noname', owner_creator_id: 'noname' });
    expect(sites.get(anonymousSite.id)).toEqual({ id: anonymousSite.id, workspace_id: null, owner_creator_id: null });

    expect(await db.selectFrom('subscriptions').selectAll().execute()).toEqual([
      expect.objectContaining({
        id: 'sub-mara',
        workspace_id: 'mara',
        plan_id: 'pro',
        status: 'active',
        stripe_customer_id: 'cus_mara',
        stripe_subscription_id: 'sub_mara',
        current_period_end: NOW + 1000,
        billing_interval: 'yearly',
        cancel_at_period_end: 1,
      }),
    ]);
    expect(await db.selectFrom('usage').selectAll().execute()).toEqual([
      { workspace_id: 'mara', period: '2026-12', storage_used: 12345, projects_count: 1, collaborators_count: 1, api_requests_count: 77, updated_at: NOW, derived_bytes: 345 },
    ]);

    // The keys hold as before: one subscription per workspace, one usage row per workspace and month.
    await expect(
      sql`insert into subscriptions (id, workspace_id, plan_id, status, last_event_at, created_at, updated_at) values ('sub-2', 'mara', 'free', 'active', 0, 0, 0)`.execute(db),
    ).rejects.toThrow();
    await expect(
      sql`insert into usage (workspace_id, period, storage_used, projects_count, collaborators_count, api_requests_count, updated_at) values ('mara', '2026-12', 0, 0, 0, 0, 0)`.execute(
        db,
      ),
    ).rejects.toThrow();
    // A team workspace's subscription needs no account of the same id, and goes with its workspace.
    await db.insertInto('workspaces').values({ id: 'team', name: 'Team', personal: 0, created_by: 'mara', created_at: NOW, updated_at: NOW }).execute();
    await sql`insert into subscriptions (id, workspace_id, plan_id, status, last_event_at, created_at, updated_at) values ('sub-team', 'team', 'free', 'active', 0, 0, 0)`.execute(
      db,
    );
    await db.deleteFrom('workspaces').where('id', '=', 'team').execute();
    expect((await db.selectFrom('subscriptions').select('id').execute()).map((r) => r.id)).toEqual(['sub-mara']);
  });
});
