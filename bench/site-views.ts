/**
 * Views of published sites, in one run, on the same two sites: a 30-image gallery and a 9-file mixed
 * site, published with the same files everywhere. autocannon, 10 connections, `Accept-Encoding: gzip, br`:
 * (a) nginx serving the stored page bytes straight from the data folder (the variant the client
 *     accepts, picked by a map): the yardstick;
 * (b) the edge of `npm run stack` (nginx, two API processes, two builders, PostgreSQL, Redis, s3rver);
 *     the API requests it caused are counted from the edge's access log (its upstream address);
 * (c) the API alone on the embedded defaults (SQLite, disk), in its own process;
 * (d) the same API answering 304s (If-None-Match with the page's ETag).
 * Prints requests/s, p99, bytes per response and each as a ratio of (a).
 * Targets (issue 14): (b) at least 0.9 of (a) with zero API requests; (c) at least 5 times, (d) at least
 * 10 times the per-request-gzip rate measured before pages were precompressed (441 requests/s, same page size).
 *
 * Usage: node bench/site-views.ts [--seconds 8] [--skip-stack]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { API_ENV, API_NODE_FLAGS } from '@dropsite/control-api/api-launch';
import { freePort, startStack } from '@dropsite/tools/stack';
import { dropResponseBodies } from './load-harness.ts';
import { printFigures } from './lib.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const NGINX = process.env.NGINX_BIN ?? '/usr/sbin/nginx';
const BEFORE_PRECOMPRESSION_RPS = 441;
const { values: args } = parseArgs({ options: { seconds: { type: 'string', default: '8' }, 'skip-stack': { type: 'boolean', default: false } } });
const SECONDS = Number(args.seconds);
const ACCEPT = { 'accept-encoding': 'gzip, br' };

interface TSiteInput {
  label: string;
  title: string;
  files: Array<{ name: string; type: string; bytes: Buffer }>;
}

async function makeSites(): Promise<TSiteInput[]> {
  const photo = (i: number) =>
    sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: (i * 37) % 255, g: (i * 71) % 255, b: (i * 113) % 255 } } })
      .jpeg({ quality: 80 })
      .toBuffer();
  const gallery = await Promise.all(
    Array.from({ length: 30 }, async (_, i) => ({ name: `frame-${String(i + 1).padStart(2, '0')}.jpg`, type: 'image/jpeg', bytes: await photo(i) })),
  );
  const text = (s: string) => Buffer.from(s);
  const mixed = [
    ...(await Promise.all(Array.from({ length: 5 }, async (_, i) => ({ name: `board-${i + 1}.jpg`, type: 'image/jpeg', bytes: await photo(100 + i) })))),
    { name: 'brief.txt', type: 'text/plain', bytes: text('Brief: spring campaign, three looks, outdoor light.\n'.repeat(40)) },
    { name: 'notes.md', type: 'text/markdown', bytes: text('# Notes\n\n- Looks\n- Light\n- Locations\n'.repeat(30)) },
    { name: 'shot-list.csv', type: 'text/csv', bytes: text(`look,location,time\n${Array.from({ length: 60 }, (_, i) => `look ${i},park,${8 + (i % 10)}:00`).join('\n')}\n`) },
    {
      name: 'palette.json',
      type: 'application/json',
      bytes: text(JSON.stringify({ colours: Array.from({ length: 40 }, (_, i) => `#${(i * 123457).toString(16).slice(0, 6).padStart(6, '0')}`) })),
    },
  ];
  return [
    { label: '30-image gallery', title: 'Spring Lookbook', files: gallery },
    { label: '9-file mixed site', title: 'Campaign Board', files: mixed },
  ];
}

/** Publishes through POST /api/upload and waits until the site is live; answers its slug. */
async function publish(base: string, site: TSiteInput): Promise<string> {
  const form = new FormData();
  form.append('title', site.title);
  for (const file of site.files) form.append('files', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const res = await fetch(`${base}/api/upload`, { method: 'POST', body: form });
  const body = (await res.json()) as { slug?: string };
  if (res.status !== 201 || !body.slug) throw new Error(`publish answered ${res.status}: ${JSON.stringify(body)}`);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const status = (await (await fetch(`${base}/api/sites/${body.slug}/status`)).json()) as { status: string };
    if (status.status === 'live') return body.slug;
    if (status.status === 'failed' || Date.now() > deadline) throw new Error(`site ${body.slug} is ${status.status}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

interface TRun {
  rps: number;
  p99: number;
  bytesPerResponse: number;
  non2xx: number;
}

/** One run; response bodies are dropped (dropResponseBodies: their decoding would bound the load generator). */
async function load(url: string, headers: Record<string, string>, expectStatus: number): Promise<TRun> {
  const result = await autocannon({ url, connections: 10, duration: SECONDS, headers, setupClient: dropResponseBodies });
  const total = result.requests.total;
  const expected = expectStatus === 304 ? (result['3xx'] ?? 0) : result['2xx'];
  return { rps: result.requests.average, p99: result.latency.p99, bytesPerResponse: total > 0 ? result.throughput.total / total : 0, non2xx: total - expected };
}

function startApi(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...API_NODE_FLAGS, path.join(ROOT, 'control-api/src/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...API_ENV,
      NODE_ENV: 'production',
      SESSION_SECRET: 'bench-only-session-secret-0123456789abcdef',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      DEMO_SITES: 'false',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('running at')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`API exited (${code}) before it listened:\n${out}`)));
  });
}

/** nginx serving the stored pages from the data folder, the variant by Accept-Encoding: the yardstick. */
async function startDirectNginx(storageRoot: string, dir: string, port: number): Promise<ChildProcess> {
  await mkdir(path.join(dir, 'logs'), { recursive: true });
  const conf = path.join(dir, 'nginx.conf');
  await writeFile(
    conf,
    [
      'daemon off;',
      ...(process.getuid?.() === 0 ? ['user root root;'] : []),
      'worker_processes auto;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/logs/error.log warn;`,
      'events { worker_connections 1024; }',
      'http {',
      '  access_log off; sendfile on; tcp_nopush on; keepalive_timeout 65; keepalive_requests 100000;',
      `  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;`,
      '  map $http_accept_encoding $variant { default ""; "~*\\bbr\\b" ".br"; "~*\\bgzip\\b" ".gz"; }',
      '  map $variant $coding { default ""; ".br" "br"; ".gz" "gzip"; }',
      '  types { text/html html; }',
      '  server {',
      `    listen 127.0.0.1:${port};`,
      `    root ${storageRoot};`,
      '    location ~ "^/(?<slug>[a-z0-9]+)$" {',
      '      default_type text/html;',
      '      add_header Content-Encoding $coding;',
      '      add_header Vary Accept-Encoding;',
      '      try_files /sites/$slug/index.html$variant =404;',
      '    }',
      '  }',
      '}',
      '',
    ].join('\n'),
  );
  const test = spawnSync(NGINX, ['-t', '-c', conf, '-p', dir], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx refused the yardstick's configuration:\n${test.stderr}`);
  const child = spawn(NGINX, ['-c', conf, '-p', dir], { stdio: 'ignore' });
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if ((await fetch(`http://127.0.0.1:${port}/none`).catch(() => null)) !== null) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('nginx (yardstick) did not start');
}

async function stop(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

const sites = await makeSites();
const work = await mkdtemp(path.join(os.tmpdir(), 'dropsite-bench-views-'));
const dataDir = path.join(work, 'data');
let api: ChildProcess | undefined;
let direct: ChildProcess | undefined;
const rows: Array<[string, string]> = [];
try {
  const apiPort = await freePort();
  api = await startApi(dataDir, apiPort);
  const apiBase = `http://127.0.0.1:${apiPort}`;
  const slugs = [];
  for (const site of sites) slugs.push(await publish(apiBase, site));
  const directPort = await freePort();
  direct = await startDirectNginx(path.join(dataDir, 'storage'), path.join(work, 'nginx'), directPort);

  const results: Array<{ label: string; a: TRun; b?: TRun & { apiRequests: number }; c: TRun; d: TRun }> = [];
  for (const [i, site] of sites.entries()) {
    const slug = slugs[i]!;
    const a = await load(`http://127.0.0.1:${directPort}/${slug}`, ACCEPT, 200);
    const c = await load(`${apiBase}/${slug}`, ACCEPT, 200);
    const etag = (await fetch(`${apiBase}/${slug}`, { headers: ACCEPT })).headers.get('etag');
    if (!etag) throw new Error('the API sent the page without an ETag');
    const d = await load(`${apiBase}/${slug}`, { ...ACCEPT, 'if-none-match': etag }, 304);
    results.push({ label: site.label, a, c, d });
  }
  await stop(api);
  api = undefined;

  if (!args['skip-stack']) {
    const stackDir = path.join(work, 'stack');
    const stack = await startStack({
      port: 0,
      dir: stackDir,
      postgresUrl: process.env.STACK_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
      redisUrl: process.env.STACK_REDIS_URL ?? 'redis://127.0.0.1:6379',
      name: `bench_views_${process.pid}`,
      fresh: true,
      demo: false,
      env: { LOG_LEVEL: 'warn' },
      log: () => {},
    });
    try {
      for (const [i, site] of sites.entries()) {
        const slug = await publish(stack.url, site);
        // Warm: the first view may fill the edge's cache.
        await fetch(`${stack.url}/${slug}`, { headers: ACCEPT });
        const logFile = path.join(stackDir, 'nginx', 'logs', 'access.log');
        // The edge writes its log at least once a second: what came before the run is in it after 1.2 s.
        await new Promise((resolve) => setTimeout(resolve, 1200));
        const before = readFileSync(logFile, 'utf8').length;
        const b = await load(`${stack.url}/${slug}`, ACCEPT, 200);
        // Lines of this run whose request went to an API process (the store's upstream is s3rver's port).
        const apiPorts = new Set(stack.apiUrls.map((u) => new URL(u).port));
        await new Promise((resolve) => setTimeout(resolve, 1200));
        const lines = readFileSync(logFile, 'utf8').slice(before).split('\n');
        const apiRequests = lines.filter((line) => [...line.matchAll(/127\.0\.0\.1:(\d+)/g)].some((m) => apiPorts.has(m[1]!))).length;
        results[i]!.b = { ...b, apiRequests };
      }
    } finally {
      await stack.discard();
    }
  }

  const fmt = (run: TRun, a: TRun) =>
    `${Math.round(run.rps).toLocaleString('en')} req/s, p99 ${run.p99} ms, ${(run.bytesPerResponse / 1024).toFixed(1)} KB/resp, ${(run.rps / a.rps).toFixed(2)} of (a)${run.non2xx ? `, ${run.non2xx} unexpected` : ''}`;
  let pass = true;
  for (const r of results) {
    rows.push([`${r.label}: (a) nginx, stored bytes`, fmt(r.a, r.a)]);
    if (r.b) {
      const ok = r.b.rps >= 0.9 * r.a.rps && r.b.apiRequests === 0;
      pass &&= ok;
      rows.push([`  (b) edge of npm run stack`, `${fmt(r.b, r.a)}, ${r.b.apiRequests} API requests (target ≥ 0.9 of (a), 0 API): ${ok ? 'PASS' : 'MISS'}`]);
    }
    const cOk = r.c.rps >= 5 * BEFORE_PRECOMPRESSION_RPS;
    const dOk = r.d.rps >= 10 * BEFORE_PRECOMPRESSION_RPS;
    pass &&= cOk && dOk;
    rows.push([`  (c) API alone, embedded`, `${fmt(r.c, r.a)} (target ≥ ${5 * BEFORE_PRECOMPRESSION_RPS}): ${cOk ? 'PASS' : 'MISS'}`]);
    rows.push([`  (d) API, 304s`, `${fmt(r.d, r.a)} (target ≥ ${10 * BEFORE_PRECOMPRESSION_RPS}): ${dOk ? 'PASS' : 'MISS'}`]);
  }
  rows.push(['load average (1 min) at the end', os.loadavg()[0]!.toFixed(1)]);
  rows.push(['result', pass ? 'PASS' : 'MISS']);
  printFigures(`Site views, ${SECONDS} s per run, 10 connections, Accept-Encoding: gzip, br`, rows);
} finally {
  await stop(api);
  await stop(direct, 'SIGQUIT');
  await rm(work, { recursive: true, force: true });
}
