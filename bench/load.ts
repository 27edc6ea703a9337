/**
 * npm run load: a mixed workload in rising steps, then a soak, against Dropsite as it runs.
 *
 * The target is the embedded defaults (`control-api/src/main.ts` as `npm start` runs it: SQLite, disk,
 * the in-process queue and builder) or, with `--stack`, the distributed deployment of `npm run stack`
 * through its nginx edge. Creators on the Pro trial publish LOAD_SITES sites of four pictures with
 * every engagement feature on (a few creators, each under the hourly publish limit); then visitors, each request from one of 50,000 addresses and one of 400
 * visitors, open pages, thumbnails and previews, send view beacons, favourite, comment and approve,
 * while anonymous creators publish a small site every two seconds.
 *
 * Each step starts requests at one steady rate (open loop, bench/paced-load.ts) for LOAD_STEP_SECONDS and prints p50/p99,
 * errors, RSS and event-loop delay (read from the process's own /metrics), and the CPU a request costs
 * each process (the API; on the stack the edge, each API and builder, PostgreSQL, Redis, and s3rver with
 * the load generator, which run in this process); the knee is the highest
 * rate held with p99 under 100 ms and no error. The soak holds 70 % of the knee for LOAD_SOAK_MINUTES
 * and ends with the invariants checked: no duplicate approval, every acknowledged comment stored, the
 * analytics rollups equal to their events, no open upload session or temporary bytes left, and memory
 * flat within 10 %.
 *
 *   npm run load [-- --stack] [--steps 500,1000,1500] [--step-seconds 20] [--soak-minutes 10]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { z } from 'zod';
import { createDatabase } from '@dropsite/control-api';
import { ZCreatorProjectsResponseSchema, ZProjectDetailsResponseSchema } from '@dropsite/shared';
import { API_ENV, API_NODE_FLAGS } from '@dropsite/control-api/api-launch';
import { startTestStack } from '@dropsite/tools/stack-test-support';
import { freePort } from '@dropsite/tools/stack';
import { signUpThroughOutbox } from '@dropsite/tools/sign-up-link';
import { cpuMsOf, placeLoadGenerator } from './load-harness.ts';
import { runPaced, type TPacedRequest } from './paced-load.ts';
import { judge } from './verdicts.ts';

const USAGE = `Usage: npm run load [-- options]

  --stack               load the distributed deployment (npm run stack) through its edge
                        instead of the embedded defaults
  --steps <list>        request rates of the rising steps (default 500,1000,1500,2000,2500,3000)
  --step-seconds <n>    seconds per step (default 20)
  --warmup-seconds <n>  seconds of the first step's rate before the steps, not counted (default 15):
                        the 256 connections opened, the code compiled, the caches filled
  --soak-minutes <n>    minutes of the soak at 70 % of the knee (default 10; 0 skips it)
  --soak-rate <n>       the soak's request rate instead of 70 % of the knee
  -h, --help            this text
`;

const ZArgs = z.object({
  stack: z.boolean(),
  steps: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'a comma-separated list of request rates')
    .transform((s) => s.split(',').map(Number)),
  stepSeconds: z.coerce.number().int().min(3).max(600),
  warmupSeconds: z.coerce.number().int().min(0).max(600),
  soakMinutes: z.coerce.number().min(0).max(240),
  soakRate: z.coerce.number().int().min(1).optional(),
});

function readArgs(): z.infer<typeof ZArgs> {
  try {
    const { values } = parseArgs({
      options: {
        stack: { type: 'boolean', default: false },
        steps: { type: 'string', default: process.env.LOAD_STEPS ?? '500,1000,1500,2000,2500,3000' },
        'step-seconds': { type: 'string', default: process.env.LOAD_STEP_SECONDS ?? '20' },
        'warmup-seconds': { type: 'string', default: process.env.LOAD_WARMUP_SECONDS ?? '15' },
        'soak-minutes': { type: 'string', default: process.env.LOAD_SOAK_MINUTES ?? '10' },
        'soak-rate': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (values.help) {
      process.stdout.write(USAGE);
      process.exit(0);
    }
    return ZArgs.parse({
      stack: values.stack,
      steps: values.steps,
      stepSeconds: values['step-seconds'],
      warmupSeconds: values['warmup-seconds'],
      soakMinutes: values['soak-minutes'],
      soakRate: values['soak-rate'],
    });
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    process.exit(2);
  }
}

const SITES = Number(process.env.LOAD_SITES ?? 60);
const FILES_PER_SITE = 4;
const VISITORS = 400;
const ADDRESSES = 50_000;
/** Keep-alive connections the visitors' requests share at most (a request waits for a free one, and that wait counts). */
const CONNECTIONS = 256;
const P99_TARGET_MS = 100;
/** A small publish every this many ms while the load runs (LOAD_PUBLISH_SECONDS, default 2; 0: none). */
const UPLOAD_EVERY_MS = Number(process.env.LOAD_PUBLISH_SECONDS ?? 2) * 1000;

interface TTarget {
  label: string;
  /** The API process, when there is one (the embedded defaults), for its CPU time. */
  pid: number | undefined;
  /** The processes whose CPU each step splits its requests' cost by (the stack's edge, APIs, builders). */
  processes: Array<{ role: string; pid: number }>;
  /** What runs in this process besides the load generator (the stack's s3rver), for the CPU split. */
  alsoHere: string;
  url: string;
  /** Where each process's /metrics answers (one for the embedded defaults; the APIs and builders of a stack). */
  opsUrls: string[];
  databaseUrl: string;
  /** The disk store's folder, when the store is a disk (its temporary folder is checked at the end). */
  storageDir: string | null;
  /** Where the API processes write their mail (no SMTP_URL): a creator's sign-up link is read there. */
  outboxDir: string;
  /** Loopback addresses the visitors' connections come from (the stack's edge keys visitors by theirs). */
  localAddresses?: string[];
  /** Stops the target; writes batched in memory are flushed first (SIGTERM). */
  stop(): Promise<void>;
  dispose(): Promise<void>;
}

async function startEmbedded(pin: boolean): Promise<TTarget> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-load-'));
  const [port, opsPort] = [await freePort(), await freePort()];
  const url = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    ...API_ENV,
    NODE_ENV: 'production',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    OPS_PORT: String(opsPort),
    LOG_LEVEL: 'warn',
    DEMO_SITES: 'false',
    // The load's visitors come from many addresses, as through a proxy in front.
    TRUST_PROXY: '1',
  };
  const main = path.resolve(import.meta.dirname, '../control-api/src/main.ts');
  // LOAD_API_FLAGS: more Node flags for the API (`--cpu-prof --cpu-prof-dir=/tmp/prof`, `--trace-gc`).
  const args = [...API_NODE_FLAGS, ...(process.env.LOAD_API_FLAGS?.split(' ').filter(Boolean) ?? []), main];
  const child: ChildProcess = pin
    ? spawn('taskset', ['-c', '0', process.execPath, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] })
    : spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  // LOAD_API_LOG: the API's output goes on to this file (with LOAD_API_FLAGS='--trace-gc', say).
  if (process.env.LOAD_API_LOG) child.stdout!.pipe(createWriteStream(process.env.LOAD_API_LOG));
  else child.stdout!.resume();
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const listening = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (!out.includes('Dropsite is running at')) return;
      child.stdout!.off('data', listening);
      resolve();
    };
    child.stdout!.on('data', listening);
    child.once('exit', (code) => reject(new Error(`the API exited (${code}) before it listened:\n${out}`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    pid: child.pid,
    processes: child.pid === undefined ? [] : [{ role: 'api', pid: child.pid }],
    alsoHere: '',
    label: `embedded defaults (one process: SQLite, disk, in-process builder${pin ? '; pinned to CPU 0, the load on CPU 1' : ''})`,
    url,
    opsUrls: [`http://127.0.0.1:${opsPort}`],
    databaseUrl: `sqlite:${path.join(dataDir, 'dropsite.db')}`,
    outboxDir: path.join(dataDir, 'outbox'),
    storageDir: path.join(dataDir, 'storage'),
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
    async dispose() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Through the edge a visitor is its TCP address (nginx replaces X-Forwarded-For): the visitors'
 * connections each come from their own loopback address, under the per-address request limits as
 * shipped. The seeding's 60 publishes and sign-ups, and the anonymous publish every two seconds, all
 * come from this one machine's address: the hourly publish and sign-up limits per address, and the
 * free trials one address may start, are raised for them (they are counted apart from the mix).
 */
const STACK_LIMITS = { PUBLISH_LIMIT_PER_HOUR: '100000', ACCOUNT_EMAILS_PER_ADDRESS_PER_HOUR: '10000', TRIALS_PER_ADDRESS: '1000' };

async function startStackTarget(): Promise<TTarget> {
  const stack = await startTestStack('load', STACK_LIMITS);
  const schema = new URL(stack.env.DATABASE_URL ?? '').searchParams.get('schema');
  return {
    pid: undefined,
    processes: stack.processes.flatMap((p) => (p.child.pid === undefined ? [] : [{ role: p.role, pid: p.child.pid }])),
    alsoHere: 's3rver',
    label: 'npm run stack (nginx edge, 2 APIs, 2 builders, PostgreSQL, Redis, S3)',
    url: stack.url,
    opsUrls: stack.opsUrls,
    databaseUrl: stack.env.DATABASE_URL ?? '',
    outboxDir: path.join(stack.env.DATA_DIR ?? '', 'outbox'),
    storageDir: null,
    localAddresses: Array.from({ length: CONNECTIONS }, (_, i) => `127.1.${i >> 7}.${(i & 127) + 1}`),
    async stop() {
      await stack.stop();
    },
    async dispose() {
      await stack.discard();
      if (schema === null) throw new Error('the stack has no schema');
    },
  };
}

// ---- seeding: a Pro creator's sites, and visitors

interface TSite {
  projectId: string;
  slug: string;
  fileIds: string[];
}

const SETTINGS = JSON.stringify({ enableFavorites: true, enableComments: true, enableApprovals: true, enableAnalytics: true, enableDownloads: true });

function randomAddress(): string {
  const n = Math.floor(Math.random() * ADDRESSES);
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

async function photo(seed: number, width = 1600, height = 1067): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: (seed * 53) % 256, g: (seed * 97) % 256, b: (seed * 29) % 256 } } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** A publish; `cookie` is a signed-in creator's, or '' for an anonymous creator (a new one each time). */
async function publish(url: string, cookie: string, title: string, pictures: Buffer[]): Promise<{ status: number; slug?: string }> {
  const form = new FormData();
  form.append('title', title);
  form.append('description', 'Selects for review');
  form.append('settings', SETTINGS);
  for (const [i, bytes] of pictures.entries()) form.append('files', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), `frame-${i + 1}.jpg`);
  const headers: Record<string, string> = { 'x-forwarded-for': randomAddress(), ...(cookie ? { cookie } : {}) };
  const res = await fetch(`${url}/api/upload`, { method: 'POST', body: form, headers });
  const body = (await res.json()) as { slug?: string };
  return { status: res.status, ...(body.slug ? { slug: body.slug } : {}) };
}

async function whenLive(url: string, slugs: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const waiting = new Set(slugs);
  while (waiting.size > 0) {
    if (Date.now() > deadline) throw new Error(`${waiting.size} site(s) not live after ${timeoutMs / 1000} s`);
    for (const slug of [...waiting]) {
      const res = await fetch(`${url}/api/sites/${slug}/status`);
      const { status } = (await res.json()) as { status?: string };
      if (status === 'live') waiting.delete(slug);
      else if (status === 'failed') throw new Error(`the build of ${slug} failed`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A creator on the Pro trial (comments and approvals are Pro features): the session cookie. */
async function signUpCreator(url: string, outboxDir: string, n: number): Promise<string> {
  const account = { email: `load-${Date.now()}-${n}@example.com`, password: 'a long enough secret', name: `Studio ${n}` };
  // The sign-up, then the link it mails (read from the outbox), as its owner would.
  // Each creator from an address of its own, the trial included: one free trial per network.
  const address = { 'x-forwarded-for': randomAddress() };
  const cookie = await signUpThroughOutbox(url, outboxDir, account, address);
  const trial = await fetch(`${url}/api/billing/trial`, { method: 'POST', headers: { cookie, ...address } });
  if (trial.status >= 300) throw new Error(`the trial was refused (${trial.status}): ${await trial.text()}`);
  return cookie;
}

/** Sites a creator publishes in the seeding, under the hourly publish limit of an account (10 by default). */
const SITES_PER_CREATOR = 8;

async function seed(url: string, outboxDir: string): Promise<{ sites: TSite[]; visitors: string[] }> {
  const pictures = await Promise.all(Array.from({ length: FILES_PER_SITE * 3 }, (_, i) => photo(i)));
  const creators: string[] = [];
  const slugs: string[] = [];
  for (let i = 0; i < SITES; i++) {
    if (i % SITES_PER_CREATOR === 0) creators.push(await signUpCreator(url, outboxDir, creators.length + 1));
    const mine = Array.from({ length: FILES_PER_SITE }, (_, k) => pictures[(i + k) % pictures.length]!);
    const { status, slug } = await publish(url, creators.at(-1)!, `Load site ${i + 1}`, mine);
    if (status !== 201 || !slug) throw new Error(`publishing site ${i + 1} answered ${status}`);
    slugs.push(slug);
  }
  await whenLive(url, slugs, 300_000);
  const sites: TSite[] = [];
  for (const cookie of creators) {
    const projects = ZCreatorProjectsResponseSchema.parse(await (await fetch(`${url}/api/creators/me/projects`, { headers: { cookie } })).json()).projects;
    for (const p of projects) {
      const details = ZProjectDetailsResponseSchema.parse(await (await fetch(`${url}/api/projects/${p.id}/details`, { headers: { cookie } })).json());
      sites.push({ projectId: p.id, slug: p.slug, fileIds: details.project.files.map((f) => f.id) });
    }
  }
  const visitors: string[] = [];
  for (let i = 0; i < VISITORS; i++) {
    const site = sites[i % sites.length]!;
    const res = await fetch(`${url}/api/engagement/state?projectId=${site.projectId}`, { headers: { 'x-forwarded-for': randomAddress() } });
    await res.arrayBuffer();
    const visitor = res.headers.getSetCookie().find((c) => c.startsWith('dropsite_vid='));
    if (!visitor) throw new Error(`no visitor cookie (status ${res.status})`);
    visitors.push(visitor.split(';')[0]!);
  }
  return { sites, visitors };
}

// ---- the workload

type TOp = 'page' | 'thumbnail' | 'preview' | 'beacon' | 'favorite' | 'comment' | 'approval' | 'state';
/** Share of each kind of request, out of 100: what a gallery's visitors do, reads first. */
const MIX: Array<[TOp, number]> = [
  ['page', 24],
  ['thumbnail', 30],
  ['preview', 10],
  ['beacon', 12],
  ['state', 6],
  ['favorite', 8],
  ['comment', 4],
  ['approval', 6],
];
/** LOAD_MIX (e.g. `thumbnail:50,page:50`) replaces the mix, to load some kinds of request alone. */
const ZMix = z
  .string()
  .regex(/^(page|thumbnail|preview|beacon|state|favorite|comment|approval):\d+(,(page|thumbnail|preview|beacon|state|favorite|comment|approval):\d+)*$/)
  .transform((text) =>
    text
      .split(',')
      .map((pair) => pair.split(':') as [TOp, string])
      .map(([op, share]): [TOp, number] => [op, Number(share)]),
  );
if (process.env.LOAD_MIX) MIX.splice(0, MIX.length, ...ZMix.parse(process.env.LOAD_MIX));
const OPS: TOp[] = MIX.flatMap(([op, share]) => Array.from({ length: share }, () => op));
const EXPECTED: Record<TOp, number> = { page: 200, thumbnail: 200, preview: 200, beacon: 200, state: 200, favorite: 200, comment: 201, approval: 200 };

interface TTally {
  byOp: Map<TOp, { ok: number; failed: Map<number, number> }>;
  commentsAcknowledged: number;
}

function newTally(): TTally {
  return { byOp: new Map(MIX.map(([op]) => [op, { ok: 0, failed: new Map() }])), commentsAcknowledged: 0 };
}

/** The mix as a stream of requests: each one a kind drawn by its share, on a random site, file, visitor and address. */
interface TMixedLoad {
  next(): { request: TPacedRequest; tag: TOp };
  onAnswer(op: TOp, status: number): boolean;
}

function mixedRequests(sites: TSite[], visitors: string[], tally: TTally): TMixedLoad {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
  const build = (op: TOp): TPacedRequest => {
    const site = pick(sites);
    const fileId = pick(site.fileIds);
    const headers: Record<string, string> = { 'x-forwarded-for': randomAddress() };
    const json = (path: string, body: object): TPacedRequest => ({
      method: 'POST',
      path,
      headers: { ...headers, 'content-type': 'application/json', cookie: pick(visitors) },
      body: JSON.stringify(body),
    });
    switch (op) {
      case 'page':
        return { method: 'GET', path: `/${site.slug}`, headers: { ...headers, 'accept-encoding': 'br, gzip' } };
      case 'thumbnail':
        return { method: 'GET', path: `/api/files/${fileId}?mode=preview&size=300`, headers };
      case 'preview':
        return { method: 'GET', path: `/api/files/${fileId}?mode=preview`, headers };
      case 'state':
        return { method: 'GET', path: `/api/engagement/state?projectId=${site.projectId}`, headers: { ...headers, cookie: pick(visitors) } };
      case 'beacon':
        // A page's own view, or a file opened in the viewer.
        return json('/api/analytics/view', Math.random() < 0.5 ? { projectId: site.projectId } : { projectId: site.projectId, fileId });
      case 'favorite':
        return json('/api/favorites', { projectId: site.projectId, fileId });
      case 'comment':
        return json('/api/comments', { projectId: site.projectId, fileId, commentText: `Love the light in this one (${Math.random().toString(36).slice(2, 8)})` });
      case 'approval':
        return json('/api/approvals', { projectId: site.projectId, fileId, status: pick(['approved', 'rejected', 'pending'] as const) });
    }
  };
  return {
    next() {
      const op = pick(OPS);
      return { request: build(op), tag: op };
    },
    onAnswer(op, status) {
      const entry = tally.byOp.get(op)!;
      if (status === EXPECTED[op]) {
        entry.ok++;
        if (op === 'comment') tally.commentsAcknowledged++;
        return true;
      }
      entry.failed.set(status, (entry.failed.get(status) ?? 0) + 1);
      return false;
    },
  };
}

/** Anonymous creators publishing a small site every two seconds while the load runs (counted apart from the mix). */
function startUploads(url: string, pictures: Buffer[]): { stop(): Promise<{ ok: number; failed: number; slowestMs: number }> } {
  let stopped = false;
  let ok = 0;
  let failed = 0;
  let slowestMs = 0;
  let n = 0;
  const loop = (async () => {
    while (!stopped && UPLOAD_EVERY_MS > 0) {
      const started = performance.now();
      const { status } = await publish(url, '', `Upload during load ${++n}`, pictures).catch(() => ({ status: 0 }));
      slowestMs = Math.max(slowestMs, performance.now() - started);
      if (status === 201) ok++;
      else failed++;
      await new Promise((resolve) => setTimeout(resolve, UPLOAD_EVERY_MS));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { ok, failed, slowestMs };
    },
  };
}

// ---- what the processes say of themselves

interface TProcessFigures {
  rssBytes: number;
  eventLoopP99Ms: number;
  /** The longest the event loop was held up since the last scrape. */
  eventLoopMaxMs: number;
}

/** RSS summed over the target's processes, and the worst event-loop p99 since the last scrape (prom-client resets it per scrape). */
async function scrape(opsUrls: string[]): Promise<TProcessFigures> {
  let rssBytes = 0;
  let eventLoopP99Ms = 0;
  let eventLoopMaxMs = 0;
  for (const ops of opsUrls) {
    const text = await (await fetch(`${ops}/metrics`)).text();
    const value = (name: string) => Number(new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
    rssBytes += value('process_resident_memory_bytes');
    eventLoopP99Ms = Math.max(eventLoopP99Ms, value('nodejs_eventloop_lag_p99_seconds') * 1000);
    eventLoopMaxMs = Math.max(eventLoopMaxMs, value('nodejs_eventloop_lag_max_seconds') * 1000);
  }
  return { rssBytes, eventLoopP99Ms, eventLoopMaxMs };
}

interface TStep {
  rate: number;
  /** CPU time the API process spent per request (its threads included), when /proc tells: steady whatever else the machine does. */
  cpuMicrosPerRequest: number | null;
  /** CPU time this process (the load generator) spent per request: what the machine's cores lend to the visitors rather than to Dropsite. */
  generatorMicrosPerRequest: number;
  achieved: number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
  process: TProcessFigures;
  failures: string;
  /** CPU µs a request of each process (with its child processes: nginx's workers), and of PostgreSQL and Redis. */
  cpuByRole: Array<[string, number]>;
}

/**
 * CPU ms used so far by each process and its descendants (nginx's workers under its master), and by
 * every PostgreSQL and Redis server process on the machine (they are not ours: another program's
 * queries would count too, so this is read on a quiet machine).
 */
function cpuMsByRole(processes: ReadonlyArray<{ role: string; pid: number }>): Map<string, number> {
  const byRole = new Map<string, number>();
  if (processes.length === 0) return byRole;
  const all: Array<{ pid: number; ppid: number; name: string; ms: number }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      all.push({ pid: Number(entry), ppid: Number(fields[1]), name, ms: (Number(fields[11]) + Number(fields[12])) * 10 });
    } catch {
      // The process ended while the list was read.
    }
  }
  const children = new Map<number, number[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const msOf = new Map(all.map((p) => [p.pid, p.ms]));
  const treeMs = (pid: number): number => (msOf.get(pid) ?? 0) + (children.get(pid) ?? []).reduce((sum, child) => sum + treeMs(child), 0);
  for (const { role, pid } of processes) byRole.set(role, treeMs(pid));
  byRole.set(
    'postgres',
    all.filter((p) => p.name === 'postgres').reduce((sum, p) => sum + p.ms, 0),
  );
  byRole.set(
    'redis',
    all.filter((p) => p.name.startsWith('redis-server')).reduce((sum, p) => sum + p.ms, 0),
  );
  return byRole;
}

async function runStep(target: TTarget, load: TMixedLoad, rate: number, seconds: number, tally: TTally): Promise<TStep> {
  await scrape(target.opsUrls); // resets the event-loop histogram: what follows is this step's
  const before = new Map([...tally.byOp].map(([op, t]) => [op, [...t.failed.values()].reduce((a, b) => a + b, 0)]));
  const cpuBefore = cpuMsOf(target.pid);
  const rolesBefore = cpuMsByRole(target.processes);
  const generatorBefore = process.cpuUsage();
  const result = await runPaced({
    url: target.url,
    rate,
    seconds,
    maxConnections: CONNECTIONS,
    next: load.next,
    onAnswer: load.onAnswer,
    ...(target.localAddresses ? { localAddresses: target.localAddresses } : {}),
    timeline: process.env.LOAD_TIMELINE === '1',
  });
  const cpuAfter = cpuMsOf(target.pid);
  const rolesAfter = cpuMsByRole(target.processes);
  const generator = process.cpuUsage(generatorBefore);
  const figures = await scrape(target.opsUrls);
  const failures: string[] = [];
  for (const [op, t] of tally.byOp) {
    const failedNow = [...t.failed.values()].reduce((a, b) => a + b, 0) - before.get(op)!;
    if (failedNow > 0) failures.push(`${op}: ${failedNow} (${[...t.failed].map(([status, count]) => `${status || 'no answer'}×${count}`).join(' ')})`);
  }
  if (result.unanswered.size > 0) failures.push(`no answer because: ${[...result.unanswered].map(([why, count]) => `${why}×${count}`).join(' ')}`);
  const cpuMicrosPerRequest = cpuBefore !== null && cpuAfter !== null && result.requests > 0 ? ((cpuAfter - cpuBefore) * 1000) / result.requests : null;
  const cpuByRole = [...rolesAfter].map(([role, ms]): [string, number] => [role, result.requests > 0 ? ((ms - (rolesBefore.get(role) ?? 0)) * 1000) / result.requests : 0]);
  return {
    cpuMicrosPerRequest,
    cpuByRole,
    generatorMicrosPerRequest: result.requests > 0 ? (generator.user + generator.system) / result.requests : 0,
    rate,
    achieved: result.achieved,
    p50: result.p50,
    p99: result.p99,
    errors: result.errors,
    requests: result.requests,
    process: figures,
    failures: failures.join('; '),
  };
}

function printSteps(steps: TStep[], alsoHere: string): void {
  const rows = steps.map((s) => [
    String(s.rate),
    s.achieved.toFixed(0),
    `${s.p50.toFixed(1)}`,
    `${s.p99.toFixed(1)}`,
    String(s.errors),
    (s.process.rssBytes / 1024 ** 2).toFixed(0),
    s.process.eventLoopP99Ms.toFixed(1),
    s.process.eventLoopMaxMs.toFixed(0),
    s.cpuMicrosPerRequest === null ? '-' : s.cpuMicrosPerRequest.toFixed(0),
    s.generatorMicrosPerRequest.toFixed(0),
  ]);
  const head = ['target req/s', 'achieved', 'p50 ms', 'p99 ms', 'errors', 'RSS MB', 'event loop p99 ms', 'max', 'API CPU µs/req', 'load CPU µs/req'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padStart(widths[i]!)).join(' | ')} |`;
  process.stdout.write(`\n${line(head)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n${rows.map(line).join('\n')}\n`);
  for (const s of steps) if (s.failures) process.stdout.write(`  ${s.rate} req/s failures: ${s.failures}\n`);
  for (const s of steps) {
    if (s.cpuByRole.length === 0) continue;
    const total = s.cpuByRole.reduce((sum, [, micros]) => sum + micros, 0) + s.generatorMicrosPerRequest;
    process.stdout.write(
      `  ${s.rate} req/s, CPU µs a request by process: ${s.cpuByRole.map(([role, micros]) => `${role} ${micros.toFixed(0)}`).join(', ')}, load generator${alsoHere ? ` and ${alsoHere}` : ''} ${s.generatorMicrosPerRequest.toFixed(0)}; ${total.toFixed(0)} in all\n`,
    );
  }
}

const held = (s: TStep) => s.errors === 0 && s.p99 < P99_TARGET_MS && s.achieved >= s.rate * 0.97;

// ---- the soak's invariants

interface TInvariant {
  name: string;
  ok: boolean;
  detail: string;
}

async function checkInvariants(target: TTarget, tally: TTally, rss: { startBytes: number; endBytes: number }): Promise<TInvariant[]> {
  const database = await createDatabase(target.databaseUrl);
  const { db } = database;
  try {
    const results: TInvariant[] = [];
    const duplicateApprovals = await db
      .selectFrom('approvals')
      .select(['file_id', 'visitor_id', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(['file_id', 'visitor_id'])
      .having((eb) => eb.fn.countAll(), '>', 1)
      .execute();
    results.push({ name: 'no duplicate approvals', ok: duplicateApprovals.length === 0, detail: `${duplicateApprovals.length} (file, visitor) pair(s) with more than one` });

    const comments = Number(
      (
        await db
          .selectFrom('comments')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    // A comment whose answer never came (a connection cut) may or may not have been stored; none
    // acknowledged may be missing, and none stored that was never sent.
    const unanswered = tally.byOp.get('comment')?.failed.get(0) ?? 0;
    results.push({
      name: 'every acknowledged comment stored',
      ok: comments >= tally.commentsAcknowledged && comments <= tally.commentsAcknowledged + unanswered,
      detail: `${comments} rows, ${tally.commentsAcknowledged} acknowledged${unanswered > 0 ? `, ${unanswered} sent without an answer` : ''}`,
    });

    // The rollups (analytics/analytics.repository.ts): a site's scope ('') counts its page views (a view
    // without a file) and every download; a file's scope (its id) that file's views and downloads. The
    // totals must equal the events they were made from, and the daily rows must add up to the totals.
    const events = await db
      .selectFrom('analytics_events')
      .select(['project_id', 'file_id', 'type', (eb) => eb.fn.countAll<number>().as('n')])
      .where('type', 'in', ['view', 'download'])
      .groupBy(['project_id', 'file_id', 'type'])
      .execute();
    const expected = new Map<string, { views: number; downloads: number }>();
    const bump = (key: string, views: number, downloads: number) => {
      const c = expected.get(key) ?? { views: 0, downloads: 0 };
      c.views += views;
      c.downloads += downloads;
      expected.set(key, c);
    };
    for (const e of events) {
      const n = Number(e.n);
      const isView = e.type === 'view' ? n : 0;
      const isDownload = e.type === 'download' ? n : 0;
      bump(`${e.project_id}\u0000`, e.file_id === null ? isView : 0, isDownload);
      if (e.file_id !== null) bump(`${e.project_id}\u0000${e.file_id}`, isView, isDownload);
    }
    const totals = await db.selectFrom('analytics_totals').select(['project_id', 'scope', 'views', 'downloads']).execute();
    const daily = await db
      .selectFrom('analytics_daily')
      .select(['project_id', 'scope', (eb) => eb.fn.sum<number>('views').as('views'), (eb) => eb.fn.sum<number>('downloads').as('downloads')])
      .groupBy(['project_id', 'scope'])
      .execute();
    const dailyBy = new Map(daily.map((d) => [`${d.project_id}\u0000${d.scope}`, { views: Number(d.views), downloads: Number(d.downloads) }]));
    const totalsBy = new Map(totals.map((t) => [`${t.project_id}\u0000${t.scope}`, { views: Number(t.views), downloads: Number(t.downloads) }]));
    let mismatched = 0;
    let views = 0;
    for (const key of new Set([...expected.keys(), ...totalsBy.keys(), ...dailyBy.keys()])) {
      const e = expected.get(key) ?? { views: 0, downloads: 0 };
      const t = totalsBy.get(key) ?? { views: 0, downloads: 0 };
      const d = dailyBy.get(key) ?? { views: 0, downloads: 0 };
      views += t.views;
      if (e.views !== t.views || e.downloads !== t.downloads || d.views !== t.views || d.downloads !== t.downloads) mismatched++;
    }
    results.push({
      name: 'counters equal to their rows',
      ok: mismatched === 0 && views > 0,
      detail: `${totalsBy.size} site and file rollups, ${views} views in their totals; ${mismatched} whose totals, daily rows and events differ`,
    });

    const openSessions = Number(
      (
        await db
          .selectFrom('upload_sessions')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', 'in', ['open', 'completing'])
          .executeTakeFirstOrThrow()
      ).n,
    );
    const tmpDir = target.storageDir ? path.join(target.storageDir, '.tmp') : null;
    const tmpFiles = tmpDir && existsSync(tmpDir) ? readdirSync(tmpDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length : 0;
    results.push({
      name: 'no orphaned temporary bytes',
      ok: openSessions === 0 && tmpFiles === 0,
      detail: `${openSessions} open upload session(s), ${tmpFiles} temporary file(s)${tmpDir ? '' : ' (S3: none kept on disk)'}`,
    });

    const drift = (rss.endBytes - rss.startBytes) / rss.startBytes;
    results.push({
      name: 'memory flat within 10 %',
      ok: Math.abs(drift) < 0.1,
      detail: `RSS ${(rss.startBytes / 1024 ** 2).toFixed(0)} MB after the first minute, ${(rss.endBytes / 1024 ** 2).toFixed(0)} MB at the end (${(drift * 100).toFixed(1)} %)`,
    });
    return results;
  } finally {
    await database.close();
  }
}

// ---- main

const args = readArgs();
const pin = !args.stack && placeLoadGenerator('Mixed load');
const target = args.stack ? await startStackTarget() : await startEmbedded(pin);
// An error thrown outside the run below (in a timer, a socket's callback) still stops what was started:
// a stack left running would load every later run.
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.once(event, (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    void target.dispose().finally(() => process.exit(1));
  });
}
let exitCode = 0;
try {
  process.stdout.write(`Target: ${target.label}\nSeeding ${SITES} sites of ${FILES_PER_SITE} pictures and ${VISITORS} visitors…\n`);
  const { sites, visitors } = await seed(target.url, target.outboxDir);
  const tally = newTally();
  const load = mixedRequests(sites, visitors, tally);
  const uploadPictures = [await photo(7, 1200, 800)];
  process.stdout.write(
    `Mix: ${MIX.map(([op, share]) => `${op} ${share} %`).join(', ')}; ${UPLOAD_EVERY_MS > 0 ? `plus one small publish every ${UPLOAD_EVERY_MS / 1000} s` : 'no publishes'}; requests start at an even pace, on up to ${CONNECTIONS} keep-alive connections; ${args.stepSeconds} s a step.\n`,
  );

  // Rising steps, after a warm-up at the first step's rate that is not counted.
  const steps: TStep[] = [];
  const uploads = startUploads(target.url, uploadPictures);
  if (args.warmupSeconds > 0) {
    const warmup = await runStep(target, load, args.steps[0]!, args.warmupSeconds, tally);
    process.stdout.write(`  warm-up at ${warmup.rate} req/s for ${args.warmupSeconds} s (not counted): p99 ${warmup.p99.toFixed(1)} ms\n`);
  }
  for (const rate of args.steps) {
    const step = await runStep(target, load, rate, args.stepSeconds, tally);
    steps.push(step);
    process.stdout.write(`  ${rate} req/s: achieved ${step.achieved.toFixed(0)}, p99 ${step.p99.toFixed(1)} ms, ${step.errors} error(s)\n`);
    // Two steps past what held: the knee is behind us.
    if (steps.length >= 2 && !held(step) && !held(steps.at(-2)!)) break;
  }
  const stepUploads = await uploads.stop();
  printSteps(steps, target.alsoHere);
  const knee = steps.filter(held).at(-1);
  process.stdout.write(
    `\nPublishes during the steps: ${stepUploads.ok} answered 201, ${stepUploads.failed} failed, slowest ${stepUploads.slowestMs.toFixed(0)} ms.\n` +
      `Knee: ${knee ? `${knee.rate} req/s (p99 ${knee.p99.toFixed(1)} ms, no error)` : 'none: not even the first step held'}; target: 1,500 req/s with p99 under ${P99_TARGET_MS} ms and no error — ${judge(
        {
          name: `knee of the mixed load, ${args.stack ? 'stack' : 'embedded'}`,
          measured: knee ? `${knee.rate} req/s` : 'none',
          target: `at least 1,500 req/s, p99 < ${P99_TARGET_MS} ms, no error`,
          pass: knee !== undefined && knee.rate >= 1500,
        },
      )}.\n`,
  );
  if (!knee || knee.rate < 1500) exitCode = 1;

  // The soak at 70 % of the knee.
  const soakRate = args.soakRate ?? (knee ? Math.round(knee.rate * 0.7) : undefined);
  if (soakRate !== undefined && args.soakMinutes > 0) {
    const rate = soakRate;
    const minutes = args.soakMinutes;
    process.stdout.write(`\nSoak: ${rate} req/s (${args.soakRate === undefined ? '70 % of the knee' : 'as asked'}) for ${minutes} min…\n`);
    const soakUploads = startUploads(target.url, uploadPictures);
    const periodSeconds = 30;
    const periods: TStep[] = [];
    for (let elapsed = 0; elapsed < minutes * 60; elapsed += periodSeconds) {
      const period = await runStep(target, load, rate, Math.min(periodSeconds, minutes * 60 - elapsed), tally);
      periods.push(period);
      process.stdout.write(
        `  ${((elapsed + periodSeconds) / 60).toFixed(1)} min: p99 ${period.p99.toFixed(1)} ms, ${period.errors} error(s), RSS ${(period.process.rssBytes / 1024 ** 2).toFixed(0)} MB, event loop p99 ${period.process.eventLoopP99Ms.toFixed(1)} ms${period.failures ? ` (${period.failures})` : ''}\n`,
      );
    }
    const soakPublishes = await soakUploads.stop();
    const warm = periods.slice(0, Math.max(1, Math.round(60 / periodSeconds)));
    const last = periods.slice(-Math.max(1, Math.round(60 / periodSeconds)));
    const mean = (xs: TStep[]) => xs.reduce((sum, s) => sum + s.process.rssBytes, 0) / xs.length;
    const errors = periods.reduce((sum, p) => sum + p.errors, 0);
    const p99 = Math.max(...periods.map((p) => p.p99));
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // the last builds of the publishes
    await target.stop(); // flushes the batched view events
    const invariants = await checkInvariants(target, tally, { startBytes: mean(warm), endBytes: mean(last) });
    invariants.unshift({
      name: 'no error during the soak',
      ok: errors === 0 && soakPublishes.failed === 0,
      detail: `${errors} error(s) in ${periods.reduce((s, p) => s + p.requests, 0)} requests; worst p99 of a 30 s period ${p99.toFixed(1)} ms; publishes ${soakPublishes.ok} ok, ${soakPublishes.failed} failed`,
    });
    process.stdout.write('\nInvariants after the soak:\n');
    for (const inv of invariants) process.stdout.write(`  ${inv.ok ? 'PASS' : 'FAIL'}  ${inv.name}: ${inv.detail}\n`);
    if (invariants.some((i) => !i.ok)) exitCode = 1;
  }
} catch (error) {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  exitCode = 1;
} finally {
  await target.dispose();
}
process.exit(exitCode);
