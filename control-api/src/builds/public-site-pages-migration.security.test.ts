/**
 * The upgrade that takes owner data out of public pages, on both database engines: the
 * notification address the old code copied into each site's public contact email is cleared
 * (contact details the creator typed are kept), and one rebuild of every site is requested
 * and taken by exactly one start-up.
 */
import { expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { createDiskStorage } from '../storage/disk-storage.ts';
import { describeEachDialect, makeSiteRow } from '@dropsite/testkit/control-api/test-database';
import { createInlineQueue } from '../queue/inline-queue.ts';
import { loadConfig } from '../config/config.ts';
import { createLogger } from '../logger.ts';
import type { TBuildsDeps } from './builds.deps.ts';
import { PUBLIC_SITE_PAGES_REBUILD, up } from '../db/migrations/2026_11_24_1800_public_site_pages.ts';
import { runPendingSiteRebuilds } from './pending-site-rebuilds.ts';

const NOTIFY = 'owner-inbox@studio-private.example';

await describeEachDialect('public site pages migration', (handle) => {
  it('clears the copied notification address, keeps typed contact details, and asks for one rebuild of every live site', async () => {
    const { db } = handle;
    const copied = makeSiteRow({
      status: 'live',
      settings: JSON.stringify({ enableNotifications: true, notificationEmail: NOTIFY }),
      contact_info: JSON.stringify({ email: NOTIFY, website: '', twitter: '', linkedin: '', github: '' }),
    });
    const typed = makeSiteRow({
      status: 'live',
      settings: JSON.stringify({ notificationEmail: NOTIFY }),
      contact_info: JSON.stringify({ email: 'hello@studio.example', website: 'https://studio.example/', twitter: '', linkedin: '', github: '' }),
    });
    const unreadable = makeSiteRow({ status: 'live', settings: 'not json', contact_info: '{"email":42}' });
    const expired = makeSiteRow({ status: 'live', expires_at: 1, contact_info: JSON.stringify({ email: NOTIFY }), settings: JSON.stringify({ notificationEmail: NOTIFY }) });
    await db.insertInto('projects').values([copied, typed, unreadable, expired]).execute();
    // The request the migration wrote when the database was created was taken; this is an upgrade of a database with sites.
    await db.deleteFrom('pending_site_rebuilds').execute();

    await up(db as unknown as Kysely<unknown>);

    const contact = async (id: string) =>
      JSON.parse((await db.selectFrom('projects').select('contact_info').where('id', '=', id).executeTakeFirstOrThrow()).contact_info) as Record<string, unknown>;
    expect((await contact(copied.id)).email).toBe('');
    expect(await contact(typed.id)).toEqual({ email: 'hello@studio.example', website: 'https://studio.example/', twitter: '', linkedin: '', github: '' });
    expect(await contact(unreadable.id)).toEqual({ email: 42 });
    expect((await contact(expired.id)).email).toBe('');
    // The owner's settings are untouched: notifications keep working.
    const settings = await db.selectFrom('projects').select('settings').where('id', '=', copied.id).executeTakeFirstOrThrow();
    expect(JSON.parse(settings.settings)).toMatchObject({ notificationEmail: NOTIFY });
    expect(await db.selectFrom('pending_site_rebuilds').select('reason').execute()).toEqual([{ reason: PUBLIC_SITE_PAGES_REBUILD }]);

    // Running it again changes nothing and asks once.
    await up(db as unknown as Kysely<unknown>);
    expect(await db.selectFrom('pending_site_rebuilds').select('reason').execute()).toHaveLength(1);

    // Two processes starting at once: one of them queues a build of each live (not expired) site; the other queues nothing.
    const queue = createInlineQueue({ defaultAttempts: 1, defaultBackoffMs: 10 });
    const storageDir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-pages-migration-'));
    const storage = createDiskStorage(storageDir);
    const deps = { config: loadConfig({ LOG_LEVEL: 'silent' }), db, queue, storage, log: createLogger('silent'), clock: { now: () => Date.now() } } as unknown as TBuildsDeps;
    const [a, b] = await Promise.all([runPendingSiteRebuilds(deps), runPendingSiteRebuilds(deps)]);
    expect(a.queued + b.queued).toBe(3);
    expect([a.reasons, b.reasons].flat()).toEqual([PUBLIC_SITE_PAGES_REBUILD]);
    const builds = await db.selectFrom('builds').select(['project_id', 'version']).execute();
    expect(builds.map((r) => r.project_id).sort()).toEqual([copied.id, typed.id, unreadable.id].sort());
    expect(builds.every((r) => r.version === 2)).toBe(true);
    expect(await db.selectFrom('pending_site_rebuilds').selectAll().execute()).toEqual([]);
    expect((await runPendingSiteRebuilds(deps)).queued).toBe(0);
    await queue.close();
    await rm(storageDir, { recursive: true, force: true });
  });
});
