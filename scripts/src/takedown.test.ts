/**
 * npm run takedown / restore-site as an operator runs them: a separate process on the API's
 * database, the running API answering 451 at once and serving the site again after the restore.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSite, type TSeededSite } from '@dropsite/testkit/control-api/site-fixtures';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

describe('npm run takedown and restore-site', () => {
  let app: TTestApp;
  let site: TSeededSite;

  const script = async (name: string, args: string[]) => {
    const env = {
      ...process.env,
      NODE_ENV: 'test',
      DATA_DIR: app.dataDir,
      DATABASE_URL: `sqlite:${path.join(app.dataDir, 'test.db')}`,
      STORAGE_DIR: path.join(app.dataDir, 'storage'),
      LOG_LEVEL: 'silent',
      PUBLIC_URL: app.url,
    };
    try {
      const { stdout, stderr } = await run(process.execPath, [path.join(ROOT, 'scripts/src', name), ...args], { env, cwd: ROOT });
      return { code: 0, stdout, stderr };
    } catch (err) {
      const failed = err as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };

  beforeAll(async () => {
    app = await startTestApp({ startWorker: false });
    site = await seedSite(app, { title: 'Disputed' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('explains itself with --help and refuses a call without a reason', async () => {
    const help = await script('takedown.ts', ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--slug <slug> --reason');
    const noReason = await script('takedown.ts', ['--slug', site.slug]);
    expect(noReason.code).toBe(2);
    expect((await script('restore-site.ts', ['--help'])).stdout).toContain('--slug <slug>');
  });

  it('takes the site down for the running API (451, files 404, reason recorded), then restores it', async () => {
    const down = await script('takedown.ts', ['--slug', site.slug, '--reason', 'Court order 2026-118']);
    expect(down.code, down.stderr).toBe(0);
    expect(down.stdout).toContain(`Took down ${site.slug}`);
    expect((await fetch(`${app.url}/${site.slug}`)).status).toBe(451);
    expect((await fetch(`${app.url}/api/files/${site.files[0]!.id}?mode=download`)).status).toBe(404);
    const row = await app.deps.db.selectFrom('projects').select(['takedown_reason', 'taken_down_at']).where('id', '=', site.project.id).executeTakeFirstOrThrow();
    expect(row.takedown_reason).toBe('Court order 2026-118');
    expect(row.taken_down_at).not.toBeNull();

    const unknown = await script('takedown.ts', ['--slug', 'zzzzzzzzzz', '--reason', 'x']);
    expect(unknown.code).toBe(1);

    const restored = await script('restore-site.ts', ['--slug', site.slug]);
    expect(restored.code, restored.stderr).toBe(0);
    expect((await fetch(`${app.url}/${site.slug}`)).status).toBe(200);
    expect((await fetch(`${app.url}/api/files/${site.files[0]!.id}?mode=download`)).status).toBe(200);
  });
});
