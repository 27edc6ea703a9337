/**
 * Engagement load: autocannon against POST/DELETE /api/favorites (toggling across 200 files),
 * GET /api/comments (a file with 30 comments) and the view beacon POST /api/analytics/view,
 * from a pool of 200 visitors, with the API in a child process. The same child also serves a
 * bare Express handler, measured in the same run as the yardstick. Runs on the embedded SQLite
 * defaults and, when it is reachable, on PostgreSQL (a throw-away schema).
 *
 * Targets (SQLite): writes >= 2,000 req/s, reads >= 5,000 req/s, p99 < 25 ms, and each at least
 * 30 % of the bare handler's rate. The rate limits are raised for the run (they would otherwise
 * answer 429 to a single load generator); that is printed with the figures.
 *
 * Usage: node bench/engagement.ts   (BENCH_SECONDS=10, BENCH_CONNECTIONS=10, BENCH_PG_URL=…, BENCH_PIN=0 to not pin CPUs,
 * BENCH_CASES=view,comments to run only the cases whose names contain one of those words (the bare
 * yardsticks always run), BENCH_DIALECTS=sqlite or postgres for one database only)
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import express from 'express';
import { createApp } from '@dropsite/control-api';
import { uploadKey } from '@dropsite/shared';
import { printFigures } from './lib.ts';
import { judge } from './verdicts.ts';
import { autocannonWithCpu, BENCH_SECONDS, placeLoadGenerator, postgresRun, startBenchRuntime, serveUnderLoad, startServer, stopServer } from './load-harness.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const FILES = 200;
const VISITORS = 200;
const COMMENTS = 30;
const RAISED_LIMIT = '100000000';
/** Words picking the cases to run (all when unset); the bare handlers always run, as the yardstick. */
const CASES = (process.env.BENCH_CASES ?? '')
  .split(',')
  .map((word) => word.trim().toLowerCase())
  .filter(Boolean);
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').toLowerCase();
const isPicked = (name: string) => CASES.length === 0 || CASES.some((word) => name.toLowerCase().includes(word));
const RAISED_LIMITS = {
  RATE_LIMIT_READS_PER_MINUTE: RAISED_LIMIT,
  RATE_LIMIT_WRITES_PER_MINUTE: RAISED_LIMIT,
  RATE_LIMIT_SITE_WRITES_PER_MINUTE: RAISED_LIMIT,
};

interface TServerInfo {
  port: number;
  barePort: number;
  projectId: string;
  fileIds: string[];
}

// ---- child: the API (and the bare handler) under load

async function serve(): Promise<void> {
  const { server, port, runtime } = await startBenchRuntime();
  const { db } = runtime.deps;
  const now = Date.now();
  const id = () => randomBytes(16).toString('base64url');
  const projectId = id();
  await db
    .insertInto('projects')
    .values({
      id: projectId,
      slug: `bench${randomBytes(6).toString('hex')}`,
      title: 'Engagement benchmark',
      description: '',
      sub_line: '',
      tag_line: '',
      author_name: '',
      template: 'universal',
      theme: 'professional-light',
      settings: JSON.stringify({ enableFavorites: true, enableComments: true, enableApprovals: true, enableAnalytics: true }),
      contact_info: '{}',
      password_hash: null,
      password_version: 1,
      expires_at: null,
      owner_creator_id: null,
      anonymous_session_id: null,
      status: 'live',
      version: 1,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    })
    .execute();
  const fileIds = Array.from({ length: FILES }, id);
  await db
    .insertInto('files')
    .values(
      fileIds.map((fileId, position) => ({
        id: fileId,
        project_id: projectId,
        name: `photo-${position + 1}.jpg`,
        type: 'image/jpeg',
        size: 1000,
        storage_key: uploadKey(projectId, fileId),
        sha256: 'a'.repeat(64),
        kind: 'image',
        metadata: '{}',
        position,
        created_at: now,
      })),
    )
    .execute();
  await db
    .insertInto('comments')
    .values(
      Array.from({ length: COMMENTS }, (_, i) => ({
        id: id(),
        project_id: projectId,
        file_id: fileIds[0]!,
        parent_id: null,
        visitor_id: `visitor${i}`,
        user_name: `User ${String(i).padStart(4, '0')}`,
        body: `Comment number ${i}: the colours in this one work really well for the brochure.`,
        created_at: now + i,
      })),
    )
    .execute();

  server.on('request', createApp(runtime.deps));

  // The yardstick: Express with the same JSON parser and nothing else.
  const bare = express();
  bare.use(express.json({ limit: '64kb' }));
  bare.get('/bare', (_req, res) => void res.json({ success: true }));
  bare.post('/bare', (_req, res) => void res.json({ success: true }));
  await serveUnderLoad(server, runtime, bare, { port, projectId, fileIds } satisfies Omit<TServerInfo, 'barePort'>);
}

// ---- parent: the load generator

async function makeVisitors(base: string, projectId: string): Promise<string[]> {
  const cookies: string[] = [];
  for (let i = 0; i < VISITORS; i++) {
    const res = await fetch(`${base}/api/engagement/state?projectId=${projectId}`);
    await res.arrayBuffer();
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('dropsite_vid='));
    if (!cookie) throw new Error(`no visitor cookie (status ${res.status})`);
    cookies.push(cookie.split(';')[0]!);
  }
  return cookies;
}

interface TRun {
  rps: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU time the API process spent per request (user + system), when /proc tells; robust to other load on the machine. */
  cpuMicrosPerRequest: number | null;
}

async function load(url: string, request: autocannon.Request, serverPid: number | undefined): Promise<TRun> {
  const { result, cpuMsPerRequest } = await autocannonWithCpu({ url, connections: CONNECTIONS, duration: BENCH_SECONDS, requests: [request] }, serverPid);
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    cpuMicrosPerRequest: cpuMsPerRequest === null ? null : cpuMsPerRequest * 1000,
  };
}

const JSON_HEADERS = { 'content-type': 'application/json' };

async function measure(label: string, env: Record<string, string>, pin: boolean): Promise<Record<string, TRun>> {
  const { child, info } = await startServer<TServerInfo>(import.meta.filename, env, pin);
  try {
    const base = `http://127.0.0.1:${info.port}`;
    const cookies = await makeVisitors(base, info.projectId);
    let n = 0;
    const visitorHeaders = (k: number, json: boolean) => ({ ...(json ? JSON_HEADERS : {}), cookie: cookies[k % VISITORS]! });

    process.stdout.write(`\n[${label}] ${BENCH_SECONDS} s per run, ${CONNECTIONS} connections, ${VISITORS} visitors, ${FILES} files\n`);
    const runs: Record<string, TRun> = {};
    const pid = child.pid;
    runs['bare GET'] = await load(`http://127.0.0.1:${info.barePort}/bare`, { method: 'GET' }, pid);
    runs['bare POST (JSON)'] = await load(
      `http://127.0.0.1:${info.barePort}/bare`,
      {
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify({ projectId: info.projectId, fileId: info.fileIds[0] }),
      },
      pid,
    );
    const cases: Array<[string, string, autocannon.Request]> = [
      [
        'POST/DELETE /api/favorites',
        `${base}/api/favorites`,
        {
          setupRequest: (req) => {
            const k = n++;
            // Each visitor toggles each file: add, then remove, across 200 files.
            const visitor = Math.floor(k / 2) % VISITORS;
            const file = info.fileIds[Math.floor(k / (2 * VISITORS)) % FILES]!;
            return {
              ...req,
              method: k % 2 === 0 ? 'POST' : 'DELETE',
              headers: visitorHeaders(visitor, true),
              body: JSON.stringify({ projectId: info.projectId, fileId: file, userEmail: 'session_x', userName: 'User' }),
            };
          },
        },
      ],
      [
        'GET /api/comments (30)',
        `${base}/api/comments?projectId=${info.projectId}&fileId=${info.fileIds[0]}`,
        { setupRequest: (req) => ({ ...req, method: 'GET', headers: visitorHeaders(n++, false) }) },
      ],
      [
        'POST /api/analytics/view',
        `${base}/api/analytics/view`,
        {
          setupRequest: (req) => {
            const k = n++;
            return {
              ...req,
              method: 'POST',
              headers: visitorHeaders(k, true),
              body: JSON.stringify({ projectId: info.projectId, fileId: info.fileIds[Math.floor(k / VISITORS) % FILES] }),
            };
          },
        },
      ],
    ];
    for (const [name, url, request] of cases) if (isPicked(name)) runs[name] = await load(url, request, pid);
    return runs;
  } finally {
    await stopServer(child);
  }
}

function report(label: string, runs: Record<string, TRun>, withTargets: boolean): boolean {
  const bareGet = runs['bare GET']!.rps;
  const barePost = runs['bare POST (JSON)']!.rps;
  const targets: Record<string, { minRps: number; bare: number }> = {
    'POST/DELETE /api/favorites': { minRps: 2000, bare: barePost },
    'GET /api/comments (30)': { minRps: 5000, bare: bareGet },
    'POST /api/analytics/view': { minRps: 2000, bare: barePost },
  };
  let isPass = true;
  const rows: Array<[string, string]> = [];
  for (const [name, run] of Object.entries(runs)) {
    let verdict = '';
    const target = targets[name];
    if (target) {
      const share = run.rps / target.bare;
      const ok = run.rps >= target.minRps && run.p99 < 25 && share >= 0.3 && run.non2xx === 0 && run.errors === 0;
      const yardstick = `bare ${name.startsWith('GET') ? 'GET' : 'POST'} ${Math.round(target.bare)} req/s`;
      if (withTargets) {
        verdict = `  ${(share * 100).toFixed(0)} % of bare; target >= ${target.minRps} req/s, p99 < 25 ms, >= 30 %: ${judge({
          name: `${name}, SQLite`,
          measured: `${Math.round(run.rps)} req/s, p99 ${run.p99} ms, ${(share * 100).toFixed(0)} % of bare`,
          target: `>= ${target.minRps} req/s, p99 < 25 ms, >= 30 % of bare`,
          yardstick,
          pass: ok,
        })}`;
        isPass &&= ok;
      } else if (name === 'POST/DELETE /api/favorites') {
        // PostgreSQL's target is a share of the bare handler (issue 28: the median of three runs of this script).
        const pass = share >= 0.25 && run.non2xx === 0 && run.errors === 0;
        verdict = `  ${(share * 100).toFixed(0)} % of bare; target >= 25 %: ${judge({ name: `${name}, PostgreSQL (one run of three)`, measured: `${(share * 100).toFixed(0)} % of bare`, target: 'at least 25 % of bare', yardstick, pass })}`;
      } else {
        verdict = `  ${(share * 100).toFixed(0)} % of bare`;
      }
    }
    const problems = run.non2xx || run.errors ? `  (${run.non2xx} non-2xx, ${run.errors} errors)` : '';
    const cpu =
      run.cpuMicrosPerRequest === null
        ? ''
        : `   CPU ${Math.round(run.cpuMicrosPerRequest).toString().padStart(4)} µs/req (${Math.round(1e6 / run.cpuMicrosPerRequest).toLocaleString('en-US')}/s per core)`;
    rows.push([name, `${Math.round(run.rps).toLocaleString('en-US').padStart(7)} req/s   p99 ${String(run.p99).padStart(3)} ms${cpu}${problems}${verdict}`]);
  }
  rows.push(['rate limits', `raised to ${Number(RAISED_LIMIT).toLocaleString('en-US')}/min for this run (RATE_LIMIT_READS/WRITES/SITE_WRITES_PER_MINUTE)`]);
  printFigures(label, rows);
  return isPass;
}

async function main(): Promise<void> {
  const pin = placeLoadGenerator('Engagement benchmark');

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-bench-engagement-'));
  let isPass = true;
  try {
    if (DIALECTS.includes('sqlite')) {
      const sqlite = await measure('SQLite (embedded defaults)', { DATA_DIR: dataDir, ...RAISED_LIMITS }, pin);
      isPass = report('Engagement on SQLite (embedded defaults)', sqlite, true);
    }

    const postgres = DIALECTS.includes('postgres') ? await postgresRun(dataDir) : null;
    if (postgres) {
      const runs = await measure(`PostgreSQL (schema ${postgres.schema})`, { ...postgres.env, ...RAISED_LIMITS }, pin);
      report(`Engagement on PostgreSQL (${postgres.url})`, runs, false);
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  if (DIALECTS.includes('sqlite')) process.stdout.write(`\nSQLite targets: ${isPass ? 'PASS' : 'MISS'}\n`);
}

if (process.argv.includes('--serve')) await serve();
else await main();
