/**
 * Runs every benchmark script in bench/ (each *.ts but the helpers and this file), one after another,
 * each in its own process with NODE_ENV=production, streaming its output, and ends with the table of
 * every target the scripts judged (verdicts.ts): PASS or MISS, the figure, the target and the yardstick
 * measured in the same run. Exits non-zero when a script crashed; a missed target is reported, never
 * turned into a failure.
 * Usage: npm run bench   (or node bench/run-all.ts [name ...] to run some of them)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatVerdicts, readVerdicts } from './verdicts.ts';

const benchDir = import.meta.dirname;
const NOT_BENCHMARKS = new Set(['lib.ts', 'seed-sites.ts', 'load-harness.ts', 'verdicts.ts', 'run-all.ts']);

const available = readdirSync(benchDir, { withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') && !e.name.endsWith('.test.ts') && !NOT_BENCHMARKS.has(e.name))
  .map((e) => e.name)
  .sort();

const wanted = process.argv.slice(2).map((arg) => path.basename(arg).replace(/(\.ts)?$/, '.ts'));
const unknown = wanted.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`Unknown benchmark(s): ${unknown.join(', ')}. Available: ${available.join(', ')}`);
  process.exit(2);
}
const scripts = wanted.length > 0 ? wanted : available;
const verdictDir = mkdtempSync(path.join(os.tmpdir(), 'dropsite-bench-'));
const verdictFile = path.join(verdictDir, 'verdicts.jsonl');

function run(script: string): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(benchDir, script)], {
      cwd: path.dirname(benchDir),
      env: { ...process.env, NODE_ENV: 'production', BENCH_VERDICTS: verdictFile },
      stdio: 'inherit',
    });
    child.once('error', (error) => {
      console.error(`Could not start ${script}: ${error.message}`);
      resolve({ code: null, signal: null });
    });
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
}

const results: Array<{ script: string; ok: boolean; seconds: number; how: string }> = [];
for (const script of scripts) {
  process.stdout.write(`\n=== bench/${script} ===\n`);
  const started = performance.now();
  const { code, signal } = await run(script);
  const seconds = (performance.now() - started) / 1000;
  const ok = code === 0;
  results.push({ script, ok, seconds, how: ok ? 'ok' : signal ? `killed by ${signal}` : `exit code ${code ?? 'none'}` });
}

process.stdout.write('\n=== summary ===\n');
const width = Math.max(...results.map((r) => r.script.length));
for (const r of results) process.stdout.write(`${r.script.padEnd(width)}  ${r.how.padEnd(14)} ${r.seconds.toFixed(1)} s\n`);
process.stdout.write('\n=== targets ===\n');
process.stdout.write(formatVerdicts(readVerdicts(verdictFile)));
rmSync(verdictDir, { recursive: true, force: true });
const crashed = results.filter((r) => !r.ok);
if (crashed.length > 0) {
  process.stdout.write(`${crashed.length} of ${results.length} benchmark(s) crashed\n`);
  process.exitCode = 1;
}
