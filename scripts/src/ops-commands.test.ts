/**
 * The ops commands as an operator runs them, each a process of its own: every one explains itself
 * with --help / -h and refuses a flag it does not know; migrate brings a new database up to date;
 * stats and sites report on a running API's data.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSite, type TSeededSite } from '@dropsite/testkit/control-api/site-fixtures';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
/** Node keeps the compiled modules here between the many runs (several times faster to start). */
const COMPILE_CACHE = path.join(ROOT, '.cache/node-compile-cache');

interface TRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `<folder>/<file>` (scripts/src unless named) with `env` over a clean environment (no database or storage settings of the caller). */
async function command(file: string, args: readonly string[], env: Record<string, string>, folder = 'scripts/src'): Promise<TRun> {
  const { DATABASE_URL: _d, STORAGE_DIR: _s, DATA_DIR: _dd, PUBLIC_URL: _p, REDIS_URL: _r, ...inherited } = process.env;
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(ROOT, folder, file), ...args], {
      env: { ...inherited, NODE_ENV: 'test', LOG_LEVEL: 'silent', NODE_COMPILE_CACHE: COMPILE_CACHE, ...env },
      cwd: ROOT,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Each command's file and npm script; `short` marks those -h is also tried on (every one reads it through the same helper). */
const COMMANDS = [
  { file: 'migrate.ts', name: 'migrate', short: true },
  { file: 'stats.ts', name: 'stats', short: true },
  { file: 'sites.ts', name: 'sites', short: true },
  { file: 'takedown.ts', name: 'takedown', short: false },
  { file: 'restore-site.ts', name: 'restore-site', short: false },
  { file: 'rebuild.ts', name: 'rebuild', short: true },
  { file: 'expire.ts', name: 'expire', short: false },
  { file: 'usage-recount.ts', name: 'usage:recount', short: false },
  { file: 'seed-demo.ts', name: 'seed-demo', short: false },
  { file: 'compose-check.ts', name: 'compose:check', short: true, folder: 'tools/src' },
] as const;

/** Each run starts a Node process that loads the control API: seconds apiece on a busy machine. */
const SPAWNING_TEST_MS = 180_000;

describe('every ops command', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-cli-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'answers --help and -h with its usage on stdout, exit 0, and an unknown flag with the usage on stderr, exit 2',
    async () => {
      await Promise.all(
        COMMANDS.map(async (entry) => {
          const { file, name, short } = entry;
          const folder = 'folder' in entry ? entry.folder : undefined;
          for (const flag of short ? ['--help', '-h'] : ['--help']) {
            const help = await command(file, [flag], { DATA_DIR: dataDir }, folder);
            expect(help.code, `${file} ${flag}: ${help.stderr}`).toBe(0);
            expect(help.stdout, file).toContain(`Usage: npm run ${name}`);
            expect(help.stdout, file).toContain('-h, --help');
          }
          const bad = await command(file, ['--no-such-flag'], { DATA_DIR: dataDir }, folder);
          expect(bad.code, file).toBe(2);
          expect(bad.stderr, file).toContain("Unknown option '--no-such-flag'");
          expect(bad.stderr, file).toContain(`Usage: npm run ${name}`);
          expect(bad.stdout, file).toBe('');
        }),
      );
    },
    SPAWNING_TEST_MS,
  );

  it(
    'refuses values it cannot take with exit 2: a missing command, a bad number, a stray argument',
    async () => {
      const calls: ReadonlyArray<readonly [string, readonly string[]]> = [
        ['migrate.ts', []],
        ['migrate.ts', ['sideways']],
        ['sites.ts', ['find']],
        ['sites.ts', ['find', 'a-slug', '--limit', '3']],
        ['sites.ts', ['list', '--limit', 'ten']],
        ['stats.ts', ['--days', '0']],
        ['expire.ts', ['--grace-days', 'soon']],
        ['usage-recount.ts', ['now']],
        ['rebuild.ts', []],
      ];
      await Promise.all(
        calls.map(async ([file, args]) => {
          const result = await command(file, args, { DATA_DIR: dataDir });
          expect(result.code, `${file} ${args.join(' ')}`).toBe(2);
          expect(result.stderr).toContain('Usage: npm run');
        }),
      );
    },
    SPAWNING_TEST_MS,
  );
});

describe('npm run migrate on a new data folder', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-migrate-cli-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'shows every migration pending, applies them, then shows none pending; the reports wait for it',
    async () => {
      const env = { DATA_DIR: dataDir };
      const fresh = await command('migrate.ts', ['status'], env);
      expect(fresh.code, fresh.stderr).toBe(0);
      const total = Number(/(\d+) migrations, (\d+) pending/.exec(fresh.stdout)?.[1]);
      expect(total).toBeGreaterThan(10);
      expect(fresh.stdout).toContain(`${total} migrations, ${total} pending.`);
      expect(fresh.stdout).toContain('pending  ');

      const refused = await command('stats.ts', [], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`The database has ${total} pending migration(s): run npm run migrate -- up first.`);

      const up = await command('migrate.ts', ['up'], env);
      expect(up.code, up.stderr).toBe(0);
      expect(up.stdout).toContain('Applied 2026_11_22_0000_initial');
      expect(up.stdout).toContain(`Applied ${total} migration(s).`);

      const status = await command('migrate.ts', ['status'], env);
      expect(status.stdout).toContain(`${total} migrations, 0 pending.`);
      expect(status.stdout).toMatch(/applied {2}\d{4}-\d\d-\d\d \d\d:\d\d UTC {2}2026_11_22_0000_initial/);
      expect((await command('migrate.ts', ['up'], env)).stdout).toBe('Already up to date.\n');

      const missing = await command('sites.ts', ['find', 'no-such-site'], env);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toBe('No site with slug: no-such-site\n');
    },
    SPAWNING_TEST_MS,
  );
});

describe('npm run stats and sites on a running API’s data', () => {
  let app: TTestApp;
  let site: TSeededSite;
  const report = (file: string, args: readonly string[]) =>
    command(file, args, {
      DATA_DIR: app.dataDir,
      DATABASE_URL: `sqlite:${path.join(app.dataDir, 'test.db')}`,
      STORAGE_DIR: path.join(app.dataDir, 'storage'),
      PUBLIC_URL: app.url,
    });

  beforeAll(async () => {
    app = await startTestApp({ startWorker: false });
    site = await seedSite(app, { title: 'Harbour Lights', fileCount: 2 });
  });
  afterAll(async () => {
    await app.close();
  });

  it(
    'stats --json counts the published site, its files and bytes',
    async () => {
      const result = await report('stats.ts', ['--json', '--days', '7']);
      expect(result.code, result.stderr).toBe(0);
      const stats = JSON.parse(result.stdout) as { sites: Record<string, number>; files: Record<string, number>; traffic: { perDay: unknown[] } };
      expect(stats.sites).toMatchObject({ total: 1, live: 1 });
      expect(stats.files).toMatchObject({ count: 2, originalBytes: site.files.reduce((sum, f) => sum + f.size, 0) });
      expect(stats.traffic.perDay).toHaveLength(7);

      const table = await report('stats.ts', []);
      expect(table.stdout).toMatch(/^Sites +1$/m);
      expect(table.stdout).toContain('Views of the last 14 day(s)');
    },
    SPAWNING_TEST_MS,
  );

  it(
    'sites list shows the site with its owner and state; find shows its address, files and that it has no password',
    async () => {
      const list = await report('sites.ts', ['list']);
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout).toMatch(/^slug +title +owner +state +files +bytes +created$/m);
      expect(list.stdout).toMatch(new RegExp(`^${site.slug} +Harbour Lights +no owner +live +2 `, 'm'));

      const found = await report('sites.ts', ['find', site.slug]);
      expect(found.code, found.stderr).toBe(0);
      expect(found.stdout).toMatch(new RegExp(`^url +${app.url}/${site.slug}$`, 'm'));
      expect(found.stdout).toMatch(/^password +no$/m);
      expect(found.stdout).toContain('photo-1.jpg');
      expect(found.stdout).toContain('photo-2.jpg');

      const json = await report('sites.ts', ['find', site.slug, '--json']);
      expect(JSON.parse(json.stdout)).toMatchObject({ slug: site.slug, state: 'live', hasPassword: false, url: `${app.url}/${site.slug}`, views: 0 });
    },
    SPAWNING_TEST_MS,
  );
});
