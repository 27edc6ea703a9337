/**
 * npm run stack: the distributed shape of Dropsite on this machine, every part a real process
 * talking over loopback: nginx (Debian's) as the edge, two API processes behind it, two builder
 * processes on BullMQ and Redis, PostgreSQL, and an S3-compatible store (s3rver here; MinIO in
 * docker-compose.yml). The edge's server block is deploy/edge.conf, the one compose mounts; only its
 * upstreams, cache folders (bundles, public pages) and port are written here (compose has deploy/edge-upstreams.conf).
 * The machine's PostgreSQL and Redis are used when they answer and started when they do not.
 * Prints the URL; Ctrl-C (or SIGTERM) stops everything it started.
 *
 * Options: --port 8080 (the edge), --fresh (drop the stack's schema, queue and objects first),
 * --demo (build the demo sites too). State lives in .stack/ (git-ignored).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { API_ENV, API_NODE_FLAGS } from '@dropsite/control-api/api-launch';
import { startS3rver, type TS3rver } from '@dropsite/testkit/control-api/s3rver';
import { isPostgresUp, isRedisUp } from '@dropsite/testkit/control-api/services';

const ROOT = path.resolve(import.meta.dirname, '../..');
const NGINX = process.env.NGINX_BIN ?? '/usr/sbin/nginx';

export interface TStackOptions {
  /** The edge's port (0: any free one). */
  port: number;
  /** Where the stack keeps its state (s3rver's objects, nginx's files, the cookie key). */
  dir: string;
  /** PostgreSQL server to use (a schema of its own is made in it). */
  postgresUrl: string;
  /** Redis server to use (a database number of its own). */
  redisUrl: string;
  /** The PostgreSQL schema and the queue (Redis keys) of this stack. */
  name: string;
  fresh: boolean;
  demo: boolean;
  /** Extra environment for the API and builder processes (e.g. a test's short dedupe window). */
  env?: Record<string, string>;
  /** An S3-compatible store already running (bucket `dropsite`, keys S3RVER/S3RVER) to use instead of starting s3rver in `dir`. */
  storeEndpoint?: string;
  log?: (line: string) => void;
}

export interface TStack {
  /** The edge's URL: what visitors and creators use. */
  url: string;
  /** The API processes' own URLs (behind the edge; for tests that count what reaches them). */
  apiUrls: string[];
  /** The private ops listeners (/healthz, /readyz, /metrics): the two APIs', then the two builders'. */
  opsUrls: string[];
  /** Every process of the stack by role, for tests that signal them. */
  processes: ReadonlyArray<{ role: string; child: ChildProcess; output(): string }>;
  /** Starts the process of this role ('api-1', 'builder-2'…) again, as it was started, once it has exited; resolves when it is ready. */
  restart(role: string): Promise<void>;
  /** Environment the API and builders run with (e.g. for an ops command against this stack). */
  env: Record<string, string>;
  stop(): Promise<void>;
  /** Stops it, then removes what it kept: its schema, its queue's keys and its state folder (tests, benchmarks). */
  discard(): Promise<void>;
}

/** A loopback port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}

async function waitUntil(what: string, check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not come up within ${ms / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** PostgreSQL as the machine runs it (Debian's cluster), started when it does not answer. */
async function ensurePostgres(url: string, log: (line: string) => void): Promise<void> {
  if (await isPostgresUp(url)) return;
  const version = existsSync('/etc/postgresql') ? readdirSync('/etc/postgresql').sort().at(-1) : undefined;
  if (!version) throw new Error(`PostgreSQL does not answer at ${url}, and no Debian cluster is installed to start`);
  log(`Starting PostgreSQL ${version}…`);
  spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], { stdio: 'inherit' });
  await waitUntil('PostgreSQL', () => isPostgresUp(url), 30_000);
}

/** Redis, started (keeping nothing on disk, as the machine's) when it does not answer. Answers whether it was started here. */
async function ensureRedis(url: string, log: (line: string) => void): Promise<boolean> {
  if (await isRedisUp(url)) return false;
  const { port } = new URL(url);
  log('Starting Redis…');
  const started = spawnSync('redis-server', ['--daemonize', 'yes', '--bind', '127.0.0.1', '--port', port || '6379', '--save', '', '--appendonly', 'no'], {
    stdio: 'inherit',
  });
  if (started.status !== 0) throw new Error(`Redis does not answer at ${url}, and redis-server could not be started`);
  await waitUntil('Redis', () => isRedisUp(url), 15_000);
  return true;
}

/** The PostgreSQL schema of a stack by its name. */
const schemaOf = (name: string) => name.replace(/[^a-z0-9_]/g, '_');

/** Removes a stack's schema and its queue's keys in Redis. */
export async function dropStackData(options: Pick<TStackOptions, 'postgresUrl' | 'redisUrl' | 'name'>): Promise<void> {
  const client = new pg.Client({ connectionString: options.postgresUrl });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schemaOf(options.name)}" cascade`);
  } finally {
    await client.end();
  }
  const redis = new Redis(options.redisUrl);
  try {
    // BullMQ's keys are `{prefix}:{queue}:…`, the prefix being the build queue's (control-api/src/queue/bullmq-queue.ts).
    const keys = await redis.keys(`dropsite:${options.name}:*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

/** The edge's configuration: deploy/edge.conf (the server block compose mounts) with this stack's port, upstreams and folders. */
export function writeNginxConfig(dir: string, port: number, apiPorts: number[], storeEndpoint: string): string {
  const nginxDir = path.join(dir, 'nginx');
  for (const sub of ['', 'cache', 'cache-pages', 'temp', 'logs']) mkdirSync(path.join(nginxDir, sub), { recursive: true });
  const edge = readFileSync(path.join(ROOT, 'deploy/edge.conf'), 'utf8');
  if (!/^\s*listen 80;$/m.test(edge)) throw new Error('deploy/edge.conf has no "listen 80;" line to point at the stack\'s port');
  writeFileSync(path.join(nginxDir, 'edge.conf'), edge.replace(/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${port};`));
  const store = new URL(storeEndpoint);
  writeFileSync(
    path.join(nginxDir, 'edge-upstreams.conf'),
    [
      '# Written by npm run stack (scripts/src/stack.ts); compose has deploy/edge-upstreams.conf.',
      `upstream dropsite_api { ${apiPorts.map((p) => `server 127.0.0.1:${p};`).join(' ')} keepalive 32; }`,
      `upstream dropsite_store { server ${store.host}; keepalive 16; }`,
      `map $host $dropsite_store_host { default ${store.host}; }`,
      `proxy_cache_path ${path.join(nginxDir, 'cache')} levels=1:2 keys_zone=assets:10m max_size=1g inactive=30d;`,
      `proxy_cache_path ${path.join(nginxDir, 'cache-pages')} levels=1:2 keys_zone=pages:10m max_size=256m inactive=10m;`,
      '',
    ].join('\n'),
  );
  const temp = path.join(nginxDir, 'temp');
  const conf = path.join(nginxDir, 'nginx.conf');
  writeFileSync(
    conf,
    [
      'daemon off;',
      // Started by root, nginx would run its workers as nobody, who cannot reach a private state folder.
      ...(process.getuid?.() === 0 ? ['user root root;'] : []),
      'worker_processes auto;',
      `pid ${path.join(nginxDir, 'nginx.pid')};`,
      `error_log ${path.join(nginxDir, 'logs', 'error.log')} warn;`,
      'events { worker_connections 1024; }',
      'http {',
      // Each line names the upstream that answered (an API process, the store, or none): what bench/site-views.ts counts.
      `  log_format edge '$remote_addr "$request" $status $body_bytes_sent upstream=$upstream_addr cache=$upstream_cache_status';`,
      // Written in blocks (at most a second late) rather than one write per request.
      `  access_log ${path.join(nginxDir, 'logs', 'access.log')} edge buffer=64k flush=1s;`,
      `  client_body_temp_path ${temp}/body; proxy_temp_path ${temp}/proxy; fastcgi_temp_path ${temp}/fastcgi; uwsgi_temp_path ${temp}/uwsgi; scgi_temp_path ${temp}/scgi;`,
      '  sendfile on; tcp_nopush on; keepalive_timeout 65; keepalive_requests 10000;',
      `  include ${path.join(nginxDir, 'edge-upstreams.conf')};`,
      `  include ${path.join(nginxDir, 'edge.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
  return conf;
}

export async function startStack(options: TStackOptions): Promise<TStack> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  if (!existsSync(NGINX)) throw new Error(`nginx is not installed (${NGINX}): apt-get install -y nginx`);
  mkdirSync(options.dir, { recursive: true });
  const started: Array<{ role: string; child: ChildProcess; output(): string }> = [];
  let s3: TS3rver | undefined;
  let startedRedis = false;
  const stop = async () => {
    // The edge first (no new requests), then the APIs and builders (they finish what they hold), then the store.
    const order = ['edge', 'api', 'builder'];
    for (const role of order) {
      const group = started.filter((p) => p.role.startsWith(role) && p.child.exitCode === null && p.child.signalCode === null);
      const exits = group.map((p) => new Promise((resolve) => p.child.once('exit', resolve)));
      for (const p of group) p.child.kill(role === 'edge' ? 'SIGQUIT' : 'SIGTERM');
      const timer = setTimeout(() => {
        for (const p of group) p.child.kill('SIGKILL');
      }, 15_000);
      await Promise.all(exits);
      clearTimeout(timer);
    }
    await s3?.close();
    if (startedRedis) spawnSync('redis-cli', ['-u', options.redisUrl, 'shutdown', 'nosave'], { stdio: 'ignore' });
  };

  try {
    await ensurePostgres(options.postgresUrl, log);
    startedRedis = await ensureRedis(options.redisUrl, log);
    const schema = schemaOf(options.name);
    const s3Dir = path.join(options.dir, 's3');
    if (options.fresh) {
      await dropStackData(options);
      rmSync(s3Dir, { recursive: true, force: true });
    }
    let store: { endpoint: string };
    if (options.storeEndpoint === undefined) {
      mkdirSync(s3Dir, { recursive: true });
      const started = await startS3rver(s3Dir);
      s3 = started.server;
      store = started;
    } else store = { endpoint: options.storeEndpoint };

    const secretFile = path.join(options.dir, 'session-secret');
    if (!existsSync(secretFile)) writeFileSync(secretFile, randomBytes(48).toString('base64url'), { mode: 0o600 });
    const port = options.port || (await freePort());
    const url = `http://localhost:${port}`;
    const env: Record<string, string> = {
      ...API_ENV,
      NODE_ENV: 'production',
      PUBLIC_URL: url,
      SESSION_SECRET: readFileSync(secretFile, 'utf8').trim(),
      DATA_DIR: path.join(options.dir, 'data'),
      DATABASE_URL: `${options.postgresUrl}${options.postgresUrl.includes('?') ? '&' : '?'}schema=${schema}`,
      REDIS_URL: options.redisUrl,
      BUILD_QUEUE_NAME: options.name,
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: store.endpoint,
      // The bucket deploy/edge.conf reads template assets from (the stack's store is its own).
      S3_BUCKET: 'dropsite',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      DEMO_SITES: options.demo ? 'true' : 'false',
      // deploy/edge.conf keeps a public page 1 s: access changes wait that long before they answer.
      EDGE_CACHE_SECONDS: '1',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      ...options.env,
    };

    const launches = new Map<string, { script: string; extra: Record<string, string>; readyText: string }>();
    const launch = (role: string, script: string, extra: Record<string, string>): { child: ChildProcess; output(): string } => {
      launches.set(role, { script, extra, readyText: script.endsWith('main.ts') ? 'Dropsite is running at' : 'builder started' });
      const args = script.endsWith('main.ts') ? [...API_NODE_FLAGS, script] : [script];
      const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      const keep = (data: Buffer) => {
        out += data.toString();
        if (out.length > 200_000) out = out.slice(-100_000);
      };
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      const entry = { role, child, output: () => out };
      // A restarted process takes its role's place in the list.
      const previous = started.findIndex((p) => p.role === role);
      if (previous === -1) started.push(entry);
      else started[previous] = entry;
      return entry;
    };
    const waitFor = async (entry: { child: ChildProcess; output(): string }, text: string, what: string) => {
      await waitUntil(
        what,
        async () => {
          if (entry.child.exitCode !== null) throw new Error(`${what} exited (${entry.child.exitCode}):\n${entry.output().slice(-4000)}`);
          return entry.output().includes(text);
        },
        90_000,
      );
    };

    /**
     * Launches `role` on ports picked just before it starts, and on new ones if another process took
     * one first (a port found free can be taken before the child binds it); answers the ports it got.
     */
    const launchOnFreePorts = async (role: string, script: string, count: number, extraFor: (ports: number[]) => Record<string, string>, what: string) => {
      for (let attempt = 1; ; attempt++) {
        const ports: number[] = [];
        for (let i = 0; i < count; i++) ports.push(await freePort());
        const entry = launch(role, script, extraFor(ports));
        try {
          await waitFor(entry, launches.get(role)?.readyText ?? '', what);
          return ports;
        } catch (error) {
          if (attempt < 3 && entry.output().includes('EADDRINUSE')) continue;
          throw error;
        }
      }
    };

    // The first API migrates the schema before the second starts (the migrator's lock would make it wait anyway).
    // Each process's /healthz, /readyz and /metrics on a private port of its own (OPS_PORT).
    const apiPorts: number[] = [];
    const opsPorts = { apis: [] as number[], builders: [] as number[] };
    for (const i of [1, 2]) {
      const [apiPort, opsPort] = await launchOnFreePorts(
        `api-${i}`,
        'control-api/src/main.ts',
        2,
        ([api, ops]) => ({ PORT: String(api), HOST: '127.0.0.1', RUN_BUILDER: 'false', TRUST_PROXY: '1', OPS_PORT: String(ops) }),
        `API ${i}`,
      );
      apiPorts.push(apiPort!);
      opsPorts.apis.push(opsPort!);
    }
    // Their readiness line is logged at info, whatever the stack's level.
    for (const i of [1, 2]) {
      const [opsPort] = await launchOnFreePorts(`builder-${i}`, 'scripts/src/builder.ts', 1, ([ops]) => ({ LOG_LEVEL: 'info', OPS_PORT: String(ops) }), `builder ${i}`);
      opsPorts.builders.push(opsPort!);
    }

    const conf = writeNginxConfig(options.dir, port, apiPorts, store.endpoint);
    const test = spawnSync(NGINX, ['-t', '-c', conf, '-p', path.join(options.dir, 'nginx')], { encoding: 'utf8' });
    if (test.status !== 0) throw new Error(`nginx refused the edge configuration:\n${test.stderr}`);
    const nginx = spawn(NGINX, ['-c', conf, '-p', path.join(options.dir, 'nginx')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let nginxOut = '';
    nginx.stdout?.on('data', (d: Buffer) => (nginxOut += d.toString()));
    nginx.stderr?.on('data', (d: Buffer) => (nginxOut += d.toString()));
    started.push({ role: 'edge', child: nginx, output: () => nginxOut });
    await waitUntil(
      'the edge',
      async () => {
        if (nginx.exitCode !== null) throw new Error(`nginx exited (${nginx.exitCode}):\n${nginxOut}`);
        return fetch(`${url}/api/health`).then(
          (res) => res.ok,
          () => false,
        );
      },
      30_000,
    );
    const discard = async () => {
      await stop();
      await dropStackData(options);
      rmSync(options.dir, { recursive: true, force: true });
    };
    const restart = async (role: string) => {
      const how = launches.get(role);
      const current = started.find((p) => p.role === role);
      if (!how || !current) throw new Error(`The stack has no process ${role}`);
      if (current.child.exitCode === null && current.child.signalCode === null) throw new Error(`${role} is still running`);
      await waitFor(launch(role, how.script, how.extra), how.readyText, role);
    };
    const opsUrls = [...opsPorts.apis, ...opsPorts.builders].map((p) => `http://127.0.0.1:${p}`);
    return { url, apiUrls: apiPorts.map((p) => `http://127.0.0.1:${p}`), opsUrls, processes: started, env, restart, stop, discard };
  } catch (error) {
    await stop();
    throw error;
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: process.env.STACK_PORT ?? '8080' },
      fresh: { type: 'boolean', default: false },
      demo: { type: 'boolean', default: false },
    },
  });
  const stack = await startStack({
    port: Number(values.port),
    dir: path.join(ROOT, '.stack'),
    postgresUrl: process.env.STACK_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    redisUrl: process.env.STACK_REDIS_URL ?? 'redis://127.0.0.1:6379',
    name: 'dropsite-stack',
    fresh: values.fresh,
    demo: values.demo,
  });
  process.stdout.write(
    `\nDropsite (distributed) is running at ${stack.url}\n  edge: nginx → 2 API processes (${stack.apiUrls.join(', ')}), 2 builders on BullMQ/Redis, PostgreSQL, S3 (s3rver)\n  metrics and readiness: ${stack.opsUrls.map((u) => `${u}/metrics`).join(', ')} (APIs, then builders)\n  Ctrl-C stops everything.\n`,
  );
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('\nStopping the stack…\n');
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}
