/**
 * The creator's dashboard as sites get popular: a signed-in creator with 1,000 sites, one of them
 * with 1,000,000 view and download events (90 days, 50,000 visitors, 20 files) and 10,000 comments.
 * autocannon asks, with the API in a child process, for the project list, the project's details,
 * the analytics panel, and the daily chart over 30 and 90 days; the same child serves a bare
 * Express handler, measured in the same run as the yardstick. Runs on the embedded SQLite
 * defaults and, when it is reachable, on PostgreSQL (a throw-away schema).
 *
 * Events go in through the runtime's analytics batcher (multi-row inserts, rollups in the same
 * transaction), the rest as multi-row inserts. A dashboard is one creator's: latency is measured at
 * BENCH_CONNECTIONS=1 by default (with more, p99 adds the queue of the other connections' requests).
 *
 * Targets (both dialects): p99 < 50 ms for the list, < 100 ms for details, the panel and the chart.
 *
 * Usage: node bench/dashboard.ts   (BENCH_SECONDS=10, BENCH_CONNECTIONS=1, BENCH_EVENTS=1000000, BENCH_PG_URL=…, BENCH_PIN=0 to not pin CPUs)
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { sql } from 'kysely';
import { createApp, type TAppDeps } from '@dropsite/control-api';
import { uploadKey } from '@dropsite/shared';
import { signUpThroughOutbox } from '@dropsite/tools/sign-up-link';
import { printFigures } from './lib.ts';
import { autocannonWithCpu, BENCH_SECONDS, placeLoadGenerator, postgresRun, startBenchRuntime, serveUnderLoad, startServer, stopServer } from './load-harness.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 1);
const SITES = 1000;
const FILES_PER_SITE = 3;
/** The popular site: its files, and what its visitors did over EVENT_DAYS. */
const BIG = { files: 20, events: Number(process.env.BENCH_EVENTS ?? 1_000_000), visitors: 50_000, comments: 10_000, favorites: 2_000, approvals: 2_000 };
const EVENT_DAYS = 90;
const DAY_MS = 86_400_000;
/** Rows per multi-row insert (inside both dialects' bound-parameter limits). */
const ROWS_PER_INSERT = 500;
/** Events handed to the batcher at once (it writes them 500 a statement, each batch with its rollups). */
const EVENTS_PER_ROUND = 5000;
const RAISED_LIMIT = '100000000';
const RAISED_LIMITS = { RATE_LIMIT_READS_PER_MINUTE: RAISED_LIMIT, RATE_LIMIT_WRITES_PER_MINUTE: RAISED_LIMIT };

interface TServerInfo {
  port: number;
  barePort: number;
  cookie: string;
  bigProjectId: string;
  seedSeconds: number;
}

// ---- child: the API (and the bare handler) under load

const id = () => randomBytes(16).toString('base64url');

async function insertInChunks<T>(rows: readonly T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) await insert(rows.slice(i, i + ROWS_PER_INSERT));
}

/** A deterministic stream of numbers, so both dialects get the same data. */
function createRandom(seed: number): (n: number) => number {
  let x = seed;
  return (n) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x % n;
  };
}

async function seed(deps: TAppDeps, creatorId: string): Promise<string> {
  const { db } = deps;
  const now = Date.now();
  const random = createRandom(42);
  const settings = JSON.stringify({ enableFavorites: true, enableComments: true, enableApprovals: true, enableAnalytics: true });
  const projects = Array.from({ length: SITES }, (_, i) => ({
    id: id(),
    slug: `bench${randomBytes(6).toString('hex')}`,
    title: i === SITES - 1 ? 'The popular one' : `Delivery ${i + 1}`,
    description: `Files for client ${i + 1}`,
    sub_line: '',
    tag_line: '',
    author_name: 'Bench Studio',
    template: 'universal',
    theme: 'professional-light',
    settings,
    contact_info: '{}',
    password_hash: null,
    password_version: 1,
    expires_at: null,
    owner_creator_id: creatorId,
    anonymous_session_id: null,
    status: 'live' as const,
    version: 1,
    created_at: now - (SITES - i) * 60_000,
    updated_at: now,
    deleted_at: null,
  }));
  await insertInChunks(projects, (chunk) => db.insertInto('projects').values(chunk).execute());
  const big = projects.at(-1)!;
  const filesOf = new Map<string, string[]>();
  const files = projects.flatMap((p) => {
    const count = p === big ? BIG.files : FILES_PER_SITE;
    const ids = Array.from({ length: count }, id);
    filesOf.set(p.id, ids);
    return ids.map((fileId, position) => ({
      id: fileId,
      project_id: p.id,
      name: `photo-${position + 1}.jpg`,
      type: 'image/jpeg',
      size: 1_000_000,
      storage_key: uploadKey(p.id, fileId),
      sha256: 'a'.repeat(64),
      kind: 'image',
      metadata: '{}',
      position,
      created_at: p.created_at,
    }));
  });
  await insertInChunks(files, (chunk) => db.insertInto('files').values(chunk).execute());

  // Every site has a little engagement; the popular one a lot.
  const bigFiles = filesOf.get(big.id)!;
  const visitor = (n: number) => `visitor${String(n).padStart(6, '0')}`;
  const favorites = projects.flatMap((p) =>
    Array.from({ length: p === big ? BIG.favorites : 2 }, (_, k) => {
      const fileIds = filesOf.get(p.id)!;
      return { id: id(), project_id: p.id, file_id: fileIds[k % fileIds.length]!, visitor_id: visitor(k), user_name: `User ${k}`, created_at: now - k * 1000 };
    }),
  );
  await insertInChunks(favorites, (chunk) => db.insertInto('favorites').values(chunk).execute());
  const statuses = ['approved', 'rejected', 'pending'] as const;
  const approvals = projects.flatMap((p) =>
    Array.from({ length: p === big ? BIG.approvals : 1 }, (_, k) => {
      const fileIds = filesOf.get(p.id)!;
      return {
        id: id(),
        project_id: p.id,
        file_id: fileIds[k % fileIds.length]!,
        visitor_id: visitor(k),
        user_name: `User ${k}`,
        status: statuses[k % 3]!,
        created_at: now - k * 1000,
        updated_at: now - k * 1000,
      };
    }),
  );
  await insertInChunks(approvals, (chunk) => db.insertInto('approvals').values(chunk).execute());
  const comments: Array<{ id: string; project_id: string; file_id: string; parent_id: string | null; visitor_id: string; user_name: string; body: string; created_at: number }> =
    [];
  for (const p of projects) {
    const fileIds = filesOf.get(p.id)!;
    const count = p === big ? BIG.comments : 3;
    const roots: Array<{ id: string; file_id: string }> = [];
    for (let k = 0; k < count; k++) {
      const file_id = fileIds[k % fileIds.length]!;
      // One in five answers an earlier thread of its file.
      const parent = k % 5 === 4 ? roots[roots.length - 1 - random(Math.min(roots.length, 20))] : undefined;
      const row = {
        id: id(),
        project_id: p.id,
        file_id: parent?.file_id ?? file_id,
        parent_id: parent?.id ?? null,
        visitor_id: visitor(k),
        user_name: `User ${k}`,
        body: `Comment ${k}: the colours in this one work really well for the brochure.`,
        created_at: now - (count - k) * 60_000,
      };
      if (!parent) roots.push({ id: row.id, file_id: row.file_id });
      comments.push(row);
    }
  }
  await insertInChunks(comments, (chunk) => db.insertInto('comments').values(chunk).execute());

  // Views and downloads through the batcher: the popular site's million over 90 days, a few on every other.
  const start = now - EVENT_DAYS * DAY_MS;
  const event = (projectId: string, fileIds: readonly string[], k: number, total: number) => {
    const pick = random(fileIds.length + 3);
    const fileId = pick < fileIds.length ? fileIds[pick]! : null;
    const type = random(4) === 0 ? ('download' as const) : ('view' as const);
    return {
      id: id(),
      siteId: projectId,
      fileId,
      visitorId: visitor(random(BIG.visitors)),
      type,
      details: `${type} ${k}`,
      now: start + Math.floor((k / total) * EVENT_DAYS * DAY_MS),
    };
  };
  // All at once: the batcher writes them a thousand at a time (a few at a time would each wait for its cadence).
  await Promise.all(projects.filter((p) => p !== big).flatMap((p) => Array.from({ length: 10 }, (_, k) => deps.analytics.insert(event(p.id, filesOf.get(p.id)!, k, 10)))));
  for (let k = 0; k < BIG.events; k += EVENTS_PER_ROUND) {
    const round = Array.from({ length: Math.min(EVENTS_PER_ROUND, BIG.events - k) }, (_, j) => event(big.id, bigFiles, k + j, BIG.events));
    const written = Promise.all(round.map((e) => deps.analytics.insert(e)));
    await deps.analytics.flush();
    await written;
    if ((k / EVENTS_PER_ROUND) % 40 === 0) process.stderr.write(`  seeded ${k.toLocaleString('en-US')} events\n`);
  }
  // A long-lived PostgreSQL has its tables vacuumed and analysed (autovacuum does it as they grow): a
  // schema seeded a moment ago has no statistics yet (its planner would guess a thousand rows are
  // thirteen) and no visibility map (every index-only count would visit the table too).
  if (deps.config.databaseUrl.startsWith('postgres')) await sql`vacuum analyze`.execute(db);
  return big.id;
}

/** Signs a creator up through the API itself (the real flow: the sign-up, then its mailed link), answering its session cookie and id. */
async function signUp(base: string, dataDir: string): Promise<{ cookie: string; creatorId: string }> {
  const cookie = await signUpThroughOutbox(base, path.join(dataDir, 'outbox'), { email: 'bench@example.com', password: 'bench-password-1', name: 'Bench Creator' });
  const res = await fetch(`${base}/api/auth/session`, { headers: { cookie } });
  const body = (await res.json()) as { creator?: { id: string } | null };
  if (!res.ok || !body.creator) throw new Error(`sign-up failed (${res.status})`);
  return { cookie, creatorId: body.creator.id };
}

async function serve(): Promise<void> {
  const { server, port, base, runtime } = await startBenchRuntime();
  server.on('request', createApp(runtime.deps));
  const seeding = Date.now();
  const { cookie, creatorId } = await signUp(base, runtime.deps.config.dataDir);
  const bigProjectId = await seed(runtime.deps, creatorId);
  const seedSeconds = (Date.now() - seeding) / 1000;

  // The yardstick: Express answering a small JSON body and nothing else.
  const bare = express();
  bare.get('/bare', (_req, res) => void res.json({ success: true }));
  await serveUnderLoad(server, runtime, bare, { port, cookie, bigProjectId, seedSeconds } satisfies Omit<TServerInfo, 'barePort'>);
}

// ---- parent: the load generator

interface TRun {
  rps: number;
  /** CPU the API process spent per request (user + system, from /proc): robust to other load on the machine; PostgreSQL's own is not in it. */
  cpuMsPerRequest: number | null;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  bytes: number;
}

async function load(url: string, cookie: string | undefined, serverPid: number | undefined): Promise<TRun> {
  // One request first: its status and size, and the process's caches warmed as a creator's second look would find them.
  const first = await fetch(url, { headers: cookie ? { cookie } : {} });
  const bytes = (await first.arrayBuffer()).byteLength;
  if (!first.ok) throw new Error(`${url} answered ${first.status}`);
  const { result, cpuMsPerRequest } = await autocannonWithCpu({ url, connections: CONNECTIONS, duration: BENCH_SECONDS, headers: cookie ? { cookie } : {} }, serverPid);
  return {
    rps: result.requests.average,
    cpuMsPerRequest,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    bytes,
  };
}

const TARGETS: Record<string, number> = {
  'GET /api/creators/me/projects (1,000 sites)': 50,
  'GET /api/projects/{id}/details': 100,
  'GET /api/analytics (panel)': 100,
  'GET …/analytics/daily?days=30': 100,
  'GET …/analytics/daily?days=90': 100,
};

async function measure(label: string, env: Record<string, string>, pin: boolean): Promise<{ runs: Record<string, TRun>; seedSeconds: number }> {
  process.stdout.write(`\n[${label}] seeding ${SITES.toLocaleString('en-US')} sites and ${BIG.events.toLocaleString('en-US')} events…\n`);
  const { child, info } = await startServer<TServerInfo>(import.meta.filename, env, pin);
  try {
    const base = `http://127.0.0.1:${info.port}`;
    const project = info.bigProjectId;
    process.stdout.write(`[${label}] seeded in ${info.seedSeconds.toFixed(0)} s; ${BENCH_SECONDS} s per run, ${CONNECTIONS} connection(s)\n`);
    const runs: Record<string, TRun> = {};
    const pid = child.pid;
    runs['bare GET'] = await load(`http://127.0.0.1:${info.barePort}/bare`, undefined, pid);
    runs['GET /api/creators/me/projects (1,000 sites)'] = await load(`${base}/api/creators/me/projects`, info.cookie, pid);
    runs['GET /api/projects/{id}/details'] = await load(`${base}/api/projects/${project}/details`, info.cookie, pid);
    runs['GET /api/analytics (panel)'] = await load(`${base}/api/analytics?projectId=${project}&detailed=true`, info.cookie, pid);
    runs['GET …/analytics/daily?days=30'] = await load(`${base}/api/projects/${project}/analytics/daily?days=30`, info.cookie, pid);
    runs['GET …/analytics/daily?days=90'] = await load(`${base}/api/projects/${project}/analytics/daily?days=90`, info.cookie, pid);
    return { runs, seedSeconds: info.seedSeconds };
  } finally {
    await stopServer(child);
  }
}

function report(title: string, runs: Record<string, TRun>): boolean {
  let isPass = true;
  const rows: Array<[string, string]> = [];
  for (const [name, run] of Object.entries(runs)) {
    const target = TARGETS[name];
    const ok = target === undefined || (run.p99 < target && run.non2xx === 0 && run.errors === 0);
    if (target !== undefined) isPass &&= ok;
    const verdict = target === undefined ? '' : `  target p99 < ${target} ms: ${ok ? 'PASS' : 'MISS'}`;
    const problems = run.non2xx || run.errors ? `  (${run.non2xx} non-2xx, ${run.errors} errors)` : '';
    const size = `${(run.bytes / 1024).toFixed(run.bytes < 10_240 ? 1 : 0)} KB`;
    const cpu = run.cpuMsPerRequest === null ? '' : `   CPU ${run.cpuMsPerRequest.toFixed(1).padStart(5)} ms/req`;
    rows.push([
      name,
      `${Math.round(run.rps).toLocaleString('en-US').padStart(6)} req/s   p50 ${String(run.p50).padStart(3)} ms   p99 ${String(run.p99).padStart(3)} ms${cpu}   ${size.padStart(8)}${problems}${verdict}`,
    ]);
  }
  printFigures(title, rows);
  return isPass;
}

async function main(): Promise<void> {
  const pin = placeLoadGenerator('Dashboard benchmark');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-bench-dashboard-'));
  const verdicts: string[] = [];
  try {
    const sqlite = await measure('SQLite (embedded defaults)', { DATA_DIR: dataDir, ...RAISED_LIMITS }, pin);
    verdicts.push(`SQLite: ${report('Dashboard on SQLite (embedded defaults)', sqlite.runs) ? 'PASS' : 'MISS'}`);
    const postgres = await postgresRun(dataDir);
    if (postgres) {
      const { runs } = await measure(`PostgreSQL (schema ${postgres.schema})`, { ...postgres.env, ...RAISED_LIMITS }, pin);
      verdicts.push(`PostgreSQL: ${report(`Dashboard on PostgreSQL (${postgres.url})`, runs) ? 'PASS' : 'MISS'}`);
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  process.stdout.write(`\nTargets (p99 < 50 ms list, < 100 ms details, panel and chart): ${verdicts.join(', ')}\n`);
}

if (process.argv.includes('--serve')) await serve();
else await main();
