/**
 * Resumable upload throughput against its peers, in one run, from one client code path, on the same bytes
 * (default 1 GiB of random bytes; `--size 512M` for a quicker run, `--rounds N`, default 3, `--peers` to run some):
 * (a) bare: a plain Node HTTP handler that writes each chunk at its offset in one file, no checks at all
 *     and no fsync (as the tus file store): the physical yardstick on this machine;
 *     bare-sha256: the same handler doing the hashing Dropsite does, and nothing else of a protocol: each
 *     byte through one SHA-256 state (the file's) and zlib's CRC-32 of its chunk (the chunk's check);
 * (b) tus: `@tus/server` with `@tus/file-store`, tus 1.0 (creation, then PATCH with Upload-Offset, one
 *     chunk after the other as the core protocol requires);
 * (c) Dropsite: the chunked protocol (init, 10 MiB chunks with X-Chunk-Crc32, 3 in flight, complete with
 *     the whole-file SHA-256 verified), on the embedded defaults (SQLite, disk storage). Parts are not
 *     fsynced one by one: the file is fsynced once at complete, and chunks acknowledged before a power
 *     cut are checked after it (docs/uploads.md, "Resumable uploads").
 * Each server runs in its own child process started like the API (same Node flags and malloc arenas), on
 * a fresh temp directory of the same file system; its RSS when idle, just before the upload, and its peak
 * RSS after it are read from /proc/<pid>/status (VmRSS, VmHWM), and the CPU it spent on the upload from
 * /proc/<pid>/stat (on a busy machine the rates follow the CPU). Every request goes through postBytes()
 * below (node:http, keep-alive). Rates are medians over the rounds; each round starts with the next peer, so none always goes first or last.
 * Targets (issue 28, docs/performance.md): Dropsite at least 1.0 × tus and at least 90 % of bare-sha256 (the
 * bare handler doing the same hashing); the API's peak RSS at most 32 MB over its idle RSS.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomFillSync } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { CHUNK_PARALLELISM, CHUNK_SIZE, crc32ToBase64 } from '@dropsite/shared';
import { API_ENV, API_NODE_FLAGS } from '@dropsite/control-api/api-launch';
import { judge } from './verdicts.ts';

const MB = 1024 * 1024;
const PEERS = ['bare', 'bare-sha256', 'tus', 'dropsite'] as const;
const repoRoot = path.resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    size: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    /** Only these peers (comma-separated), e.g. `--peers dropsite` while profiling; ratios need bare, bare-sha256, tus and dropsite. */
    peers: { type: 'string', default: PEERS.join(',') },
    serve: { type: 'string' },
    dir: { type: 'string' },
  },
});

if (args.serve) {
  await servePeer(args.serve, args.dir ?? os.tmpdir());
} else {
  await main();
}

/** "1G", "512M", "300k" or plain bytes; BENCH_UPLOAD_BYTES is still read when no --size is given. */
function parseSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]i?b?)?$/i.exec(text.trim());
  if (!match) throw new Error(`--size ${text}: expected e.g. 1G, 512M or a number of bytes`);
  const unit = (match[2] ?? '').charAt(0).toLowerCase();
  const factor = unit === 'g' ? 1024 ** 3 : unit === 'm' ? MB : unit === 'k' ? 1024 : 1;
  return Math.round(Number(match[1]) * factor);
}

async function main(): Promise<void> {
  // Loaded here, not at the top: lib.ts brings the whole API in, which a peer server process must not hold.
  const { printFigures } = await import('./lib.ts');
  const totalBytes = args.size ? parseSize(args.size) : Number(process.env.BENCH_UPLOAD_BYTES ?? 1024 ** 3);
  const rounds = Math.max(1, Number(args.rounds));
  const chunkCount = Math.max(1, Math.ceil(totalBytes / CHUNK_SIZE));
  process.stdout.write(`Preparing ${(totalBytes / MB).toFixed(0)} MiB of random bytes in ${chunkCount} chunks…\n`);
  const chunks: Buffer[] = [];
  const chunkCrc32s: string[] = [];
  const whole = createHash('sha256');
  for (let i = 0; i < chunkCount; i++) {
    const chunk = randomFillSync(Buffer.allocUnsafe(Math.min(CHUNK_SIZE, totalBytes - i * CHUNK_SIZE)));
    chunks.push(chunk);
    chunkCrc32s.push(crc32ToBase64(crc32(chunk)));
    whole.update(chunk);
  }
  const payload: TPayload = { totalBytes, chunks, chunkCrc32s, fileSha256: whole.digest('hex') };

  const wanted = new Set(args.peers.split(',').map((p) => p.trim()));
  const peers = PEERS.filter((p) => wanted.has(p));
  if (peers.length === 0) throw new Error(`--peers: expected some of ${PEERS.join(', ')}`);
  const loadAtStart = os.loadavg()[0]!;
  const results: Record<TPeer, TRun[]> = { bare: [], 'bare-sha256': [], tus: [], dropsite: [] };
  for (let round = 1; round <= rounds; round++) {
    // Each round starts with the next peer: whoever goes first meets a file system and a page cache that
    // the others' gigabytes have not touched, so no peer keeps the same place in every round.
    const start = (round - 1) % peers.length;
    for (const peer of [...peers.slice(start), ...peers.slice(0, start)]) {
      const run = await runOnce(peer, payload);
      results[peer].push(run);
      process.stdout.write(
        `round ${round}: ${peer.padEnd(11)} ${rate(totalBytes, run.seconds).toFixed(0)} MB/s (${run.seconds.toFixed(2)} s, CPU ${run.cpuSeconds.toFixed(2)} s, idle RSS ${(run.idleRss / MB).toFixed(0)} MB, peak RSS ${(run.peakRss / MB).toFixed(0)} MB${run.completeSeconds === undefined ? '' : `, complete ${run.completeSeconds.toFixed(2)} s, read back ${(run.readBackBytes / MB).toFixed(0)} MiB`})\n`,
      );
    }
  }

  const medianRate = (peer: TPeer) => median(results[peer].map((r) => rate(totalBytes, r.seconds)));
  const cpuOf = (peer: TPeer) => `server CPU ${median(results[peer].map((r) => r.cpuSeconds)).toFixed(2)} s`;
  if (!(['bare', 'bare-sha256', 'tus', 'dropsite'] as const).every((p) => peers.includes(p))) {
    for (const peer of peers)
      process.stdout.write(`${peer}: median ${medianRate(peer).toFixed(0)} MB/s, peak RSS ${(Math.max(...results[peer].map((r) => r.peakRss)) / MB).toFixed(0)} MB\n`);
    return;
  }
  const bare = medianRate('bare');
  const bareHashing = medianRate('bare-sha256');
  const tus = medianRate('tus');
  const dropsite = medianRate('dropsite');
  const apiGrowth = Math.max(...results.dropsite.map((r) => r.peakRss - r.idleRss));
  const apiIdle = Math.max(...results.dropsite.map((r) => r.idleRss));
  const apiPeak = Math.max(...results.dropsite.map((r) => r.peakRss));
  const vsTus = dropsite / tus;
  const vsBareHashing = dropsite / bareHashing;
  printFigures(`Upload of ${(totalBytes / MB).toFixed(0)} MiB over loopback, median of ${rounds} round(s) (${CHUNK_SIZE / MB} MiB chunks)`, [
    ['(a) bare handler, 3 in flight, no checks', `${bare.toFixed(0)} MB/s (${cpuOf('bare')})`],
    ['    the same, SHA-256 of the file + CRC-32 per chunk', `${bareHashing.toFixed(0)} MB/s (${cpuOf('bare-sha256')})`],
    ['(b) @tus/server + file-store, PATCH in order', `${tus.toFixed(0)} MB/s (${cpuOf('tus')}, peak RSS ${(Math.max(...results.tus.map((r) => r.peakRss)) / MB).toFixed(0)} MB)`],
    ['(c) Dropsite chunked, CRC-32 per chunk + SHA-256 of the file', `${dropsite.toFixed(0)} MB/s (${cpuOf('dropsite')})`],
    ['  of which complete (assemble + verify + publish)', `${median(results.dropsite.map((r) => r.completeSeconds ?? 0)).toFixed(2)} s`],
    [
      '  bytes read back from storage (chunks hashed after arriving early)',
      `${((100 * median(results.dropsite.map((r) => r.readBackBytes))) / totalBytes).toFixed(0)} % of the upload (rchar beyond the bytes received)`,
    ],
    [
      'Dropsite / tus',
      `${vsTus.toFixed(2)} (target at least 1.0): ${judge({ name: 'chunked upload vs @tus/server', measured: `${vsTus.toFixed(2)}x (${dropsite.toFixed(0)} MB/s)`, target: 'at least 1.0x', yardstick: `tus ${tus.toFixed(0)} MB/s`, pass: vsTus >= 1.0 })}`,
    ],
    [
      'Dropsite / bare with the same hashing',
      `${(vsBareHashing * 100).toFixed(0)} % (target at least 90 %): ${judge({ name: 'chunked upload vs bare with the same hashing', measured: `${(vsBareHashing * 100).toFixed(0)} %`, target: 'at least 90 %', yardstick: `bare + SHA-256 + CRC-32 ${bareHashing.toFixed(0)} MB/s`, pass: vsBareHashing >= 0.9 })}`,
    ],
    ['Dropsite / bare without checks', `${((dropsite / bare) * 100).toFixed(0)} %`],
    [
      'API RSS growth over idle (VmHWM after - VmRSS before, highest round)',
      `${(apiGrowth / MB).toFixed(0)} MB (idle ${(apiIdle / MB).toFixed(0)} MB, peak ${(apiPeak / MB).toFixed(0)} MB; target at most 32 MB): ${judge({ name: 'API RSS growth during the upload', measured: `${(apiGrowth / MB).toFixed(0)} MB`, target: 'at most 32 MB over idle', yardstick: `idle ${(apiIdle / MB).toFixed(0)} MB`, pass: apiGrowth <= 32 * MB })}`,
    ],
    ['machine load average (1 min) at the start and the end', `${loadAtStart.toFixed(1)}, ${os.loadavg()[0]!.toFixed(1)}`],
    ['result', vsTus >= 1.0 && vsBareHashing >= 0.9 && apiGrowth <= 32 * MB ? 'PASS' : 'MISS'],
  ]);
}

type TPeer = (typeof PEERS)[number];
interface TPayload {
  totalBytes: number;
  chunks: Buffer[];
  /** X-Chunk-Crc32 of each chunk. */
  chunkCrc32s: string[];
  fileSha256: string;
}
interface TRun {
  seconds: number;
  /** CPU time (user + system) the server process spent from just before the upload to its end. */
  cpuSeconds: number;
  /** The server's RSS (VmRSS) just before the upload. */
  idleRss: number;
  /** The server's peak RSS (VmHWM) after the upload. */
  peakRss: number;
  /** Bytes the server read (/proc/<pid>/io rchar: sockets and files) during the upload beyond the bytes uploaded: files read back. */
  readBackBytes: number;
  completeSeconds?: number;
}

function rate(bytes: number, seconds: number): number {
  return bytes / MB / seconds;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function runOnce(peer: TPeer, payload: TPayload): Promise<TRun> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `dropsite-bench-upload-${peer}-`));
  let child: ChildProcess | undefined;
  try {
    const started = peer === 'dropsite' ? await startApi(dir, payload.totalBytes) : await startPeer(peer, dir);
    child = started.child;
    const agent = new http.Agent({ keepAlive: true, maxSockets: CHUNK_PARALLELISM });
    try {
      const idleRss = await readStatusBytes(child.pid!, 'VmRSS');
      const read0 = await readCharsRead(child.pid!);
      const cpu0 = await readCpuSeconds(child.pid!);
      const t0 = performance.now();
      let completeSeconds: number | undefined;
      if (peer === 'bare' || peer === 'bare-sha256') await uploadBare(agent, started.url, payload);
      else if (peer === 'tus') await uploadTus(agent, started.url, payload);
      else completeSeconds = await uploadDropsite(agent, started.url, payload);
      const seconds = (performance.now() - t0) / 1000;
      const cpuSeconds = (await readCpuSeconds(child.pid!)) - cpu0;
      const readBackBytes = Math.max(0, (await readCharsRead(child.pid!)) - read0 - payload.totalBytes);
      return { seconds, cpuSeconds, readBackBytes, idleRss, peakRss: await readStatusBytes(child.pid!, 'VmHWM'), ...(completeSeconds === undefined ? {} : { completeSeconds }) };
    } finally {
      agent.destroy();
    }
  } finally {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    await rm(dir, { recursive: true, force: true });
  }
}

/** The one client code path: a request with a body (or none) on a kept-alive connection; answers status, headers and body. */
function postBytes(
  agent: http.Agent,
  url: string,
  method: string,
  headers: Record<string, string | number>,
  body?: Buffer,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, agent, headers: { ...headers, 'content-length': body?.length ?? 0 } }, (response) => {
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('error', reject);
      response.on('end', () => {
        const status = response.statusCode ?? 0;
        const text = Buffer.concat(parts).toString('utf8');
        if (status >= 200 && status < 300) resolve({ status, headers: response.headers, body: text });
        else reject(new Error(`${method} ${url} answered ${status}: ${text}`));
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** Sends chunks 0..n-1 with `parallel` requests in flight. */
async function sendChunks(count: number, parallel: number, send: (index: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < count; i = next++) await send(i);
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}

async function uploadBare(agent: http.Agent, base: string, p: TPayload): Promise<void> {
  await sendChunks(p.chunks.length, CHUNK_PARALLELISM, (i) => postBytes(agent, `${base}/chunk?index=${i}`, 'POST', { 'content-type': 'application/octet-stream' }, p.chunks[i]));
}

async function uploadTus(agent: http.Agent, base: string, p: TPayload): Promise<void> {
  const created = await postBytes(agent, `${base}/files`, 'POST', {
    'tus-resumable': '1.0.0',
    'upload-length': p.totalBytes,
    'upload-metadata': `filename ${Buffer.from('master.bin').toString('base64')}`,
  });
  const location = created.headers.location;
  if (!location) throw new Error('tus server answered no Location');
  const url = new URL(location, base).toString();
  let offset = 0;
  for (const chunk of p.chunks) {
    const answer = await postBytes(agent, url, 'PATCH', { 'tus-resumable': '1.0.0', 'upload-offset': offset, 'content-type': 'application/offset+octet-stream' }, chunk);
    offset += chunk.length;
    if (Number(answer.headers['upload-offset']) !== offset) throw new Error(`tus server is at offset ${answer.headers['upload-offset']}, expected ${offset}`);
  }
}

/** Answers the seconds the complete call took. */
async function uploadDropsite(agent: http.Agent, base: string, p: TPayload): Promise<number> {
  const json = { 'content-type': 'application/json' };
  const init = JSON.parse(
    (
      await postBytes(
        agent,
        `${base}/api/chunked-upload/init`,
        'POST',
        json,
        Buffer.from(
          JSON.stringify({ title: 'Benchmark master', description: 'One large file', files: [{ name: 'master.bin', size: p.totalBytes, type: 'application/octet-stream' }] }),
        ),
      )
    ).body,
  ) as { sessionId: string; uploadUrls: Array<{ uploadUrl: string; totalChunks: number; fileId: string }> };
  const target = init.uploadUrls[0]!;
  if (target.totalChunks !== p.chunks.length) throw new Error(`server split the file into ${target.totalChunks} chunks, expected ${p.chunks.length}`);
  await sendChunks(p.chunks.length, CHUNK_PARALLELISM, (i) =>
    postBytes(
      agent,
      `${base}${target.uploadUrl}?chunk=${i}&last=${i === p.chunks.length - 1}`,
      'POST',
      { 'content-type': 'application/octet-stream', 'x-chunk-crc32': p.chunkCrc32s[i]! },
      p.chunks[i],
    ),
  );
  const t0 = performance.now();
  const done = JSON.parse(
    (
      await postBytes(
        agent,
        `${base}/api/chunked-upload/complete`,
        'POST',
        json,
        Buffer.from(JSON.stringify({ sessionId: init.sessionId, files: [{ fileId: target.fileId, sha256: p.fileSha256 }] })),
      )
    ).body,
  ) as { slug?: string };
  if (!done.slug) throw new Error('complete answered no slug');
  return (performance.now() - t0) / 1000;
}

function waitForUrl(child: ChildProcess): Promise<string> {
  let output = '';
  return new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (data: Buffer) => {
      output += data.toString();
      const match = /(?:running|listening) at (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!.replace('localhost', '127.0.0.1'));
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening:\n${output}`)));
  });
}

async function startApi(dir: string, totalBytes: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [...API_NODE_FLAGS, ...(process.env.BENCH_API_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_API_PROFILE] : []), path.join(repoRoot, 'control-api/src/main.ts')],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        ...API_ENV,
        DATA_DIR: dir,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
        SESSION_SECRET: 'bench-only-session-secret-0123456789abcdef',
        MAX_UPLOAD_BYTES: String(totalBytes + MB),
        PUBLISH_BYTES_PER_DAY: String(Math.max(5 * 1024 ** 3, totalBytes + MB)),
        // No demo sites built beside the measured uploads.
        DEMO_SITES: 'false',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return { child, url: await waitForUrl(child) };
}

async function startPeer(peer: Exclude<TPeer, 'dropsite'>, dir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...API_NODE_FLAGS, import.meta.filename, '--serve', peer, '--dir', dir], {
    cwd: repoRoot,
    env: { ...process.env, ...API_ENV },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return { child, url: await waitForUrl(child) };
}

/** Child process: serves one peer on a free loopback port and prints its URL. */
async function servePeer(peer: string, dir: string): Promise<void> {
  let handler: http.RequestListener;
  if (peer === 'bare' || peer === 'bare-sha256') {
    const file = path.join(dir, 'upload.bin');
    await (await open(file, 'w')).close();
    // bare-sha256 is what Dropsite's hashing alone costs on this machine: each byte goes through one SHA-256 state
    // for all bytes in arrival order (not quite the file's order, and nothing is checked: the CPU is the point)
    // and the CRC-32 of its chunk.
    const all = createHash('sha256');
    const hashOnce = () => {
      let chunkCrc = 0;
      return new Transform({
        transform(piece: Buffer, _encoding, done) {
          chunkCrc = crc32(piece, chunkCrc);
          all.update(piece);
          done(null, piece);
        },
      });
    };
    handler = (req, res) => {
      const index = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('index'));
      const write = createWriteStream(file, { flags: 'r+', start: index * CHUNK_SIZE });
      (peer === 'bare' ? pipeline(req, write) : pipeline(req, hashOnce(), write)).then(
        () => res.writeHead(204).end(),
        (error: unknown) => res.writeHead(500).end(String(error)),
      );
    };
  } else if (peer === 'tus') {
    const { Server } = await import('@tus/server');
    const { FileStore } = await import('@tus/file-store');
    const tus = new Server({ path: '/files', datastore: new FileStore({ directory: dir }) });
    handler = (req, res) => void tus.handle(req, res);
  } else {
    throw new Error(`unknown peer ${peer}`);
  }
  const server = http.createServer(handler);
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (address && typeof address === 'object') process.stdout.write(`listening at http://127.0.0.1:${address.port}\n`);
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
}

/** User + system CPU seconds of a process so far (/proc/<pid>/stat, in clock ticks of 1/100 s). */
async function readCpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): state is first, utime and stime 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Bytes a process has read so far through read syscalls, from sockets and files alike (/proc/<pid>/io rchar). */
async function readCharsRead(pid: number): Promise<number> {
  const io = await readFile(`/proc/${pid}/io`, 'utf8');
  const chars = /rchar:\s+(\d+)/.exec(io)?.[1];
  if (!chars) throw new Error('rchar not found in /proc io');
  return Number(chars);
}

/** A memory figure of a process from /proc/<pid>/status, in bytes: VmRSS (now) or VmHWM (its peak so far). */
async function readStatusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1];
  if (!kb) throw new Error(`${field} not found in /proc status`);
  return Number(kb) * 1024;
}
