/**
 * Makes sure site-template/dist exists (and is not older than the template's sources) before
 * tests render with it, building it once with `npm run build -w @dropsite/site-template`.
 * Test files run in parallel processes: a lock directory lets one of them build while the
 * others wait. The build takes a few seconds; hookTimeout covers it.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { templatePaths } from '@dropsite/builder';

const LOCK_STALE_MS = 5 * 60_000;
const WAIT_MS = 120_000;

export async function ensureTemplateBuilt(): Promise<void> {
  const { packageDir, serverEntry } = templatePaths();
  if (isFresh(packageDir, serverEntry)) return;

  const lock = path.join(os.tmpdir(), `dropsite-template-build-${createHash('sha1').update(packageDir).digest('hex').slice(0, 12)}.lock`);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (lockAge(lock) > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`Timed out waiting for another process to build the site template (${lock})`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    if (isFresh(packageDir, serverEntry)) return; // another process built it while we waited
    const repoRoot = path.resolve(packageDir, '..');
    const result = spawnSync('npm', ['run', 'build', '-w', '@dropsite/site-template'], {
      cwd: repoRoot,
      env: { ...process.env, NODE_ENV: 'production', ASTRO_TELEMETRY_DISABLED: '1' },
      encoding: 'utf8',
      timeout: WAIT_MS,
    });
    if (result.status !== 0 || !existsSync(serverEntry)) {
      throw new Error(`Building the site template failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function lockAge(lock: string): number {
  try {
    return Date.now() - statSync(lock).mtimeMs;
  } catch {
    return 0;
  }
}

/** Built, and built after the last change to the template's sources (or shared's, which it bundles). */
function isFresh(packageDir: string, serverEntry: string): boolean {
  if (!existsSync(serverEntry)) return false;
  const builtAt = statSync(serverEntry).mtimeMs;
  const sources = [
    path.join(packageDir, 'src'),
    path.join(packageDir, 'adapter'),
    path.join(packageDir, 'astro.config.mjs'),
    path.join(packageDir, 'package.json'),
    path.join(packageDir, '..', 'shared', 'src'),
  ];
  return sources.every((source) => newestMtime(source) <= builtAt);
}

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (/\.test\.tsx?$/.test(entry.name)) continue; // tests are not part of the build
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}
