/**
 * Rebuild: 1,000 realistic projects seeded on the embedded defaults (SQLite, disk storage,
 * in-process queue, the real builder), all re-rendered through the queue with rebuildProjects,
 * then the naive way for comparison: a full `astro build` per project for a few of them.
 * Targets: 1,000 rebuilds in under 5 s; the fast path at least 300x faster per project.
 *
 * BENCH_PROJECTS (default 1000) and BENCH_NAIVE (default 10) shrink the run while developing.
 */
import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { buildRenderModel, loadSiteRenderer, templatePaths, type TBuildFile } from '@dropsite/builder';
import { enqueueProjectBuild, rebuildProjects, type TAppDeps, type TRebuildProgress } from '@dropsite/control-api';
import {
  DEFAULT_SITE_SETTINGS,
  FILE_KINDS,
  TEMPLATE_IDS,
  derivedKeys,
  detectFileKind,
  generateSlug,
  isValidSlug,
  siteHtmlKey,
  uploadKey,
  type TDerivedMetadata,
  type TFileKind,
} from '@dropsite/shared';
// Seeding goes straight to the repository (relative: control-api exports no repositories).
import { insertFiles, insertProject, listFilesByProject } from '../control-api/src/projects/projects.repository.ts';
import { loadBuildInput } from '../control-api/src/builds/build-input.ts';
import type { TFileRow, TNewFile, TNewProject } from '../control-api/src/db/tables.ts';
import { makeCameraJpeg, makePdf, makeZip, mb, median, printFigures, readAll, startEmbeddedRuntime, startRssSampler } from './lib.ts';

process.env.NODE_ENV = 'production';
const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 1000);
const NAIVE = Number(process.env.BENCH_NAIVE ?? 10);
const SEED_BATCH = 100;
const REBUILD_TARGET_MS = 5000;
const RATIO_TARGET = 300;

/** Sources of the template whose relative imports a scratch copy may have to re-point (part 3). */
const SOURCE_EXTENSIONS = new Set(['.ts', '.tsx', '.js', '.jsx', '.mjs', '.astro', '.css']);
const RELATIVE_SPECIFIERS = [
  /(\bfrom\s*)(['"])(\.{1,2}\/[^'"]+)\2/g,
  /(\bimport\s*)(['"])(\.{1,2}\/[^'"]+)\2/g,
  /(\bimport\(\s*)(['"])(\.{1,2}\/[^'"]+)\2/g,
  /(@import\s+)(['"])(\.{1,2}\/[^'"]+)\2/g,
];

type TDb = TAppDeps['db'];

/** BENCH_NAIVE=0 ends the run after part 2 (for profiling the rebuild alone). */
class SkipNaive extends Error {}

// ---------------------------------------------------------------------------------------------
// Reference files: real bytes, uploaded and built once so images have derived metadata.
// ---------------------------------------------------------------------------------------------

interface TRefFile {
  name: string;
  type: string;
  bytes: Buffer;
}

/** A stored reference file as the seeded rows reuse it (storage key, hash, size, derived metadata). */
interface TStoredRef {
  name: string;
  type: string;
  size: number;
  storageKey: string;
  sha256: string;
  kind: string;
  metadata: string;
}

async function makeReferenceFiles(): Promise<TRefFile[]> {
  const sizes: Array<[number, number]> = [
    [1600, 1200],
    [1600, 1200],
    [1200, 1600],
    [1600, 1200],
    [1200, 1600],
    [1600, 1200],
  ];
  const photos = await Promise.all(sizes.map(([w, h], i) => makeCameraJpeg(i + 11, w, h)));
  const csvRows = [
    'date,item,quantity,price',
    ...Array.from({ length: 200 }, (_, i) => `2025-03-${String((i % 28) + 1).padStart(2, '0')},item-${i},${(i % 9) + 1},${(i * 3.17).toFixed(2)}`),
  ];
  return [
    ...photos.map((bytes, i) => ({ name: `DSC_${String(i + 1).padStart(4, '0')}.jpg`, type: 'image/jpeg', bytes })),
    { name: 'contract.pdf', type: 'application/pdf', bytes: makePdf(4) },
    {
      name: 'originals.zip',
      type: 'application/zip',
      bytes: makeZip([
        { name: 'README.txt', data: 'Original files of the delivery.\n'.repeat(20) },
        { name: 'raw/notes.md', data: '# Notes\n\nShot list and settings.\n'.repeat(40) },
        { name: 'raw/sidecar.xmp', data: randomBytes(4096) },
      ]),
    },
    { name: 'invoice-lines.csv', type: 'text/csv', bytes: Buffer.from(`${csvRows.join('\n')}\n`) },
    { name: 'brief.md', type: 'text/markdown', bytes: Buffer.from('# Brief\n\nWhat was shot, where and when.\n'.repeat(30)) },
  ];
}

const WORDS = {
  adjective: ['Spring', 'Autumn', 'Quiet', 'Golden', 'Northern', 'Urban', 'Coastal', 'Late', 'Early', 'Final', 'Studio', 'Open'],
  noun: ['Wedding', 'Campaign', 'Portraits', 'Lookbook', 'Launch', 'Workshop', 'Delivery', 'Exhibition', 'Brochure', 'Retreat', 'Shoot', 'Proofs'],
  first: ['Ann', 'Ben', 'Chloe', 'David', 'Elena', 'Farid', 'Greta', 'Hiro', 'Ines', 'Jonas', 'Kemi', 'Liam'],
  last: ['Example', 'Fischer', 'Moreau', 'Okafor', 'Rossi', 'Nakamura', 'Silva', 'Novak', 'Larsen', 'Haddad'],
};

function pick<T>(list: readonly T[], n: number): T {
  return list[n % list.length]!;
}

function newRowId(): string {
  return randomBytes(16).toString('base64url');
}

function allocateSlugs(count: number): string[] {
  const slugs = new Set<string>();
  while (slugs.size < count) {
    const slug = generateSlug((n) => randomBytes(n));
    if (isValidSlug(slug)) slugs.add(slug);
  }
  return [...slugs];
}

function projectRow(id: string, slug: string, n: number, createdAt: number, status: TNewProject['status']): TNewProject {
  const author = n % 5 === 4 ? '' : `${pick(WORDS.first, n)} ${pick(WORDS.last, n * 7 + 3)}`;
  const title = `${pick(WORDS.adjective, n)} ${pick(WORDS.noun, n * 5 + 1)} ${1000 + n}`;
  const description =
    n % 6 === 5
      ? ''
      : `Final selects from the ${pick(WORDS.noun, n * 5 + 1).toLowerCase()}, with the signed contract and the originals. Take your time, and tell me which ones you would like retouched.`;
  const email = author ? `${author.split(' ')[0]!.toLowerCase()}@example.com` : '';
  return {
    id,
    slug,
    title,
    description,
    sub_line: description,
    tag_line: author ? `By ${author}` : '',
    author_name: author,
    template: n % 4 === 0 ? pick(TEMPLATE_IDS, n) : 'universal',
    theme: n % 3 === 0 ? 'professional-dark' : 'professional-light',
    settings: JSON.stringify({ ...DEFAULT_SITE_SETTINGS, enableFavorites: n % 2 === 0, notificationEmail: email }),
    contact_info: JSON.stringify({ email, website: n % 4 === 1 ? 'https://example.com' : '', twitter: '', linkedin: '', github: '' }),
    password_hash: null,
    password_version: 1,
    expires_at: null,
    owner_creator_id: null,
    anonymous_session_id: null,
    status,
    version: 1,
    created_at: createdAt,
    updated_at: createdAt,
    deleted_at: null,
  };
}

/** 3 to 8 files: one to six photos, usually a PDF, sometimes a zip, a CSV or notes. */
function fileRows(projectId: string, n: number, refs: { images: TStoredRef[]; others: TStoredRef[] }, createdAt: number): TNewFile[] {
  const count = 3 + ((n * 7 + 3) % 6);
  const [pdf, zip, csv, md] = refs.others as [TStoredRef, TStoredRef, TStoredRef, TStoredRef];
  const others: TStoredRef[] = [];
  if (n % 5 !== 4) others.push(pdf);
  if (n % 3 === 0) others.push(zip);
  if (n % 7 === 2) others.push(csv);
  if (n % 11 === 5) others.push(md);
  const chosen: Array<{ ref: TStoredRef; name: string }> = [];
  const imageCount = Math.max(1, count - others.length);
  for (let i = 0; i < imageCount; i++) {
    chosen.push({ ref: pick(refs.images, n + i), name: `IMG_${String(((n * 13 + i) % 9000) + 1000)}.jpg` });
  }
  for (const ref of others.slice(0, count - imageCount)) chosen.push({ ref, name: ref.name.replace('.', `-${1000 + n}.`) });
  return chosen.map(({ ref, name }, position) => ({
    id: newRowId(),
    project_id: projectId,
    name,
    type: ref.type,
    size: ref.size,
    storage_key: ref.storageKey,
    sha256: ref.sha256,
    kind: ref.kind,
    metadata: ref.metadata,
    position,
    created_at: createdAt,
  }));
}

async function buildStatusCounts(db: TDb, version: number): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('builds')
    .select((eb) => ['status', eb.fn.countAll<number>().as('count')])
    .where('version', '=', version)
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.count)]));
}

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
  const refStarted = performance.now();
  const refProjectId = newRowId();
  const now = Date.now();
  const refRows: TNewFile[] = [];
  for (const [position, file] of refFiles.entries()) {
    const fileId = newRowId();
    const storageKey = uploadKey(refProjectId, fileId);
    await deps.storage.put(storageKey, file.bytes, { contentType: 'application/octet-stream' });
    refRows.push({
      id: fileId,
      project_id: refProjectId,
      name: file.name,
      type: file.type,
      size: file.bytes.length,
      storage_key: storageKey,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
      kind: detectFileKind(file.name, file.type),
      metadata: '{}',
      position,
      created_at: now,
    });
  }
  const [refSlug] = allocateSlugs(1) as [string];
  await deps.db.transaction().execute(async (trx) => {
    await insertProject(trx, projectRow(refProjectId, refSlug, 0, now, 'building'));
    await insertFiles(trx, refRows);
  });
  const refBuildId = await enqueueProjectBuild(deps, refProjectId, 1);
  await deps.queue.whenIdle();
  const refBuild = await deps.db.selectFrom('builds').selectAll().where('id', '=', refBuildId).executeTakeFirstOrThrow();
  if (refBuild.status !== 'succeeded') throw new Error(`the reference build ${refBuild.status}: ${refBuild.error ?? '(no error recorded)'}`);
  const refMs = performance.now() - refStarted;
  const refBuilt = await listFilesByProject(deps.db, refProjectId);
  let metadataFromCache = 0;
  const toRef = async (row: TFileRow): Promise<TStoredRef> => {
    let metadata = row.metadata;
    // A build whose first attempt failed after deriving finds everything cached on its retry and
    // then leaves the rows at '{}': take the content-hash cache entry the builder wrote instead.
    if (metadata === '{}') {
      const key = derivedKeys(row.sha256).meta;
      if (await deps.storage.head(key)) {
        metadata = (await readAll((await deps.storage.get(key)).body)).toString('utf8');
        metadataFromCache++;
      }
    }
    return { name: row.name, type: row.type, size: row.size, storageKey: row.storage_key, sha256: row.sha256, kind: row.kind, metadata };
  };
  const images = await Promise.all(refBuilt.filter((r) => r.kind === 'image').map(toRef));
  const others = await Promise.all(refBuilt.filter((r) => r.kind !== 'image').map(toRef));
  for (const image of images) {
    const meta = JSON.parse(image.metadata) as Partial<TDerivedMetadata>;
    if (!meta.thumbnail || !meta.display) throw new Error(`reference build derived nothing for ${image.name}: ${image.metadata}`);
    if (!(await deps.storage.head(meta.thumbnail.key)) || !(await deps.storage.head(meta.display.key))) {
      throw new Error(`derived copies of ${image.name} are missing from storage`);
    }
  }
  if (images.length !== 6 || others.length !== 4) throw new Error('reference project has unexpected files');

  // 1,000 projects, SEED_BATCH per transaction, rows reusing the reference files' content.
  const seedStarted = performance.now();
  const slugs = allocateSlugs(PROJECTS + 1)
    .filter((s) => s !== refSlug)
    .slice(0, PROJECTS);
  const seeded: Array<{ id: string; slug: string; title: string; files: number }> = [];
  const yearAgo = now - 365 * 24 * 3600 * 1000;
  let fileCount = 0;
  const kindCounts: Partial<Record<TFileKind, number>> = {};
  for (let start = 0; start < PROJECTS; start += SEED_BATCH) {
    await deps.db.transaction().execute(async (trx) => {
      for (let n = start; n < Math.min(PROJECTS, start + SEED_BATCH); n++) {
        const id = newRowId();
        const createdAt = yearAgo + Math.floor((n / PROJECTS) * 360 * 24 * 3600 * 1000);
        const project = projectRow(id, slugs[n]!, n + 1, createdAt, 'live');
        const files = fileRows(id, n + 1, { images, others }, createdAt);
        await insertProject(trx, project);
        await insertFiles(trx, files);
        seeded.push({ id, slug: project.slug, title: project.title, files: files.length });
        fileCount += files.length;
        for (const f of files) kindCounts[f.kind as TFileKind] = (kindCounts[f.kind as TFileKind] ?? 0) + 1;
      }
    });
  }
  const seedMs = performance.now() - seedStarted;

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
    ['seed time', `${(seedMs / 1000).toFixed(2)} s (${Math.ceil(PROJECTS / SEED_BATCH)} transactions)`],
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

  // First pass (version 2): the seeded sites were never built, and a site's first build does
  // once what later rebuilds find cached (its Open Graph picture, when the builder makes one).
  // A production rebuild meets sites built before, so the timed pass is the second one.
  const firstPass = await rebuildProjects(deps, ids, onProgress('first build'));
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
  const profileFrom = process.hrtime.bigint() / 1000n;
  const result = await rebuildProjects(deps, ids, onProgress('rebuild'));
  const profileTo = process.hrtime.bigint() / 1000n;
  const rss = sampler.stop();
  // For profiling (node --cpu-prof): the monotonic microseconds the rebuild spans, as in the profile.
  if (process.env.BENCH_PROFILE_WINDOW) await writeFile(process.env.BENCH_PROFILE_WINDOW, JSON.stringify({ from: Number(profileFrom), to: Number(profileTo) }));
  if (process.stderr.isTTY) process.stderr.write('\n');

  // When the last build finished, from the rows (rebuildProjects polls every 100 ms, so its own time rounds up).
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
    models.push(buildRenderModel(input.project, input.files, derivedFromRows(input.files), deps.config.publicUrl));
  }
  const renderer = await loadSiteRenderer();
  const renderStarted = performance.now();
  for (const model of models) await renderer.render(model);
  const renderOnlyMs = (performance.now() - renderStarted) / models.length;

  const fastMsPerProject = result.ms / PROJECTS;
  const rebuildPass = result.failed === 0 && missing === 0 && stale === 0 && spotOk && result.ms < REBUILD_TARGET_MS;
  printFigures(`Rebuild, part 2: ${PROJECTS} projects through the queue (rebuildProjects)`, [
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
    ['peak RSS', `${mb(rss.peakBytes)} (${mb(rss.startBytes)} before; ${rss.samples} samples every 50 ms; process maxRSS ${mb(process.resourceUsage().maxRSS * 1024)})`],
    ['build concurrency', `${deps.config.buildConcurrency} (BUILD_CONCURRENCY), storage ${deps.storage.driver}, queue ${deps.queue.driver}`],
    [
      'failures',
      `${result.failed} (builds v${REBUILD_VERSION}: ${Object.entries(counts)
        .map(([k, v]) => `${v} ${k}`)
        .join(', ')}; ${liveCount} projects live at v${REBUILD_VERSION})`,
    ],
    ['sites/{slug}/index.html', `${seeded.length - missing}/${seeded.length} present, ${seeded.length - missing - stale} written by this rebuild`],
    ['spot check', `${spot.slug}: ${spotHtml.length} bytes, title "${spot.title}" ${spotOk ? 'found' : 'NOT FOUND'}`],
    ['target', `under ${REBUILD_TARGET_MS / 1000} s, 0 failures`],
    ['result', rebuildPass ? 'PASS' : 'MISS'],
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
    const model = buildRenderModel(input.project, input.files, derivedFromRows(input.files), deps.config.publicUrl);
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
    ['result', ratio >= RATIO_TARGET ? 'PASS' : 'MISS'],
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

/** What the builder would derive for each file, answered from the rows (as the cache does on a rebuild). */
function derivedFromRows(files: TBuildFile[]): Record<string, TDerivedMetadata> {
  const derived: Record<string, TDerivedMetadata> = {};
  for (const file of files) {
    const kind = (FILE_KINDS as readonly string[]).includes(file.kind) ? (file.kind as TFileKind) : detectFileKind(file.name, file.type);
    derived[file.id] = file.metadata ? { ...file.metadata, kind } : { sha256: file.sha256, kind };
  }
  return derived;
}

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
