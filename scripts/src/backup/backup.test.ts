/**
 * npm run backup and npm run restore as an operator runs them: a backup of a running API's data
 * taken while visitors keep writing, restored into an empty folder and served again; and the
 * archives and targets a restore must refuse.
 */
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGunzip, createGzip } from 'node:zlib';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { siteHtmlKey, uploadKey } from '@dropsite/shared';
import type { TAppDeps } from '@dropsite/control-api';
import { createBrowser, seedSite, SITE_HTML_MARKER, type TSeededSite } from '@dropsite/testkit/control-api/site-fixtures';
import { startTestApp, UNREACHED_RATE_LIMITS, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { DATABASE_ENTRY, STORAGE_ENTRY_PREFIX } from './archive-format.ts';
import { createBackup } from './backup.ts';
import { DamagedArchiveError, restoreBackup } from './restore.ts';
import { RefusedError } from './locations.ts';
import { readTar, tarStream, type TTarFile } from './tar.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Node keeps the compiled modules here between the runs (several times faster to start). */
const COMPILE_CACHE = path.join(ROOT, '.cache/node-compile-cache');

/** The commands' environment for a data folder laid out as the test apps lay theirs out, over none of the caller's data settings. */
function envFor(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { DATABASE_URL: _d, STORAGE_DRIVER: _sd, STORAGE_DIR: _s, DATA_DIR: _dd, S3_BUCKET: _b, REDIS_URL: _r, ...inherited } = process.env;
  return {
    ...inherited,
    NODE_ENV: 'test',
    NODE_COMPILE_CACHE: COMPILE_CACHE,
    DATA_DIR: dataDir,
    DATABASE_URL: `sqlite:${path.join(dataDir, 'test.db')}`,
    STORAGE_DIR: path.join(dataDir, 'storage'),
    LOG_LEVEL: 'silent',
    ...extra,
  };
}

async function command(name: string, args: string[], dataDir: string, extra: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(ROOT, 'scripts/src', name), ...args], { env: envFor(dataDir, extra), cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Every row a visitor or creator made that a backup must keep, by table. */
async function rowsOf(db: TAppDeps['db']) {
  return {
    projects: await db.selectFrom('projects').selectAll().orderBy('id').execute(),
    files: await db.selectFrom('files').selectAll().orderBy('id').execute(),
    visitors: await db.selectFrom('visitors').selectAll().orderBy('id').execute(),
    comments: await db.selectFrom('comments').selectAll().orderBy('id').execute(),
    favorites: await db.selectFrom('favorites').selectAll().orderBy('id').execute(),
    approvals: await db.selectFrom('approvals').selectAll().orderBy('id').execute(),
    analytics_events: await db.selectFrom('analytics_events').selectAll().orderBy('id').execute(),
  };
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The archive's entries, read whole (test archives are small). */
async function entriesOf(archive: string): Promise<Array<{ name: string; mtimeMs: number; bytes: Buffer }>> {
  const entries: Array<{ name: string; mtimeMs: number; bytes: Buffer }> = [];
  const gunzip = createGunzip();
  const reading = pipeline(createReadStream(archive), gunzip);
  await readTar(gunzip, async (entry, body) => {
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk);
    entries.push({ name: entry.name, mtimeMs: entry.mtimeMs, bytes: Buffer.concat(chunks) });
  });
  await reading;
  return entries;
}

async function writeArchive(file: string, entries: Array<{ name: string; mtimeMs: number; bytes: Buffer }>): Promise<void> {
  async function* files(): AsyncGenerator<TTarFile> {
    for (const entry of entries) yield { name: entry.name, size: entry.bytes.length, mtimeMs: entry.mtimeMs, body: [entry.bytes] };
  }
  await pipeline(tarStream(files()), createGzip(), createWriteStream(file));
}

/** A data folder no process has open: a test app that published `count` sites and was closed. */
async function closedDataFolder(parent: string, count: number): Promise<{ dataDir: string; sites: TSeededSite[] }> {
  const dataDir = await mkdtemp(path.join(parent, 'closed-'));
  const app = await startTestApp({ dataDir, startWorker: false });
  const sites: TSeededSite[] = [];
  for (let i = 0; i < count; i++) sites.push(await seedSite(app, { fileCount: 2 }));
  await app.close();
  return { dataDir, sites };
}

const locationsOf = (dataDir: string) => ({ databasePath: path.join(dataDir, 'test.db'), storageDir: path.join(dataDir, 'storage') });

describe('npm run backup and npm run restore', () => {
  let scratch: string;
  let app: TTestApp;
  let restored: TTestApp | undefined;
  const sites: TSeededSite[] = [];
  let archive = '';
  let restoredDir = '';

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(os.tmpdir(), 'dropsite-backup-'));
    app = await startTestApp({ startWorker: false, config: { rateLimits: UNREACHED_RATE_LIMITS } });
    for (let i = 0; i < 3; i++) sites.push(await seedSite(app, { fileCount: 3, title: `Gallery ${i + 1}` }));
    // Engagement on every file: views, favourites, approvals and comments from two visitors.
    for (const site of sites) {
      for (const who of [createBrowser(app), createBrowser(app)]) {
        expect((await who.json('/api/analytics/view', { method: 'POST', json: { projectId: site.project.id } })).status).toBe(200);
        for (const file of site.files) {
          const target = { projectId: site.project.id, fileId: file.id };
          expect((await who.json('/api/analytics/view', { method: 'POST', json: target })).status).toBe(200);
          expect((await who.json('/api/favorites', { method: 'POST', json: target })).status).toBe(200);
          expect((await who.json('/api/approvals', { method: 'POST', json: { ...target, status: 'approved' } })).status).toBe(200);
          const comment = await who.json('/api/comments', { method: 'POST', json: { ...target, userName: 'Ada', commentText: `Lovely ${file.name}`, threadId: null } });
          expect(comment.status).toBe(201);
        }
      }
    }
    // A view is answered once taken and written with its batch a moment later: only written views can be in any backup.
    await app.deps.analytics.flush();
    // Work in progress in the store, which a backup leaves out: a put's temp file and a resumable upload's part.
    await mkdir(path.join(app.dataDir, 'storage', '.tmp'), { recursive: true });
    await writeFile(path.join(app.dataDir, 'storage', '.tmp', `${randomUUID()}.part`), 'half a put');
    const upload = await app.deps.storage.createMultipartUpload(uploadKey(sites[0]!.project.id, 'unfinishedUpload0000000'), { partSize: 1024 });
    await app.deps.storage.putPart(upload, 1, Buffer.alloc(1024, 7), 1024);
  });

  afterAll(async () => {
    await restored?.close();
    await app.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it('explains itself with --help, and refuses unknown flags and configurations it does not cover', async () => {
    const [backupHelp, restoreHelp, restoreShortHelp, backupBad, restoreBad, noArchive, twoArchives, postgres, s3] = await Promise.all([
      command('backup-command.ts', ['--help'], app.dataDir),
      command('restore-command.ts', ['--help'], app.dataDir),
      command('restore-command.ts', ['-h'], app.dataDir),
      command('backup-command.ts', ['--fast'], app.dataDir),
      command('restore-command.ts', ['--fast', 'x.tar.gz'], app.dataDir),
      command('restore-command.ts', [], app.dataDir),
      command('restore-command.ts', ['a.tar.gz', '--from', 'b.tar.gz'], app.dataDir),
      command('backup-command.ts', [], app.dataDir, { DATABASE_URL: 'postgres://dropsite@db.internal:5432/dropsite' }),
      command('restore-command.ts', ['any.tar.gz'], app.dataDir, { STORAGE_DRIVER: 's3', S3_BUCKET: 'dropsite-media' }),
    ]);
    expect(backupHelp.code).toBe(0);
    expect(backupHelp.stdout).toMatch(/^Usage: npm run backup \[-- --out <dir>\]/);
    expect(backupHelp.stdout).toContain('-h, --help');
    for (const help of [restoreHelp, restoreShortHelp]) {
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^Usage: npm run restore -- <archive> \[--force\]/);
    }
    for (const bad of [backupBad, restoreBad]) {
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("Unknown option '--fast'");
      expect(bad.stderr).toContain('Usage:');
    }
    expect(noArchive.code).toBe(2);
    expect(noArchive.stderr).toContain('Name the archive to restore.');
    expect(twoArchives.code).toBe(2);
    expect(twoArchives.stderr).toContain('Name one archive, not 2.');
    expect(postgres.code).toBe(2);
    expect(postgres.stderr).toContain('pg_dump');
    expect(postgres.stderr).toContain('docs/operations.md');
    expect(s3.code).toBe(2);
    expect(s3.stderr).toContain('bucket versioning');
    expect(s3.stderr).toContain('docs/operations.md');
  }, 60_000);

  it('takes a consistent backup while visitors keep writing, and restores every site, file and engagement row into an empty folder', async () => {
    // Visitors keep commenting and favouriting, and creators keep publishing, until the backup is done.
    let stop = false;
    let backupRunning = false;
    let writesDuringBackup = 0;
    let completed = 0;
    const failures: string[] = [];
    const writer = (async () => {
      for (let i = 0; !stop; i++) {
        const site = sites[i % sites.length]!;
        const target = { projectId: site.project.id, fileId: site.files[i % site.files.length]!.id };
        // A new visitor each time: every favourite is a new row (nothing acknowledged is ever taken back).
        const visitor = createBrowser(app);
        const comment = await visitor.json('/api/comments', { method: 'POST', json: { ...target, userName: 'Load', commentText: `During ${i}`, threadId: null } });
        const favorite = await visitor.json('/api/favorites', { method: 'POST', json: target });
        if (comment.status !== 201 || favorite.status !== 200) failures.push(`write ${i}: ${comment.status}/${favorite.status}`);
        if (i % 10 === 0) await seedSite(app, { fileCount: 2, title: `Published during the backup ${i}` });
        completed += 1;
        if (backupRunning) writesDuringBackup += 1;
      }
    })();
    await vi.waitFor(() => expect(completed).toBeGreaterThanOrEqual(5), { timeout: 60_000, interval: 5 });

    // What was acknowledged before the backup started: all of it must come back.
    const before = await rowsOf(app.deps.db);
    const objectsBefore = new Map<string, string>();
    for await (const object of app.deps.storage.list('')) objectsBefore.set(object.key, (await app.deps.storage.hashObject(object.key)).sha256);

    const outDir = path.join(scratch, 'backups');
    backupRunning = true;
    const backup = await command('backup-command.ts', ['--out', outDir], app.dataDir);
    backupRunning = false;
    stop = true;
    await writer;
    expect(backup.code, backup.stderr).toBe(0);
    expect(failures).toEqual([]);
    expect(writesDuringBackup).toBeGreaterThan(0);

    const named = /^Backed up to (\S+) \(/m.exec(backup.stdout);
    expect(named, backup.stdout).not.toBeNull();
    archive = named![1]!;
    expect(path.dirname(archive)).toBe(outDir);
    expect(path.basename(archive)).toMatch(/^dropsite-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.tar\.gz$/);
    expect(await readdir(outDir)).toEqual([path.basename(archive)]);
    expect(backup.stdout).toMatch(/database: \d+ sites, \d+ files/);
    expect(backup.stdout).toMatch(/storage: \d+ files/);
    // The one planted, and any put the writer above had in progress at that moment.
    expect(backup.stdout).toMatch(/left out: [1-9]\d* temporary files? of writes in progress/);
    expect(backup.stdout).toContain('1 resumable upload not yet finished');

    restoredDir = await mkdtemp(path.join(scratch, 'restored-'));
    const restore = await command('restore-command.ts', [archive], restoredDir);
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toContain(`Restored ${archive}`);
    expect(restore.stdout).toMatch(/database: .*test\.db: \d+ sites, \d+ files .*; its schema is up to date/);

    const check = new DatabaseSync(path.join(restoredDir, 'test.db'), { readOnly: true });
    try {
      expect(check.prepare('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
    } finally {
      check.close();
    }

    restored = await startTestApp({ dataDir: restoredDir, startWorker: false, config: { rateLimits: UNREACHED_RATE_LIMITS } });
    const after = await rowsOf(restored.deps.db);
    for (const table of Object.keys(before) as Array<keyof typeof before>) {
      const restoredRows = new Map<string, unknown>(after[table].map((row) => [row.id, row]));
      expect(before[table].length, table).toBeGreaterThan(0);
      for (const row of before[table]) expect(restoredRows.get(row.id), `${table} ${row.id}`).toEqual(row);
    }
    // Every stored object that existed before the backup, byte for byte.
    for (const [key, sha256] of objectsBefore) expect((await restored.deps.storage.hashObject(key)).sha256, key).toBe(sha256);
    // Every file the restored database names, including sites published while the backup ran, is stored with its bytes.
    for (const file of after.files) expect((await restored.deps.storage.hashObject(file.storage_key)).sha256, file.storage_key).toBe(file.sha256);
    // Work in progress stayed out.
    expect(existsSync(path.join(restoredDir, 'storage', '.tmp'))).toBe(false);
    expect(existsSync(path.join(restoredDir, 'storage', '.multipart'))).toBe(false);

    // And visitors see the sites again: pages, downloads, comments.
    const visitor = createBrowser(restored);
    for (const site of sites) {
      const page = await visitor.fetch(`/${site.slug}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(SITE_HTML_MARKER);
      for (const file of site.files) {
        const download = await visitor.fetch(`/api/files/${file.id}?mode=download`);
        expect(download.status).toBe(200);
        expect(Buffer.from(await download.arrayBuffer()).equals(site.bytes.get(file.id)!)).toBe(true);
      }
      const comments = await visitor.json<{ comments: Array<{ commentText: string }> }>(`/api/comments?projectId=${site.project.id}&fileId=${site.files[0]!.id}`);
      expect(comments.body.comments.map((c) => c.commentText)).toContain(`Lovely ${site.files[0]!.name}`);
    }
  }, 90_000);

  it('refuses to restore over a folder that holds data, and with --force sets that data aside first', async () => {
    expect(archive).not.toBe('');
    await restored?.close();
    restored = undefined;
    const database = path.join(restoredDir, 'test.db');
    const beforeHash = await sha256Of(database);

    const refused = await command('restore-command.ts', ['--from', archive], restoredDir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('already holds data');
    expect(refused.stderr).toContain('--force');
    expect(await sha256Of(database)).toBe(beforeHash);

    const forced = await command('restore-command.ts', [archive, '--force'], restoredDir);
    expect(forced.code, forced.stderr).toBe(0);
    const asideLines = forced.stdout.split('\n').filter((line) => line.includes('.before-restore-'));
    expect(asideLines.map((line) => path.basename(line.trim()).replace(/\.before-restore-.*$/, '')).sort()).toEqual(['storage', 'test.db']);
    for (const line of asideLines) expect(existsSync(line.trim())).toBe(true);
    expect(await sha256Of(database)).not.toBe('');
  }, 60_000);

  it('refuses a truncated or altered archive without touching the target', async () => {
    expect(archive).not.toBe('');
    const target = await mkdtemp(path.join(scratch, 'target-'));
    const intoTarget = (file: string) => restoreBackup({ archivePath: file, ...locationsOf(path.join(target, 'data')) });

    const whole = await readFile(archive);
    const truncated = path.join(scratch, 'truncated.tar.gz');
    await writeFile(truncated, whole.subarray(0, Math.floor(whole.length / 2)));
    await expect(intoTarget(truncated)).rejects.toThrow(DamagedArchiveError);
    expect(await readdir(target)).toEqual([]);

    const entries = await entriesOf(archive);
    // One byte of the database changed: the manifest's SHA-256 no longer matches.
    const alteredDatabase = path.join(scratch, 'altered-database.tar.gz');
    await writeArchive(
      alteredDatabase,
      entries.map((entry) => {
        if (entry.name !== DATABASE_ENTRY) return entry;
        const bytes = Buffer.from(entry.bytes);
        const middle = Math.floor(bytes.length / 2);
        bytes[middle] = bytes[middle]! ^ 0xff;
        return { ...entry, bytes };
      }),
    );
    await expect(intoTarget(alteredDatabase)).rejects.toThrow(/database does not match the manifest/);
    expect(await readdir(target)).toEqual([]);

    // A stored file with other bytes of the same length.
    const alteredFile = path.join(scratch, 'altered-file.tar.gz');
    const victim = entries.find((entry) => entry.name === `${STORAGE_ENTRY_PREFIX}${siteHtmlKey(sites[0]!.slug)}`)!;
    expect(victim).toBeDefined();
    await writeArchive(
      alteredFile,
      entries.map((entry) => (entry === victim ? { ...entry, bytes: Buffer.from(entry.bytes.toString('utf8').replace('Seeded', 'Altered')) } : entry)),
    );
    await expect(intoTarget(alteredFile)).rejects.toThrow(/stored files do not match the manifest/);
    expect(await readdir(target)).toEqual([]);

    // An entry that would leave the store.
    const escaping = path.join(scratch, 'escaping.tar.gz');
    await writeArchive(escaping, [...entries.slice(0, 1), { name: `${STORAGE_ENTRY_PREFIX}../../outside`, mtimeMs: 0, bytes: Buffer.from('x') }, ...entries.slice(1)]);
    await expect(intoTarget(escaping)).rejects.toThrow(/unsafe path/);
    expect(await readdir(target)).toEqual([]);
    expect(existsSync(path.join(scratch, 'outside'))).toBe(false);

    await expect(intoTarget(path.join(scratch, 'no-such.tar.gz'))).rejects.toThrow(RefusedError);
  });

  it('never gives an archive its final name before it is whole: a backup stopped midway leaves nothing behind', async () => {
    const { dataDir } = await closedDataFolder(scratch, 2);
    const outDir = path.join(scratch, 'stopped');
    const stop = new AbortController();
    const seen: string[][] = [];
    const stopped = createBackup({
      ...locationsOf(dataDir),
      outDir,
      signal: stop.signal,
      onProgress: ({ done }) => {
        if (done === 0) return;
        seen.push(readdirSync(outDir));
        stop.abort(new Error('stopped by the test'));
      },
    });
    await expect(stopped).rejects.toThrow('stopped by the test');
    // Midway, only the hidden work folder was there; afterwards not even that.
    expect(seen.length).toBeGreaterThan(0);
    for (const names of seen) for (const name of names) expect(name).toMatch(/^\.dropsite-.*\.partial-/);
    expect(await readdir(outDir)).toEqual([]);
    // Nor the hard links that pinned the store.
    expect((await readdir(dataDir)).filter((name) => name.includes('.backup-'))).toEqual([]);

    const whole = await createBackup({ ...locationsOf(dataDir), outDir, clock: { now: () => Date.UTC(2026, 10, 27, 4, 30, 0) } });
    expect(whole.archivePath).toBe(path.join(outDir, 'dropsite-2026-11-27T04-30-00Z.tar.gz'));
    expect(await readdir(outDir)).toEqual(['dropsite-2026-11-27T04-30-00Z.tar.gz']);
    const written = await stat(whole.archivePath);
    expect(whole.archiveBytes).toBe(written.size);
    // It holds the whole database: readable by its owner only.
    expect(written.mode & 0o777).toBe(0o600);
    expect(whole.database).toMatchObject({ sites: 2, files: 4 });
    // A second backup in the same second gets a name of its own.
    const again = await createBackup({ ...locationsOf(dataDir), outDir, clock: { now: () => Date.UTC(2026, 10, 27, 4, 30, 0) } });
    expect(path.basename(again.archivePath)).toBe('dropsite-2026-11-27T04-30-00Z-2.tar.gz');
  });

  it('keeps the bytes of a stored file deleted while the archive is being written', async () => {
    const { dataDir, sites: closedSites } = await closedDataFolder(scratch, 1);
    const file = closedSites[0]!.files[0]!;
    const objectPath = path.join(dataDir, 'storage', file.storage_key);
    const result = await createBackup({
      ...locationsOf(dataDir),
      outDir: path.join(scratch, 'pinned'),
      // After the snapshot, before any stored file is archived: as the API removes a replaced file's old bytes.
      onProgress: ({ done }) => {
        if (done === 0) rmSync(objectPath);
      },
    });
    expect(result.pinned).toBe(true);
    expect(existsSync(objectPath)).toBe(false);

    const target = await mkdtemp(path.join(scratch, 'pinned-restore-'));
    const restoredFromPins = await restoreBackup({ archivePath: result.archivePath, ...locationsOf(target) });
    expect(restoredFromPins.database).toMatchObject({ sites: 1, files: 2 });
    expect(
      createHash('sha256')
        .update(await readFile(path.join(target, 'storage', file.storage_key)))
        .digest('hex'),
    ).toBe(file.sha256);
  });
});
