/**
 * Rebuild: 1,000 realistic projects seeded on the embedded defaults (SQLite, disk storage,
 * in-process queue, the real builder), all re-rendered through the queue with rebuildSites,
 * then the naive way for comparison: a full `astro build` per project for a few of them.
 * Targets: at most 8 ms of CPU a site (every thread of the process: render, both compressed variants,
 * storage, database, queue), 1,000 rebuilds in at most 4 s, no failure; the fast path at least 300x
 * faster per project. Part 2 also prints the CPU of each stage measured alone, on this thread.
 *
 *
 * BENCH_PROJECTS (default 1000) and BENCH_NAIVE (default 10) shrink the run while developing.
 */
import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import {
  PAGE_COMPRESSION,
  SCRIPT_HASHES_METADATA,
  SITE_HTML_CACHE_CONTROL,
  SITE_HTML_CONTENT_TYPE,
  buildRenderModel,
  loadSiteRenderer,
  renderStoredPage,
  templatePaths,
} from '@dropsite/builder';
import { rebuildSites, type TRebuildProgress } from '@dropsite/control-api';
import { FILE_KINDS, siteHtmlKey } from '@dropsite/shared';
import { loadBuildInput } from '@dropsite/control-api/internals';
import { mb, median, printFigures, readAll, runWithApiSettings, startEmbeddedRuntime, startRssSampler } from './lib.ts';
import { judge } from './verdicts.ts';
import { buildReferenceProject, buildStatusCounts, derivedFromRows, makeReferenceFiles, seedLinkPictures, seedProjects } from './seed-sites.ts';

await runWithApiSettings();
process.env.NODE_ENV = 'production';
const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 1000);
const NAIVE = Number(process.env.BENCH_NAIVE ?? 10);
const SEED_BATCH = 100;
/** 4 s for 1,000 sites (BENCH_PROJECTS scales it). */
const REBUILD_TARGET_MS = (4000 * PROJECTS) / 1000;
const CPU_PER_SITE_TARGET_MS = 8;
const RATIO_TARGET = 300;

/** Sources of the template whose relative imports a scratch copy may have to re-point (part 3). */
const SOURCE_EXTENSIONS = new Set(['.ts', '.tsx', '.js', '.jsx', '.mjs', '.astro', '.css']);
const RELATIVE_SPECIFIERS = [
  /(\bfrom\s*)(['"])(\.{1,2}\/[^'"]+)\2/g,
  /(\bimport\s*)(['"])(\.{1,2}\/[^'"]+)\2/g,
  /(\bimport\(\s*)(['"])(\.{1,2}\/[^'"]+)\2/g,
  /(@import\s+)(['"])(\.{1,2}\/[^'"]+)\2/g,
];

/** BENCH_NAIVE=0 ends the run after part 2 (for profiling the rebuild alone). */
class SkipNaive extends Error {}

// ---------------------------------------------------------------------------------------------
// Part 1: seed.
// ---------------------------------------------------------------------------------------------

const env = await startEmbeddedRuntime();
const { deps } = env.runtime;
const templatePackageDir = templatePaths().packageDir;
const scratchRoot = path.join(templatePackageDir, '.bench-naive');
let exitCode = 0;

try {
  const refFiles = await makeReferenceFiles();

  // One project through the real pipeline: bytes in storage, rows, a queued build, derivation.
  const ref = await buildReferenceProject(deps, refFiles);
  const refMs = ref.ms;
  const metadataFromCache = ref.metadataFromCache;

  // 1,000 projects, SEED_BATCH per transaction, rows reusing the reference files' content.
  const seed = await seedProjects(deps.db, PROJECTS, ref, SEED_BATCH);
  const { sites: seeded, fileCount, kindCounts } = seed;
  const seedMs = seed.ms;
  // Each site's link picture as a site built before has it (a marker of its own input), so the untimed
  // first pass draws none (about 130 ms a site otherwise) and no timed pass would either.
  const pictures = await seedLinkPictures(deps, seeded);

  printFigures(`Rebuild, part 1: seed ${PROJECTS} projects (embedded defaults: SQLite, disk storage, in-process queue)`, [
    [
      'reference project',
      `${refFiles.length} files (6 JPEG 1600x1200/1200x1600, PDF, ZIP, CSV, MD) built through the queue in ${(refMs / 1000).toFixed(2)} s${metadataFromCache ? ` (${metadataFromCache} rows without metadata after a retried build: taken from derived/*/meta.json)` : ''}`,
    ],
    [
      'seeded',
      `${seeded.length} projects, ${fileCount} files (${FILE_KINDS.filter((k) => kindCounts[k])
        .map((k) => `${kindCounts[k]} ${k}`)
        .join(', ')})`,
    ],
    ['files per project', `${Math.min(...seeded.map((s) => s.files))}-${Math.max(...seeded.map((s) => s.files))}`],
    ['seed time', `${(seedMs / 1000).toFixed(2)} s (${seed.transactions} transactions)`],
    ['link pictures', `one drawn, every site's marker written, in ${(pictures.ms / 1000).toFixed(2)} s`],
    [
      'machine',
      `${os.availableParallelism()} CPUs, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' / ')} (1/5/15 min) at the start of part 2`,
    ],
  ]);

  // -------------------------------------------------------------------------------------------
  // Part 2: rebuild all of them through the queue.
  // -------------------------------------------------------------------------------------------

  const ids = seeded.map((s) => s.id);
  let polls = 0;
  const onProgress = (label: string) => (p: TRebuildProgress) => {
    polls++;
    if (process.stderr.isTTY) process.stderr.write(`\r  ${label}: ${p.done + p.failed}/${p.total}${p.failed ? ` (${p.failed} failed)` : ''}   `);
  };

  // First pass (version 2): the seeded sites were never built; a production rebuild meets sites built
  // before, so the timed pass is the second one.
  const firstPass = await rebuildSites(deps, ids, onProgress('first build'));
  if (process.stderr.isTTY) process.stderr.write('\n');
  const firstCounts = await buildStatusCounts(deps.db, 2);

  // Timed pass (version 3). Every page changes first, as with a template upgrade: a rebuild that
  // renders the bytes a site already has writes nothing (build-site.ts), and what is measured here is
  // the re-render that writes every page. The description and sub-line change, not what the link
  // picture shows (a new title would have every picture drawn again).
  await deps.db
    .updateTable('projects')
    .set({ description: sql<string>`description || ' (rebuilt)'`, sub_line: sql<string>`sub_line || ' (rebuilt)'` })
    .where('id', 'in', ids)
    .execute();
  const REBUILD_VERSION = 3;
  polls = 0;
  const rebuildWallStart = Date.now();
  const sampler = startRssSampler(50);
  const cpuBefore = process.cpuUsage();
  const profileFrom = process.hrtime.bigint() / 1000n;
  const result = await rebuildSites(deps, ids, onProgress('rebuild'));
  const profileTo = process.hrtime.bigint() / 1000n;
  const rss = sampler.stop();
  const cpu = process.cpuUsage(cpuBefore);
  // For profiling (node --cpu-prof): the monotonic microseconds the rebuild spans, as in the profile.
  if (process.env.BENCH_PROFILE_WINDOW) await writeFile(process.env.BENCH_PROFILE_WINDOW, JSON.stringify({ from: Number(profileFrom), to: Number(profileTo) }));
  if (process.stderr.isTTY) process.stderr.write('\n');

  // When the last build finished, from the rows (rebuildSites polls every 100 ms, so its own time rounds up).
  const finished = await deps.db
    .selectFrom('builds')
    .select((eb) => [eb.fn.max('finished_at').as('last'), eb.fn.min('started_at').as('first')])
    .where('version', '=', REBUILD_VERSION)
    .executeTakeFirstOrThrow();
  const lastFinishedMs = Number(finished.last) - rebuildWallStart;
  const firstStartedMs = Number(finished.first) - rebuildWallStart;
  const counts = await buildStatusCounts(deps.db, REBUILD_VERSION);

  // Every site's HTML is in storage and was written by this rebuild; one spot check reads it back.
  let missing = 0;
  let stale = 0;
  for (let i = 0; i < seeded.length; i += 50) {
    const heads = await Promise.all(seeded.slice(i, i + 50).map((s) => deps.storage.head(siteHtmlKey(s.slug))));
    missing += heads.filter((h) => h === null).length;
    stale += heads.filter((h) => h !== null && h.modifiedAt < rebuildWallStart - 1).length;
  }
  const spot = seeded[Math.floor(seeded.length / 2)]!;
  const spotHtml = (await readAll((await deps.storage.get(siteHtmlKey(spot.slug))).body)).toString('utf8');
  const spotOk = spotHtml.includes(`<title>${spot.title}</title>`);
  const liveCount = Number(
    (
      await deps.db
        .selectFrom('projects')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'live')
        .where('version', '=', REBUILD_VERSION)
        .executeTakeFirstOrThrow()
    ).n,
  );

  // The floor: rendering alone, with the same renderer and the same models, no queue, DB or storage.
  const models = [];
  for (const s of seeded) {
    const input = await loadBuildInput(deps.db, s.id);
    if (!input) throw new Error(`project ${s.id} vanished`);
    models.push(buildRenderModel(input.site, input.files, derivedFromRows(input.files), deps.config.publicUrl));
  }
  const renderer = await loadSiteRenderer();
  const renderStarted = performance.now();
  for (const model of models) await renderer.render(model);
  const renderOnlyMs = (performance.now() - renderStarted) / models.length;
  // The CPU of each stage alone, on this thread: rendering; rendering with both variants, their tags
  // and the script hashes (the render thread's whole work); and putting the three objects of a page
  // (through the store the builds use, to keys of their own).
  const cpuMsPerSite = (started: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(started);
    return (used.user + used.system) / 1000 / models.length;
  };
  let cpuStart = process.cpuUsage();
  for (const model of models) await renderer.render(model);
  const renderCpuMs = cpuMsPerSite(cpuStart);
  const pages = [];
  cpuStart = process.cpuUsage();
  for (const model of models) pages.push(await renderStoredPage(renderer, model, PAGE_COMPRESSION, 'sync'));
  const renderThreadCpuMs = cpuMsPerSite(cpuStart);
  cpuStart = process.cpuUsage();
  for (const [i, page] of pages.entries()) {
    const options = (etag: string) => ({
      contentType: SITE_HTML_CONTENT_TYPE,
      cacheControl: SITE_HTML_CACHE_CONTROL,
      etag,
      metadata: { [SCRIPT_HASHES_METADATA]: page.scriptHashes.join(' ') },
    });
    await Promise.all([
      deps.storage.put(`bench-stages/${i}/index.html.br`, page.variants.br, options(page.etags.br)),
      deps.storage.put(`bench-stages/${i}/index.html.gz`, page.variants.gzip, options(page.etags.gzip)),
    ]);
    await deps.storage.put(`bench-stages/${i}/index.html`, page.body, options(page.etags.identity));
  }
  const storeCpuMs = cpuMsPerSite(cpuStart);
  await deps.storage.deletePrefix('bench-stages/');
  const cpuPerSiteMs = (cpu.user + cpu.system) / 1000 / PROJECTS;
  const cpuPass = cpuPerSiteMs <= CPU_PER_SITE_TARGET_MS;

  const fastMsPerProject = result.ms / PROJECTS;
  const rebuildPass = result.failed === 0 && missing === 0 && stale === 0 && spotOk && result.ms <= REBUILD_TARGET_MS;
  printFigures(`Rebuild, part 2: ${PROJECTS} sites through the queue (rebuildSites)`, [
    [
      'first build (untimed pass)',
      `${(firstPass.ms / 1000).toFixed(2)} s, ${(firstPass.ms / PROJECTS).toFixed(2)} ms per project, ${firstPass.failed} failed (${Object.entries(firstCounts)
        .map(([k, v]) => `${v} ${k}`)
        .join(', ')})`,
    ],
    ['rebuild total', `${(result.ms / 1000).toFixed(2)} s`],
    ['projects per second', (PROJECTS / (result.ms / 1000)).toFixed(0)],
    ['ms per project', fastMsPerProject.toFixed(2)],
    ['of which rendering', `${renderOnlyMs.toFixed(2)} ms per project when rendering alone (same renderer and models, measured after); the rest is queue, SQLite and disk storage`],
    [
      'first build started / last finished',
      `${(firstStartedMs / 1000).toFixed(2)} s / ${(lastFinishedMs / 1000).toFixed(2)} s after the call (progress polled ${polls} times, every 100 ms)`,
    ],
    [
      'CPU per project',
      `${cpuPerSiteMs.toFixed(2)} ms (user ${(cpu.user / 1000 / PROJECTS).toFixed(2)}, system ${(cpu.system / 1000 / PROJECTS).toFixed(2)}; every thread of the process, over ${os.availableParallelism()} CPUs)`,
    ],
    ['peak RSS', `${mb(rss.peakBytes)} (${mb(rss.startBytes)} before; ${rss.samples} samples every 50 ms; process maxRSS ${mb(process.resourceUsage().maxRSS * 1024)})`],
    [
      'build concurrency',
      `${deps.config.buildConcurrency} (BUILD_CONCURRENCY), ${deps.config.buildRenderThreads} render threads (BUILD_RENDER_THREADS), storage ${deps.storage.driver}, queue ${deps.queue.driver}`,
    ],
    [
      'failures',
      `${result.failed} (builds v${REBUILD_VERSION}: ${Object.entries(counts)
        .map(([k, v]) => `${v} ${k}`)
        .join(', ')}; ${liveCount} projects live at v${REBUILD_VERSION})`,
    ],
    ['sites/{slug}/index.html', `${seeded.length - missing}/${seeded.length} present, ${seeded.length - missing - stale} written by this rebuild`],
    ['spot check', `${spot.slug}: ${spotHtml.length} bytes, title "${spot.title}" ${spotOk ? 'found' : 'NOT FOUND'}`],
    [
      'CPU a site, by stage alone',
      `render ${renderCpuMs.toFixed(2)} ms, compress and tag ${(renderThreadCpuMs - renderCpuMs).toFixed(2)} ms, store three objects ${storeCpuMs.toFixed(2)} ms; the rest of the ${cpuPerSiteMs.toFixed(2)} ms (database, queue, orchestration, the link picture's check, threads) ${(cpuPerSiteMs - renderThreadCpuMs - storeCpuMs).toFixed(2)} ms`,
    ],
    [
      'target: CPU a site',
      `at most ${CPU_PER_SITE_TARGET_MS} ms: ${cpuPerSiteMs.toFixed(2)} ms, ${judge({ name: 'CPU a page build, embedded', measured: `${cpuPerSiteMs.toFixed(2)} ms`, target: `at most ${CPU_PER_SITE_TARGET_MS} ms`, yardstick: `rendering alone ${renderCpuMs.toFixed(2)} ms`, pass: cpuPass })}`,
    ],
    [
      'target: the rebuild',
      `${PROJECTS} sites in at most ${REBUILD_TARGET_MS / 1000} s with 0 failures: ${(result.ms / 1000).toFixed(2)} s, ${judge({ name: `rebuild of ${PROJECTS} sites`, measured: `${(result.ms / 1000).toFixed(2)} s, ${result.failed} failed`, target: `at most ${REBUILD_TARGET_MS / 1000} s, 0 failed`, yardstick: `rendering alone ${((renderOnlyMs * PROJECTS) / 1000).toFixed(2)} s`, pass: rebuildPass })}`,
    ],
  ]);

  // -------------------------------------------------------------------------------------------
  // Part 3: the naive way, a full `astro build` per project.
  // -------------------------------------------------------------------------------------------

  if (NAIVE <= 0) throw new SkipNaive();
  const astroBin = resolveAstroBin(templatePackageDir);
  await rm(scratchRoot, { recursive: true, force: true });
  const indexPage = await staticIndexPage(path.join(templatePackageDir, 'src', 'pages', '[...slug].astro'));
  const naiveTimes: number[] = [];
  const naiveChecks: string[] = [];
  const picks = Array.from({ length: Math.min(NAIVE, seeded.length) }, (_, i) => seeded[Math.floor((i * seeded.length) / NAIVE)]!);
  for (const [i, project] of picks.entries()) {
    const input = await loadBuildInput(deps.db, project.id);
    if (!input) throw new Error(`project ${project.id} vanished`);
    const model = buildRenderModel(input.site, input.files, derivedFromRows(input.files), deps.config.publicUrl);
    const dir = path.join(scratchRoot, `p${i}`);
    await prepareNaiveProject(dir, templatePackageDir, indexPage, JSON.stringify(model, null, 2));
    const started = performance.now();
    const run = await runChild(process.execPath, [astroBin, 'build', '--root', dir], {
      cwd: dir,
      env: { ...process.env, NODE_ENV: 'production', ASTRO_TELEMETRY_DISABLED: '1' },
    });
    const ms = performance.now() - started;
    if (run.code !== 0) throw new Error(`astro build for ${project.slug} exited with ${run.code}:\n${run.output.slice(-4000)}`);
    const out = path.join(dir, 'dist', 'index.html');
    const html = existsSync(out) ? await readFile(out, 'utf8') : '';
    if (!html.includes(`<title>${project.title}</title>`)) throw new Error(`astro build for ${project.slug} produced no page titled "${project.title}"`);
    naiveTimes.push(ms);
    naiveChecks.push(`${project.slug} ${(ms / 1000).toFixed(2)} s`);
    process.stdout.write(`  naive astro build ${i + 1}/${picks.length}: ${(ms / 1000).toFixed(2)} s\n`);
  }
  await rm(scratchRoot, { recursive: true, force: true });

  const naiveMean = naiveTimes.reduce((a, b) => a + b, 0) / naiveTimes.length;
  const ratio = naiveMean / fastMsPerProject;
  printFigures(`Rebuild, part 3: naive full \`astro build\` per project (${picks.length} of them) vs the fast path`, [
    ['naive ms per project', `${naiveMean.toFixed(0)} (mean), ${median(naiveTimes).toFixed(0)} (median)`],
    ['naive each', naiveChecks.join(', ')],
    ['naive checks', `${naiveTimes.length}/${picks.length} dist/index.html with the project title`],
    ['fast ms per project', fastMsPerProject.toFixed(2)],
    ['ratio', `${ratio.toFixed(0)}x faster per project (naive mean / fast)`],
    ['naive estimate for all', `${((naiveMean * PROJECTS) / 1000 / 60).toFixed(0)} min for ${PROJECTS} projects, sequentially`],
    ['target', `at least ${RATIO_TARGET}x`],
    [
      'result',
      judge({
        name: 'rebuild vs a full astro build a site',
        measured: `${ratio.toFixed(0)}x`,
        target: `at least ${RATIO_TARGET}x`,
        yardstick: `astro build ${naiveMean.toFixed(0)} ms a site`,
        pass: ratio >= RATIO_TARGET,
      }),
    ],
  ]);
} catch (error) {
  if (!(error instanceof SkipNaive)) {
    exitCode = 1;
    console.error(error);
  }
} finally {
  await rm(scratchRoot, { recursive: true, force: true });
  await env.dispose();
}
process.exitCode = exitCode;

// ---------------------------------------------------------------------------------------------
// Naive build helpers.
// ---------------------------------------------------------------------------------------------

/**
 * The dynamic page turned static: the same frontmatter and markup, with the site read from
 * _site.json beside it wherever the page read Astro.locals.site.
 */
async function staticIndexPage(dynamicPage: string): Promise<string> {
  const source = await readFile(dynamicPage, 'utf8');
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(source);
  if (!match) throw new Error(`${dynamicPage} has no frontmatter`);
  if (!/Astro\.locals\.site\b/.test(match[1]!)) throw new Error(`${dynamicPage} no longer reads Astro.locals.site; update bench/rebuild.ts`);
  const frontmatter = match[1]!.replace(/Astro\.locals\.site\b/g, '(siteJson as unknown as TSiteRenderModel)');
  return ['---', "import type { TSiteRenderModel } from '@dropsite/shared';", "import siteJson from './_site.json';", frontmatter, '---', match[2]!].join('\n');
}

/**
 * Copies the template's sources to `to`. Relative imports that leave src/ (the template reaches
 * into ../../../shared/src for browser-safe helpers) are re-pointed at the same files from the
 * copy's place, which sits deeper in the tree.
 */
async function copyTemplateSources(from: string, to: string): Promise<void> {
  for (const entry of await readdir(from, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const source = path.join(entry.parentPath, entry.name);
    const rel = path.relative(from, source);
    if (rel === path.join('pages', '[...slug].astro') || /\.test\.tsx?$/.test(entry.name)) continue;
    const target = path.join(to, rel);
    await mkdir(path.dirname(target), { recursive: true });
    if (!SOURCE_EXTENSIONS.has(path.extname(entry.name))) {
      await cp(source, target);
      continue;
    }
    let text = await readFile(source, 'utf8');
    for (const pattern of RELATIVE_SPECIFIERS) {
      text = text.replace(pattern, (whole: string, lead: string, quote: string, spec: string) => {
        const resolved = path.resolve(path.dirname(source), spec);
        const inside = path.relative(from, resolved);
        if (!inside.startsWith('..') && !path.isAbsolute(inside)) return whole;
        const moved = path.relative(path.dirname(target), resolved).split(path.sep).join('/');
        return `${lead}${quote}${moved.startsWith('.') ? moved : `./${moved}`}${quote}`;
      });
    }
    await writeFile(target, text);
  }
}

/**
 * One scratch project: the template's sources, the static page, the model, and a config that
 * is the template's own with output 'static' and no adapter (integrations, the noop image
 * service, inline styles and the rest kept as they are).
 */
async function prepareNaiveProject(dir: string, templateDir: string, indexPage: string, modelJson: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await copyTemplateSources(path.join(templateDir, 'src'), path.join(dir, 'src'));
  await mkdir(path.join(dir, 'src', 'pages'), { recursive: true });
  await writeFile(path.join(dir, 'src', 'pages', 'index.astro'), indexPage);
  await writeFile(path.join(dir, 'src', 'pages', '_site.json'), modelJson);
  const templateConfig = pathToFileURL(path.join(templateDir, 'astro.config.mjs')).href;
  await writeFile(
    path.join(dir, 'astro.config.mjs'),
    `// Scratch copy for bench/rebuild.ts: the template's config as a static site without its adapter.
import templateConfig from ${JSON.stringify(templateConfig)};

const { adapter: _adapter, ...config } = templateConfig;
export default { ...config, output: 'static' };
`,
  );
}

/** The astro CLI the template itself uses (what `npx astro` runs, without npx's own start-up). */
function resolveAstroBin(packageDir: string): string {
  const require = createRequire(path.join(packageDir, 'package.json'));
  const pkgPath = require.resolve('astro/package.json');
  const bin = path.join(path.dirname(pkgPath), 'bin', 'astro.mjs');
  if (!existsSync(bin)) throw new Error(`astro CLI not found at ${bin}`);
  return bin;
}

function runChild(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}
