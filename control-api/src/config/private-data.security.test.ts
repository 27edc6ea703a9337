/**
 * The data folder is the server user's only: after the API starts (on a folder a looser umask made
 * readable by everyone, holding a file left readable) and a site is published, built and mailed
 * about, nothing under DATA_DIR can be read, written or searched by the group or anyone else:
 * the SQLite database and its -wal and -shm, the stored originals and derived files and their folders,
 * the outbox's messages.
 */
import { once } from 'node:events';
import { chmod, lstat, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startApiProcess, type TApiProcess } from '@dropsite/testkit/control-api/api-process';
import { buildUploadForm, makeJpeg } from '@dropsite/testkit/control-api/fixtures';
import { ensureTemplateBuilt } from '@dropsite/testkit/builder/ensure-template-built';

/** Every path under `root` (itself included) with its permission bits. */
async function modesUnder(root: string): Promise<Map<string, number>> {
  const modes = new Map<string, number>([[root, (await lstat(root)).mode & 0o777]]);
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    modes.set(full, (await lstat(full)).mode & 0o777);
  }
  return modes;
}

describe('the data folder after a start and a publish', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('holds nothing the group or other users can read, write or enter', async () => {
    await ensureTemplateBuilt();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-private-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    // As a looser umask left it before this start: the folder open to all, a file in it readable by all.
    await chmod(dataDir, 0o755);
    await writeFile(path.join(dataDir, 'left-behind.txt'), 'from an earlier start');
    await chmod(path.join(dataDir, 'left-behind.txt'), 0o644);

    let api: TApiProcess | undefined;
    cleanups.push(async () => {
      if (api && api.child.exitCode === null && api.child.signalCode === null) {
        api.child.kill('SIGTERM');
        await once(api.child, 'exit');
      }
    });
    api = await startApiProcess(dataDir);
    const form = buildUploadForm([{ name: 'portrait.jpg', type: 'image/jpeg', bytes: await makeJpeg(640, 480) }], {
      title: 'Private by default',
      settings: JSON.stringify({ enableAnalytics: true, enableNotifications: true, notificationEmail: 'owner@example.com' }),
    });
    const published = await fetch(`${api.url}/api/upload`, { method: 'POST', body: form });
    expect(published.status).toBe(201);
    const { slug } = (await published.json()) as { slug: string };
    await expect
      .poll(
        async () => {
          const res = await fetch(`${api!.url}/api/direct-upload/status/${slug}`);
          return ((await res.json()) as { project?: { optimizationComplete?: boolean } }).project?.optimizationComplete;
        },
        { timeout: 60_000, interval: 200 },
      )
      .toBe(true);
    // The notification address's confirmation message is in the outbox.
    await expect.poll(async () => (await readdir(path.join(dataDir, 'outbox')).catch(() => [])).some((name) => name.endsWith('.eml')), { timeout: 10_000 }).toBe(true);

    const modes = await modesUnder(dataDir);
    const names = [...modes.keys()].map((p) => path.relative(dataDir, p));
    // What the test is about is there: the database, stored objects and the outbox.
    expect(names).toEqual(expect.arrayContaining(['', 'dropsite.db', 'storage', 'outbox']));
    expect(names.some((name) => name.startsWith('storage/'))).toBe(true);
    const open = [...modes].filter(([, mode]) => (mode & 0o077) !== 0).map(([p, mode]) => `${path.relative(dataDir, p) || '.'} ${mode.toString(8)}`);
    expect(open).toEqual([]);
    expect(modes.get(dataDir)).toBe(0o700);
  });
});
