/**
 * The harness the load benchmarks share: the API (with its bare yardstick) in a child process started
 * as npm start runs it, optionally pinned to one CPU so the load generator has the other, its READY
 * line, its shutdown on SIGTERM, and the CPU it spent as /proc counts it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import autocannon from 'autocannon';
import path from 'node:path';
import { createRuntime, loadConfig, type TRuntime } from '@dropsite/control-api';
import { API_ENV, API_NODE_FLAGS } from '@dropsite/control-api/api-launch';

export const BENCH_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const BENCH_PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * The child's side: a production runtime without the builder, on the database the environment names,
 * and a loopback server for its app. The port is taken first, so the app's own address is its public
 * URL from the start; production needs a session secret, a throwaway one for the run.
 */
export async function startBenchRuntime(): Promise<{ server: http.Server; port: number; base: string; runtime: TRuntime }> {
  process.env.NODE_ENV = 'production';
  const server = http.createServer();
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    ...process.env,
    PORT: '0',
    PUBLIC_URL: base,
    LOG_LEVEL: 'warn',
    RUN_BUILDER: 'false',
  });
  // As the API process runs (control-api/src/main.ts).
  const runtime = await createRuntime(config, { runBuilder: false, checkpointInBackground: true });
  return { server, port, base, runtime };
}

/** Whether the API can be pinned to CPU 0 (taskset present, two CPUs or more, BENCH_PIN not 0). */
function hasTaskset(): boolean {
  if (process.env.BENCH_PIN === '0' || os.cpus().length < 2) return false;
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The parent's side: when the API can have CPU 0, this process (the load generator) takes CPU 1, so
 * neither steals the other's time. Prints what runs where and how busy the machine was (other work
 * skews req/s and p99, not CPU per request); answers whether the API is to be pinned.
 */
export function placeLoadGenerator(title: string): boolean {
  const pin = hasTaskset();
  if (pin) execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
  process.stdout.write(`${title}: API in a child process${pin ? ' on CPU 0, autocannon on CPU 1' : ''}.\n`);
  process.stdout.write(
    `Load average before the run: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} on ${os.cpus().length} CPUs.\n`,
  );
  return pin;
}

/** Whether something listens where the PostgreSQL URL points (the API process then reports a real connection error if it is not PostgreSQL). */
export async function isPostgresReachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname || '127.0.0.1', port: Number(port || 5432), timeout: 1000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * The child's side, once the runtime is seeded and its app listens: starts the bare yardstick (a
 * handler measured in the same run), tells the parent it is ready with `info` and the yardstick's
 * port, and on SIGTERM closes both servers and their connections, drops the run's PostgreSQL schema
 * (BENCH_DROP_SCHEMA), closes the runtime and exits.
 */
export async function serveUnderLoad(server: http.Server, runtime: TRuntime, bare: http.RequestListener, info: object): Promise<void> {
  const bareServer = http.createServer(bare).listen(0, '127.0.0.1');
  await new Promise((resolve) => bareServer.once('listening', resolve));
  const barePort = (bareServer.address() as AddressInfo).port;
  process.stdout.write(`READY ${JSON.stringify({ ...info, barePort })}\n`);

  const schema = process.env.BENCH_DROP_SCHEMA;
  const servers = [server, bareServer];
  process.once('SIGTERM', () => {
    for (const s of servers) s.close();
    for (const s of servers) s.closeAllConnections();
    void (async () => {
      if (schema) await runtime.deps.db.schema.dropSchema(schema).ifExists().cascade().execute();
      await runtime.close();
      process.exit(0);
    })();
  });
}

/**
 * The parent's side: a run on a throw-away PostgreSQL schema at BENCH_PG_URL (its URL, and the API
 * process's environment, which drops the schema when it stops), or null, said on stdout, when
 * nothing listens there.
 */
export async function postgresRun(dataDir: string): Promise<{ schema: string; url: string; env: Record<string, string> } | null> {
  if (!(await isPostgresReachable(BENCH_PG_URL))) {
    process.stdout.write(`\nPostgreSQL at ${BENCH_PG_URL} is not reachable: skipped.\n`);
    return null;
  }
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const url = `${BENCH_PG_URL}?schema=${schema}`;
  return { schema, url, env: { DATA_DIR: path.join(dataDir, 'pg'), DATABASE_URL: url, BENCH_DROP_SCHEMA: schema } };
}

/** Runs autocannon against the API process `pid`, with the CPU that process spent per answered request (ms, from /proc; null where /proc does not tell). */
export async function autocannonWithCpu(options: autocannon.Options, pid: number | undefined): Promise<{ result: autocannon.Result; cpuMsPerRequest: number | null }> {
  const cpuBefore = cpuMsOf(pid);
  const result = await autocannon(options);
  const cpuAfter = cpuMsOf(pid);
  const total = result['2xx'] + result.non2xx;
  return { result, cpuMsPerRequest: cpuBefore !== null && cpuAfter !== null && total > 0 ? (cpuAfter - cpuBefore) / total : null };
}

/** Starts `script --serve` as the API process and answers once it printed its READY line. */
export async function startServer<TInfo>(script: string, env: Record<string, string>, pin: boolean): Promise<{ child: ChildProcess; info: TInfo }> {
  const command = pin ? 'taskset' : process.execPath;
  // The API's own flags and environment (control-api/api-launch.mjs), as npm start runs it.
  const args = pin ? ['-c', '0', process.execPath, ...API_NODE_FLAGS, script, '--serve'] : [...API_NODE_FLAGS, script, '--serve'];
  const child = spawn(command, args, { env: { ...process.env, ...API_ENV, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await new Promise<TInfo>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const line = out.split('\n').find((l) => l.startsWith('READY '));
      if (line) resolve(JSON.parse(line.slice(6)) as TInfo);
    });
    child.once('exit', (code) => reject(new Error(`API process exited (${code}) before it was ready`)));
  });
  return { child, info };
}

export async function stopServer(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** CPU time of a process in milliseconds from /proc (Linux, 100 ticks a second), or null elsewhere. */
export function cpuMsOf(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * autocannon appends every response body to a string (`req.body += chunk`), decoding it as UTF-8:
 * with compressed pages (binary, 24 KB) that decoding was a third of the load generator's CPU and
 * capped every variant near 2,000 requests/s on this machine. The bodies are not needed (bytes are
 * counted from the socket), so each client drops them.
 */
export const dropResponseBodies = (client: unknown): void => {
  (client as { pipelinedRequests: { addBody(data: Buffer): void } }).pipelinedRequests.addBody = () => {};
};
