/**
 * The upgrade as an operator runs it: a database and storage from before public pages were
 * limited to visitor-facing data, then the new server starts. Its start-up rewrites the stored
 * page without the owner's notification address and Slack webhook, once.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteHtmlKey } from '@dropsite/shared';
import { loadConfig } from '../config/config.ts';
import { createDatabase, migrateUpTo } from '../db/database.ts';
import { createLogger } from '../logger.ts';
import { createRuntime } from '../runtime.ts';
import { runPendingSiteRebuilds } from './pending-site-rebuilds.ts';
import { createDiskStorage } from '../storage/disk-storage.ts';
import { makeFileRow, makeSiteRow } from '@dropsite/testkit/control-api/test-database';
import { makeJpeg } from '@dropsite/testkit/control-api/fixtures';
import { ensureTemplateBuilt } from '@dropsite/testkit/builder/ensure-template-built';

const NOTIFY = 'owner-inbox@studio-private.example';
const WEBHOOK = 'https://hooks.slack.com/services/T0PRIVATE/B0PRIVATE/s3cr3tW3bh00kT0k3n';
/** The last migration before the upgrade. */
const BEFORE_UPGRADE = '2026_11_24_1700_email_addresses';

async function readText(storage: ReturnType<typeof createDiskStorage>, key: string): Promise<string> {
  const { body } = await storage.get(key);
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

describe('start-up after the upgrade', () => {
  let dataDir: string;
  beforeAll(async () => {
    await ensureTemplateBuilt();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-upgrade-'));
  }, 180_000);
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('rewrites a page stored by the old render model without the secrets, once', async () => {
    const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' }, dataDir);
    const storage = createDiskStorage(path.join(dataDir, 'storage'));

    // The site as the old version left it.
    const old = await createDatabase(config.databaseUrl);
    await migrateUpTo(old.db, BEFORE_UPGRADE);
    const row = makeSiteRow({
      title: 'Harbour Lights',
      status: 'live',
      settings: JSON.stringify({ enableFavorites: true, enableNotifications: true, notificationEmail: NOTIFY, slackWebhook: WEBHOOK }),
      contact_info: JSON.stringify({ email: NOTIFY, website: '', twitter: '', linkedin: '', github: '' }),
      created_at: Date.now(),
      updated_at: Date.now(),
    });
    const bytes = await makeJpeg(320, 240, 4);
    const file = makeFileRow(row.id, 0, { name: 'dawn.jpg', size: bytes.length, sha256: 'c'.repeat(64) });
    await storage.put(file.storage_key, bytes);
    await old.db.insertInto('projects').values(row).execute();
    await old.db.insertInto('files').values(file).execute();
    const oldHtml = `<!doctype html><title>Harbour Lights</title><astro-island props='{"site":[0,{"settings":[0,{"slackWebhook":[0,"${WEBHOOK}"],"notificationEmail":[0,"${NOTIFY}"]}]}]}'></astro-island><a href="mailto:${NOTIFY}">Get in touch</a>`;
    await storage.put(siteHtmlKey(row.slug), oldHtml);
    await old.close();

    // The new server starts: migrations, then the one-time rebuild of every live site.
    const runtime = await createRuntime(config, { runBuilder: true, log: createLogger('silent') });
    try {
      await runtime.deps.queue.whenIdle();
      const html = await readText(storage, siteHtmlKey(row.slug));
      expect(html).not.toBe(oldHtml);
      expect(html).toContain('Harbour Lights');
      for (const secret of [NOTIFY, WEBHOOK, 'hooks.slack.com', 'notificationEmail', 'slackWebhook']) expect(html.includes(secret), secret).toBe(false);
      const site = await runtime.deps.db.selectFrom('projects').select(['status', 'version', 'contact_info']).where('id', '=', row.id).executeTakeFirstOrThrow();
      expect(site).toMatchObject({ status: 'live', version: 2 });
      expect(JSON.parse(site.contact_info)).toMatchObject({ email: '' });
    } finally {
      await runtime.close();
    }

    // The next start does not rebuild again.
    const again = await createRuntime(config, { runBuilder: true, log: createLogger('silent') });
    try {
      await again.deps.queue.whenIdle();
      const builds = await again.deps.db.selectFrom('builds').select(['version', 'status']).where('project_id', '=', row.id).execute();
      expect(builds).toEqual([{ version: 2, status: 'succeeded' }]);
    } finally {
      await again.close();
    }
  }, 120_000);

  it('withdraws the old page before its rebuild runs, so it is never served again even if no rebuild ever succeeds', async () => {
    const failDir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-upgrade-fail-'));
    const config = loadConfig({ DATA_DIR: failDir, PORT: '0', LOG_LEVEL: 'silent' }, failDir);
    const storage = createDiskStorage(path.join(failDir, 'storage'));
    try {
      const old = await createDatabase(config.databaseUrl);
      await migrateUpTo(old.db, BEFORE_UPGRADE);
      const row = makeSiteRow({
        title: 'Lost Negatives',
        status: 'live',
        settings: JSON.stringify({ enableNotifications: true, notificationEmail: NOTIFY, slackWebhook: WEBHOOK }),
        created_at: Date.now(),
        updated_at: Date.now(),
      });
      const file = makeFileRow(row.id, 0, { name: 'gone.jpg', size: 1234, sha256: 'd'.repeat(64) });
      await old.db.insertInto('projects').values(row).execute();
      await old.db.insertInto('files').values(file).execute();
      await storage.put(siteHtmlKey(row.slug), `<!doctype html><title>Lost Negatives</title><a href="mailto:${NOTIFY}">${WEBHOOK}</a>`);
      await old.close();

      // The rebuilds are queued where nothing builds them (builders down, or the rebuild keeps failing).
      const runtime = await createRuntime(config, { runBuilder: false, log: createLogger('silent') });
      try {
        expect(await runPendingSiteRebuilds(runtime.deps)).toMatchObject({ queued: 1 });
        const build = await runtime.deps.db.selectFrom('builds').select('status').where('project_id', '=', row.id).executeTakeFirstOrThrow();
        expect(build.status).not.toBe('succeeded');
        expect(await storage.head(siteHtmlKey(row.slug))).toBeNull();
      } finally {
        await runtime.close();
      }
    } finally {
      await rm(failDir, { recursive: true, force: true });
    }
  }, 120_000);
});
