/**
 * Resumable upload throughput: a 1 GB file through the chunked protocol (init, 10 MiB chunks with
 * X-Chunk-Sha256, 3 in flight, complete with the whole-file SHA-256) over loopback, with the API in
 * a child process on the embedded defaults (SQLite, disk storage). Its peak RSS is read from
 * /proc/<pid>/status (VmHWM). A plain disk write of the same bytes (createWriteStream + fsync) on
 * the same file system, in the same run, is the yardstick.
 * The client writes each prepared chunk with node:http on keep-alive connections: it shares this
 * machine's CPUs with the API, and fetch spent about 3.6 s of CPU per GB here (web streams), time a
 * browser on another machine never takes from the server. Its CPU time is printed with the figures.
 * Targets: at least 50 % of the disk write rate; API peak RSS under 200 MB.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomFillSync } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import http from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { CHUNK_PARALLELISM, CHUNK_SIZE } from '@dropsite/shared';
import { printFigures } from './lib.ts';
import { API_ENV, API_NODE_FLAGS } from '../control-api/api-launch.mjs';

const TOTAL_BYTES = Number(process.env.BENCH_UPLOAD_BYTES ?? 1024 ** 3);
const MB = 1024 * 1024;
const repoRoot = path.resolve(import.meta.dirname, '..');

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-bench-upload-'));
const chunkCount = Math.max(1, Math.ceil(TOTAL_BYTES / CHUNK_SIZE));
process.stdout.write(`Preparing ${(TOTAL_BYTES / MB).toFixed(0)} MB of random bytes in ${chunkCount} chunks…\n`);
const chunks: Buffer[] = [];
const chunkHashes: string[] = [];
const whole = createHash('sha256');
for (let i = 0; i < chunkCount; i++) {
  const chunk = randomFillSync(Buffer.allocUnsafe(Math.min(CHUNK_SIZE, TOTAL_BYTES - i * CHUNK_SIZE)));
  chunks.push(chunk);
  chunkHashes.push(createHash('sha256').update(chunk).digest('hex'));
  whole.update(chunk);
}
const fileSha256 = whole.digest('hex');

let api: ChildProcess | undefined;
try {
  const diskSeconds = await timePlainDiskWrite(path.join(dataDir, 'plain-write.bin'));
  const started = await startApi(dataDir);
  api = started.child;
  const idleRss = await readVmHwm(api.pid!);
  const cpuBefore = await readCpuSeconds(api.pid!);
  const clientCpuBefore = process.cpuUsage();
  const result = await uploadChunked(started.url, () => readCpuSeconds(api!.pid!), () => readVmHwm(api!.pid!));
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const peakRss = await readVmHwm(api.pid!);
  const apiCpuSeconds = (await readCpuSeconds(api.pid!)) - cpuBefore;

  const diskRate = TOTAL_BYTES / MB / diskSeconds;
  const uploadRate = TOTAL_BYTES / MB / result.totalSeconds;
  const ratio = uploadRate / diskRate;
  printFigures(`Chunked upload of ${(TOTAL_BYTES / MB).toFixed(0)} MB over loopback (${CHUNK_PARALLELISM} chunks in flight, ${CHUNK_SIZE / MB} MiB each)`, [
    ['plain disk write + fsync', `${diskRate.toFixed(0)} MB/s (${diskSeconds.toFixed(2)} s)`],
    ['chunked upload, init to complete', `${uploadRate.toFixed(0)} MB/s (${result.totalSeconds.toFixed(2)} s)`],
    ['  chunks sent', `${result.chunkSeconds.toFixed(2)} s`],
    ['  complete (assemble + verify SHA-256 + publish)', `${result.completeSeconds.toFixed(2)} s (API CPU ${result.completeCpuSeconds.toFixed(2)} s)`],
    ['API CPU time for the upload', `${apiCpuSeconds.toFixed(2)} s (user + system)`],
    ['client CPU time (this process)', `${((clientCpu.user + clientCpu.system) / 1e6).toFixed(2)} s (user + system)`],
    ['machine load average (1 min) at the end', os.loadavg()[0]!.toFixed(1)],
    ['upload / disk rate', `${(ratio * 100).toFixed(0)} % (target at least 50 %)`],
    ['API peak RSS (VmHWM)', `${(peakRss / MB).toFixed(0)} MB (idle after start ${(idleRss / MB).toFixed(0)} MB, ${(result.chunksPeakRss / MB).toFixed(0)} MB by the last chunk; target under 200 MB)`],
    ['SHA-256 verified by the server', result.slug ? 'yes (complete succeeded with the client hash)' : 'no'],
    ['result', ratio >= 0.5 && peakRss < 200 * MB ? 'PASS' : 'MISS'],
  ]);
} finally {
  if (api && api.exitCode === null) {
    api.kill('SIGTERM');
    await once(api, 'exit');
  }
  await rm(dataDir, { recursive: true, force: true });
}

async function timePlainDiskWrite(file: string): Promise<number> {
  const started = performance.now();
  const out = createWriteStream(file, { flush: true });
  for (const chunk of chunks) {
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
  const seconds = (performance.now() - started) / 1000;
  await rm(file, { force: true });
  return seconds;
}

async function startApi(dir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...API_NODE_FLAGS, ...(process.env.BENCH_API_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_API_PROFILE] : []), path.join(repoRoot, 'control-api/src/main.ts')], {
    cwd: repoRoot,
    env: { ...process.env, ...API_ENV, DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_ENV: 'production', SESSION_SECRET: 'bench-only-session-secret-0123456789abcdef', MAX_UPLOAD_BYTES: String(TOTAL_BYTES + MB), PUBLISH_BYTES_PER_DAY: String(Math.max(5 * 1024 ** 3, TOTAL_BYTES + MB)) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (data: Buffer) => {
      output += data.toString();
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!.replace('localhost', '127.0.0.1'));
    });
    child.once('exit', (code) => reject(new Error(`API exited with ${code} before listening:\n${output}`)));
  });
  return { child, url };
}

async function readVmHwm(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  if (!kb) throw new Error('VmHWM not found in /proc status');
  return Number(kb) * 1024;
}

/** User + system CPU seconds of a process (fields 14 and 15 of /proc/<pid>/stat, in clock ticks of 1/100 s). */
async function readCpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function postJson(url: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

/** One chunk as the wizard sends it: raw bytes with their SHA-256, on a kept-alive connection. */
function postChunk(agent: http.Agent, url: string, sha256: string, body: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/octet-stream', 'content-length': body.length, 'x-chunk-sha256': sha256 } },
      (response) => {
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('error', reject);
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve();
          else reject(new Error(`${url} answered ${status}: ${Buffer.concat(parts).toString('utf8')}`));
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

async function uploadChunked(base: string, readApiCpu: () => Promise<number>, readApiPeakRss: () => Promise<number>) {
  const started = performance.now();
  const init = await postJson(`${base}/api/chunked-upload/init`, {
    title: 'Benchmark master',
    description: 'One large file',
    files: [{ name: 'master.bin', size: TOTAL_BYTES, type: 'application/octet-stream' }],
  });
  const target = (init.uploadUrls as Array<{ uploadUrl: string; totalChunks: number; fileId: string }>)[0]!;
  if (target.totalChunks !== chunkCount) throw new Error(`server split the file into ${target.totalChunks} chunks, expected ${chunkCount}`);

  const agent = new http.Agent({ keepAlive: true, maxSockets: CHUNK_PARALLELISM });
  let next = 0;
  const sendNext = async (): Promise<void> => {
    for (let i = next++; i < chunkCount; i = next++) {
      await postChunk(agent, `${base}${target.uploadUrl}?chunk=${i}&last=${i === chunkCount - 1}`, chunkHashes[i]!, chunks[i]!);
    }
  };
  await Promise.all(Array.from({ length: CHUNK_PARALLELISM }, sendNext));
  agent.destroy();
  const chunksDone = performance.now();
  const chunkCpu = await readApiCpu();
  const chunksPeakRss = await readApiPeakRss();
  const done = await postJson(`${base}/api/chunked-upload/complete`, { sessionId: init.sessionId, files: [{ fileId: target.fileId, sha256: fileSha256 }] });
  const finished = performance.now();
  const completeCpuSeconds = (await readApiCpu()) - chunkCpu;
  return {
    chunksPeakRss,
    completeCpuSeconds,
    slug: done.slug as string | undefined,
    totalSeconds: (finished - started) / 1000,
    chunkSeconds: (chunksDone - started) / 1000,
    completeSeconds: (finished - chunksDone) / 1000,
  };
}
