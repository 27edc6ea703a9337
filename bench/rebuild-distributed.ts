/**
 * Distributed rebuild: 10,000 seeded sites re-rendered through the queue three ways in one run:
 *   A  in-process on the embedded defaults (SQLite, disk storage, in-process queue, the builder in this process);
 *   B  PostgreSQL + the S3-compatible store (s3rver) + BullMQ on Redis, 1 builder process;
 *   C  the same with 2 builder processes (the stack's default).
 * B and C run on one stack (scripts/src/stack.ts: nginx, 2 APIs, 2 builders, its own schema, queue and
 * store): seeded and prepared once with both builders, timed with both (C), then with one after the other
 * stopped (B). This process enqueues against the same database and queue: what rebuildSites does
 * (`npm run rebuild -- --all`: a new version per site, a build row, a job), 16 at a time (enqueueRebuilds)
 * rather than one by one, so the builders and not the enqueuing bound the distributed figures. Every timed pass changes every page first, so every page is rendered and written.
 *
 * Per variant: wall time, sites a second, failures, lost jobs (enqueued vs finished, from the build rows
 * and the queue's own counts), pages present and written by the pass, peak RSS; then the scaling factor.
 * Targets: in-process 10,000 in under 40 s; no failures and no lost jobs in any variant.
 *
 * BENCH_SITES (default 10000) shrinks the run while developing. Needs nginx, PostgreSQL and Redis
 * (as npm run stack); without them it runs variant A only and says so.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { sql } from 'kysely';
import { createRuntime, enqueueRebuilds, loadConfig, type TAppDeps, type TRuntime } from '@dropsite/control-api';
import { siteHtmlKey } from '@dropsite/shared';
import { isStackAvailable, startTestStack } from '@dropsite/tools/stack-test-support';
import type { TStack } from '@dropsite/tools/stack';
import { mb, printFigures, readAll, runWithApiSettings, startEmbeddedRuntime } from './lib.ts';
import { judge } from './verdicts.ts';
import {
  buildReferenceProject,
  buildStatusCounts,
  countLinkPicturesRedrawn,
  makeReferenceFiles,
  seedLinkPictures,
  seedProjects,
  type TRefFile,
  type TReference,
  type TSeededSite,
} from './seed-sites.ts';

await runWithApiSettings();
process.env.NODE_ENV = 'production';
const SITES = Number(process.env.BENCH_SITES ?? 10_000);
/** BENCH_VARIANTS=A runs the in-process variant alone (B and C take most of a full run). */
const IN_PROCESS_ONLY = process.env.BENCH_VARIANTS === 'A';
const IN_PROCESS_TARGET_MS = 40_000;
/** A pass whose finished count has not moved for this long while nothing is queued or running has lost jobs. */
const STALL_MS = 120_000;
const SEED_BATCH = 200;
const POLL_MS = 100;
/** How long the queue may take to report idle once every build row has finished. */
const QUEUE_SETTLE_MS = 30_000;
/** /proc counts CPU time in clock ticks (USER_HZ: 100 on Linux). */
const CLOCK_TICKS = 100;

type TDb = TAppDeps['db'];

interface TPassResult {
  version: number;
  ms: number;
  done: number;
  failed: number;
  /** Enqueued builds that never finished (no row reached succeeded or failed). */
  lost: number;
  statusCounts: Record<string, number>;
  retried: number;
  queue: { waiting: number; active: number; completed: number; failed: number };
  lastEnqueuedMs: number;
  lastFinishedMs: number;
  /** From the last finished row until the queue answered idle (or QUEUE_SETTLE_MS). */
  settleMs: number;
  pages: { present: number; thisPass: number };
  processes: TProcessUse[];
  /** Share of the machine's CPU time busy during the pass (every process on it, others' included). */
  machineBusy: number;
  stalled: string | null;
}

interface TVariant {
  key: string;
  name: string;
  builders: string;
  pass: TPassResult;
}

const phases: Array<[string, number]> = [];
let phaseStarted = performance.now();
function phase(name: string): void {
  const ms = performance.now() - phaseStarted;
  phases.push([name, ms]);
  process.stdout.write(`  ${name}: ${(ms / 1000).toFixed(1)} s\n`);
  phaseStarted = performance.now();
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
}

/** CPU seconds a process has used so far (user + system), from /proc; 0 where it cannot be read. */
function cpuSecondsOf(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces): state is the 3rd field, utime the 14th, stime the 15th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** The machine's busy and total CPU seconds so far (all cores, everyone's processes), from /proc/stat. */
function machineCpuSeconds(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.reduce((sum, t) => sum + t, 0);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  return { busy: (total - idle) / CLOCK_TICKS, total: total / CLOCK_TICKS };
}

interface TProcessUse {
  role: string;
  peakBytes: number;
  cpuSeconds: number;
}

/**
 * Resident set sizes of some processes (this one and builders), sampled from /proc every `everyMs`,
 * and the CPU seconds each used in between; with the machine's busy share (others' work included).
 */
function startProcessSampler(processes: Array<{ role: string; pid: number }>, everyMs = 100): { stop(): { processes: TProcessUse[]; machineBusy: number } } {
  const peaks = processes.map((p) => ({ ...p, peakBytes: 0, cpuStart: cpuSecondsOf(p.pid), cpuSeconds: 0 }));
  const machineStart = machineCpuSeconds();
  const sample = () => {
    for (const p of peaks) {
      try {
        const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${p.pid}/status`, 'utf8'));
        if (match) p.peakBytes = Math.max(p.peakBytes, Number(match[1]) * 1024);
        p.cpuSeconds = cpuSecondsOf(p.pid) - p.cpuStart;
      } catch {
        // The process ended (or /proc is not there): its figures so far stand.
      }
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const machineEnd = machineCpuSeconds();
      const machineBusy = (machineEnd.busy - machineStart.busy) / Math.max(1e-9, machineEnd.total - machineStart.total);
      return { processes: peaks.map(({ role, peakBytes, cpuSeconds }) => ({ role, peakBytes, cpuSeconds })), machineBusy };
    },
  };
}

/**
 * One pass over every seeded site through the queue. A timed pass changes every page first
 * (description and sub-line, not what the link picture shows), so each build renders and writes it.
 */
async function runPass(
  deps: TAppDeps,
  sites: readonly TSeededSite[],
  label: string,
  options: { changePages: boolean; watch: Array<{ role: string; pid: number }> },
): Promise<TPassResult> {
  const ids = sites.map((s) => s.id);
  const marker = `rebuild pass ${label}`;
  if (options.changePages) {
    for (let i = 0; i < ids.length; i += 1000) {
      await deps.db
        .updateTable('projects')
        .set({ description: sql<string>`description || ${` (${marker})`}`, sub_line: sql<string>`sub_line || ${` (${marker})`}` })
        .where('id', 'in', ids.slice(i, i + 1000))
        .execute();
    }
  }
  const version = (await currentVersion(deps.db, ids[0]!)) + 1;
  const before = await deps.queue.counts();
  const sampler = startProcessSampler(options.watch);
  const wallStart = Date.now();
  const started = performance.now();
  let stalled: string | null = null;
  // Enqueued as rebuildSites does, 16 at a time; the lanes stop at their next site after a failure or a stall.
  const stopEnqueuing = new AbortController();
  let enqueueError: unknown;
  const enqueued = enqueueRebuilds(deps, ids, stopEnqueuing.signal).catch((error: unknown) => {
    enqueueError = error;
    stopEnqueuing.abort();
  });
  // Finished builds of this version counted from the rows; no progress for STALL_MS while waiting means lost jobs.
  let last = { finished: -1, at: performance.now() };
  let lastLine = performance.now();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    if (enqueueError !== undefined) throw enqueueError;
    const counts = await buildStatusCounts(deps.db, version);
    const finished = (counts.succeeded ?? 0) + (counts.failed ?? 0);
    const line = `  ${label}: ${finished}/${ids.length}${counts.failed ? ` (${counts.failed} failed)` : ''}`;
    if (process.stderr.isTTY) process.stderr.write(`\r${line}   `);
    else if (performance.now() - lastLine > 30_000) {
      lastLine = performance.now();
      process.stdout.write(`${line} after ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
    }
    if (finished >= ids.length) break;
    if (finished !== last.finished) last = { finished, at: performance.now() };
    else if (performance.now() - last.at > STALL_MS) {
      stalled = `${ids.length - finished} of ${ids.length} builds unfinished after ${STALL_MS / 1000} s without progress`;
      break;
    }
  }
  if (stalled) stopEnqueuing.abort();
  else await enqueued;
  const ms = performance.now() - started;
  // A build's row reads succeeded a moment before its job completes (the processor still writes the edge's copy
  // of the page): the queue has a little while to settle before its counts are read.
  const idleStarted = performance.now();
  if (!stalled) await Promise.race([deps.queue.whenIdle(), new Promise((resolve) => setTimeout(resolve, QUEUE_SETTLE_MS))]);
  const settleMs = performance.now() - idleStarted;
  const use = sampler.stop();
  if (process.stderr.isTTY) process.stderr.write('\n');

  const statusCounts = await buildStatusCounts(deps.db, version);
  const times = await deps.db
    .selectFrom('builds')
    .select((eb) => [eb.fn.max('created_at').as('enqueued'), eb.fn.max('finished_at').as('finished')])
    .where('version', '=', version)
    .executeTakeFirstOrThrow();
  const retried = Number(
    (
      await deps.db
        .selectFrom('builds')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('version', '=', version)
        .where('attempts', '>', 1)
        .executeTakeFirstOrThrow()
    ).n,
  );
  const after = await deps.queue.counts();
  const done = statusCounts.succeeded ?? 0;
  const failed = statusCounts.failed ?? 0;
  return {
    version,
    ms,
    done,
    failed,
    lost: sites.length - done - failed,
    statusCounts,
    retried,
    queue: { waiting: after.waiting, active: after.active, completed: after.completed - before.completed, failed: after.failed - before.failed },
    lastEnqueuedMs: Number(times.enqueued) - wallStart,
    lastFinishedMs: Number(times.finished) - wallStart,
    settleMs,
    // The preparation pass is not checked page by page (its builds' rows and the queue are).
    pages: options.changePages ? await checkPages(deps, sites, marker) : { present: 0, thisPass: 0 },
    processes: use.processes,
    machineBusy: use.machineBusy,
    stalled,
  };
}

async function currentVersion(db: TDb, projectId: string): Promise<number> {
  const row = await db.selectFrom('projects').select('version').where('id', '=', projectId).executeTakeFirstOrThrow();
  return row.version;
}

/** Every site's page read back from storage: there, with its title and this pass's change. */
async function checkPages(deps: TAppDeps, sites: readonly TSeededSite[], marker: string): Promise<{ present: number; thisPass: number }> {
  let present = 0;
  let thisPass = 0;
  for (let i = 0; i < sites.length; i += 32) {
    const pages = await Promise.all(
      sites.slice(i, i + 32).map(async (s) => {
        try {
          return (await readAll((await deps.storage.get(siteHtmlKey(s.slug))).body)).toString('utf8');
        } catch {
          return null;
        }
      }),
    );
    for (const [j, html] of pages.entries()) {
      if (html === null) continue;
      present++;
      if (html.includes(`<title>${sites[i + j]!.title}</title>`) && html.includes(marker)) thisPass++;
    }
  }
  return { present, thisPass };
}

/** Seeds the sites on a runtime (reference build first, then rows, then link pictures) and prepares them with one untimed pass. */
async function seedAndPrepare(
  deps: TAppDeps,
  refFiles: TRefFile[],
  tag: string,
  watch: Array<{ role: string; pid: number }>,
): Promise<{ ref: TReference; sites: TSeededSite[]; prep: TPassResult; redrawn: { redrawn: number; checked: number } }> {
  const ref = await buildReferenceProject(deps, refFiles);
  phase(`[${tag}] reference project built through the queue`);
  const seed = await seedProjects(deps.db, SITES, ref, SEED_BATCH);
  phase(`[${tag}] seeded ${seed.sites.length} sites, ${seed.fileCount} files (${seed.transactions} transactions)`);
  await seedLinkPictures(deps, seed.sites);
  phase(`[${tag}] link-picture markers stored for every site`);
  const prepStarted = Date.now();
  const prep = await runPass(deps, seed.sites, `${tag}-prep`, { changePages: false, watch });
  const redrawn = await countLinkPicturesRedrawn(deps, seed.sites, prepStarted + 1000);
  phase(`[${tag}] preparation pass (untimed; ${prep.done} succeeded, ${prep.failed} failed, ${prep.lost} lost; ${redrawn.redrawn}/${redrawn.checked} link pictures redrawn)`);
  if (prep.failed + prep.lost > 0) throw new Error(`the preparation pass of ${tag} did not build every site: ${JSON.stringify(prep.statusCounts)}`);
  return { ref, sites: seed.sites, prep, redrawn };
}

function describePass(v: TVariant): Array<[string, string]> {
  const p = v.pass;
  const sitesPerSecond = SITES / (p.ms / 1000);
  return [
    [`${v.key} wall time`, `${(p.ms / 1000).toFixed(2)} s for ${SITES} sites: ${sitesPerSecond.toFixed(0)} sites/s (${v.name}, ${v.builders})`],
    [
      `${v.key} timeline`,
      `last build enqueued ${(p.lastEnqueuedMs / 1000).toFixed(2)} s, last finished ${(p.lastFinishedMs / 1000).toFixed(2)} s after the start; queue idle ${(p.settleMs / 1000).toFixed(2)} s after that`,
    ],
    [
      `${v.key} failures / lost`,
      `${p.failed} failed, ${p.lost} lost (builds v${p.version}: ${Object.entries(p.statusCounts)
        .map(([k, n]) => `${n} ${k}`)
        .join(', ')}; ${p.retried} needed a retry)${p.stalled ? `; STALLED: ${p.stalled}` : ''}`,
    ],
    [
      `${v.key} queue after`,
      `${p.queue.waiting} waiting, ${p.queue.active} active; ${p.queue.completed} completed and ${p.queue.failed} failed during the pass (the queue's own counts)`,
    ],
    [`${v.key} pages`, `${p.pages.present}/${SITES} present, ${p.pages.thisPass} written by this pass (title and this pass's change in the stored page)`],
    [`${v.key} peak RSS`, p.processes.map((r) => `${r.role} ${mb(r.peakBytes)}`).join(', ')],
    [
      `${v.key} CPU used`,
      `${p.processes.map((r) => `${r.role} ${r.cpuSeconds.toFixed(1)} s`).join(', ')}; the machine was ${(p.machineBusy * 100).toFixed(0)}% busy (all processes, others' too)`,
    ],
  ];
}

function isClean(p: TPassResult): boolean {
  return (
    p.failed === 0 &&
    p.lost === 0 &&
    !p.stalled &&
    p.queue.waiting === 0 &&
    p.queue.active === 0 &&
    p.queue.completed === SITES &&
    p.queue.failed === 0 &&
    p.pages.present === SITES &&
    p.pages.thisPass === SITES
  );
}

// ---------------------------------------------------------------------------------------------

const startedAt = new Date();
const loadAtStart = loadAverage();
process.stdout.write(
  `Distributed rebuild: ${SITES} sites, ${os.availableParallelism()} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), load average ${loadAtStart} (1/5/15 min), ${startedAt.toISOString()}\n`,
);

const variants: TVariant[] = [];
let exitCode = 0;
let embedded: Awaited<ReturnType<typeof startEmbeddedRuntime>> | undefined;
let stack: TStack | undefined;
let remote: TRuntime | undefined;
let cleaning: Promise<void> | undefined;
const cleanUp = () => {
  cleaning ??= (async () => {
    await embedded?.dispose().catch((error: unknown) => console.error('closing the embedded runtime:', error));
    await remote?.close().catch((error: unknown) => console.error('closing the runtime on the stack:', error));
    await stack?.discard().catch((error: unknown) => console.error('discarding the stack:', error));
  })();
  return cleaning;
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stdout.write(`\n${signal}: removing what the run made…\n`);
    void cleanUp().then(() => process.exit(130));
  });
}

try {
  const refFiles = await makeReferenceFiles();
  phase('reference files made');

  // Variant A: in-process on the embedded defaults.
  embedded = await startEmbeddedRuntime();
  const self = [{ role: 'this process', pid: process.pid }];
  const a = await seedAndPrepare(embedded.runtime.deps, refFiles, 'A', self);
  const passA = await runPass(embedded.runtime.deps, a.sites, 'A', { changePages: true, watch: self });
  phase(`[A] timed pass: ${SITES} sites in ${(passA.ms / 1000).toFixed(2)} s`);
  variants.push({
    key: 'A',
    name: 'in-process, SQLite + disk + in-process queue',
    builders: `builder in this process, BUILD_CONCURRENCY ${embedded.runtime.deps.config.buildConcurrency}`,
    pass: passA,
  });
  await embedded.dispose();
  embedded = undefined;
  phase('[A] removed');

  if (IN_PROCESS_ONLY) {
    process.stdout.write('  BENCH_VARIANTS=A: variants B and C not run\n');
  } else if (await isStackAvailable()) {
    // Variants B and C: one stack, seeded and prepared once.
    stack = await startTestStack('bench-rebuild', { LOG_LEVEL: 'warn' });
    const config = loadConfig({ ...process.env, ...stack.env, LOG_LEVEL: 'silent', PORT: '0' });
    remote = await createRuntime(config, { runBuilder: false });
    const deps = remote.deps;
    const builders = stack.processes.filter((p) => p.role.startsWith('builder'));
    if (builders.length !== 2) throw new Error(`the stack started ${builders.length} builders, not 2`);
    const watch = (list: typeof builders) => [{ role: 'this process (enqueuer, s3rver)', pid: process.pid }, ...list.map((b) => ({ role: b.role, pid: b.child.pid ?? 0 }))];
    phase(`[B/C] stack started (${stack.processes.map((p) => p.role).join(', ')}; PostgreSQL schema, queue ${config.buildQueueName}, s3rver)`);
    const bc = await seedAndPrepare(deps, refFiles, 'B/C', watch(builders));

    const passC = await runPass(deps, bc.sites, 'C', { changePages: true, watch: watch(builders) });
    phase(`[C] timed pass with 2 builders: ${SITES} sites in ${(passC.ms / 1000).toFixed(2)} s`);

    // One builder from now on: the second stops gracefully (it holds no job between passes).
    const second = builders[1]!;
    const exited = new Promise((resolve) => second.child.once('exit', resolve));
    second.child.kill('SIGTERM');
    await exited;
    phase(`[B] ${second.role} stopped`);
    const passB = await runPass(deps, bc.sites, 'B', { changePages: true, watch: watch([builders[0]!]) });
    phase(`[B] timed pass with 1 builder: ${SITES} sites in ${(passB.ms / 1000).toFixed(2)} s`);

    const builderConcurrency = `BUILD_CONCURRENCY ${config.buildConcurrency} each`;
    variants.push({ key: 'B', name: 'PostgreSQL + s3rver + BullMQ', builders: `1 builder process, ${builderConcurrency}`, pass: passB });
    variants.push({ key: 'C', name: 'PostgreSQL + s3rver + BullMQ', builders: `2 builder processes, ${builderConcurrency}`, pass: passC });
  } else {
    process.stdout.write('  nginx, PostgreSQL or Redis missing: variants B and C not run\n');
  }
} catch (error) {
  exitCode = 1;
  console.error(error);
} finally {
  await cleanUp();
  phase('cleaned up (runtimes closed, stack stopped, its schema, queue keys and folder removed)');
}

if (variants.length > 0) {
  const rows: Array<[string, string]> = [];
  const table = [
    ['variant', 'builders', 'sites', 'wall s', 'sites a second', 'failed', 'lost', 'pages ok', 'peak RSS (MB)'],
    ...variants.map((v) => [
      v.key,
      v.key === 'A' ? 'in-process' : v.builders.split(',')[0]!,
      String(SITES),
      (v.pass.ms / 1000).toFixed(2),
      (SITES / (v.pass.ms / 1000)).toFixed(0),
      String(v.pass.failed),
      String(v.pass.lost),
      `${v.pass.pages.thisPass}/${SITES}`,
      v.pass.processes.map((r) => (r.peakBytes / 1024 / 1024).toFixed(0)).join(' + '),
    ]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  for (const v of variants) rows.push(...describePass(v));
  const b = variants.find((v) => v.key === 'B');
  const c = variants.find((v) => v.key === 'C');
  if (b && c) {
    const factor = b.pass.ms / c.pass.ms;
    rows.push(['scaling factor', `${factor.toFixed(2)}x (sites/s with 2 builder processes / with 1)`]);
  }
  const a = variants.find((v) => v.key === 'A');
  const clean = variants.every((v) => isClean(v.pass));
  rows.push(['phases', phases.map(([name, ms]) => `${name.replace(/:.*$/, '')} ${(ms / 1000).toFixed(1)} s`).join('; ')]);
  rows.push(['machine', `${os.availableParallelism()} CPUs, load average ${loadAtStart} at the start, ${loadAverage()} at the end (1/5/15 min)`]);
  rows.push([
    'target: in-process',
    `${SITES} sites under ${IN_PROCESS_TARGET_MS / 1000} s${SITES !== 10_000 ? ' (the target is for 10,000)' : ''}: ${judge({
      name: `rebuild of ${SITES} sites in process (A)`,
      measured: a ? `${(a.pass.ms / 1000).toFixed(2)} s` : 'not run',
      target: `under ${IN_PROCESS_TARGET_MS / 1000} s${SITES !== 10_000 ? ' (for 10,000)' : ''}`,
      pass: a !== undefined && a.pass.ms < IN_PROCESS_TARGET_MS,
    })}`,
  ]);
  // A page build's CPU: the whole process for A (render, storage, database, queue), the builder processes
  // alone for B and C (PostgreSQL, Redis and s3rver work apart, in their own processes or this one).
  const builderCpuMsPerSite = (v: TVariant) =>
    (1000 * v.pass.processes.filter((r) => (v.key === 'A' ? true : r.role.startsWith('builder'))).reduce((sum, r) => sum + r.cpuSeconds, 0)) / SITES;
  if (a && b) {
    const embeddedMs = builderCpuMsPerSite(a);
    const distributedMs = builderCpuMsPerSite(b);
    rows.push([
      'target: builder CPU a site',
      `B ${distributedMs.toFixed(2)} ms (one builder), A ${embeddedMs.toFixed(2)} ms: ${judge({
        name: 'builder CPU a page build, stack (B)',
        measured: `${distributedMs.toFixed(2)} ms`,
        target: `at most 12 ms and 1.5x the embedded one (${(embeddedMs * 1.5).toFixed(2)} ms)`,
        yardstick: `in process (A) ${embeddedMs.toFixed(2)} ms`,
        pass: distributedMs <= 12 && distributedMs <= embeddedMs * 1.5,
      })}`,
    ]);
  }
  rows.push(['target: no failures or lost jobs', `${variants.map((v) => v.key).join(', ')}${variants.length < 3 ? ' (B and C not run)' : ''}: ${clean ? 'PASS' : 'MISS'}`]);
  printFigures(`Distributed rebuild: ${SITES} sites (${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC)`, rows);
  process.stdout.write('\n');
  for (const row of table) process.stdout.write(`${row.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')}\n`);
}
process.exitCode = exitCode;
