/** Helpers shared by the benchmarks: temp runtimes, camera-like photos, a small PDF, figures. */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import { createApp, createRuntime, loadConfig, type TRuntime } from '@dropsite/control-api';
import { API_ENV, API_NODE_FLAGS } from '@dropsite/control-api/api-launch';

// Real PDFs and ZIPs written by hand, shared with the builder's tests.
export { makePdf, makeZip } from '@dropsite/testkit/builder/media-fixtures';

/**
 * A benchmark that runs the API's code in its own process (an embedded runtime) runs with the
 * settings every launcher starts the API with (api-launch.mjs), which only take effect when a
 * process starts: without them, the script starts itself again with them and ends with that run.
 */
export async function runWithApiSettings(): Promise<void> {
  if (Object.entries(API_ENV).every(([name, value]) => process.env[name] === value)) return;
  const script = process.argv[1];
  if (script === undefined) throw new Error('runWithApiSettings: no script to start again');
  const child = spawn(process.execPath, [...API_NODE_FLAGS, ...process.execArgv, script, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, ...API_ENV },
  });
  const code = await new Promise<number>((resolve) => child.once('close', (exit) => resolve(exit ?? 1)));
  process.exit(code);
}

// The benchmarks run with NODE_ENV=production, which needs a session secret (a throwaway one here).
const BENCH_SESSION_SECRET = 'bench-only-session-secret-0123456789abcdef';

export async function startEmbeddedRuntime(extraEnv: Record<string, string> = {}): Promise<{ runtime: TRuntime; dataDir: string; dispose(): Promise<void> }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-bench-'));
  const config = loadConfig({ SESSION_SECRET: BENCH_SESSION_SECRET, ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0', ...extraEnv }, dataDir);
  const runtime = await createRuntime(config, { runBuilder: true });
  return {
    runtime,
    dataDir,
    async dispose() {
      await runtime.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The app on a loopback port over a fresh embedded runtime. The port is taken first, so the app's own
 * address is its public URL from the start (a config is never changed once the runtime holds it).
 */
export async function startEmbeddedApp(extraEnv: Record<string, string> = {}): Promise<{ runtime: TRuntime; base: string; dispose(): Promise<void> }> {
  const server = http.createServer();
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const env = await startEmbeddedRuntime({ PUBLIC_URL: base, ...extraEnv });
  server.on('request', createApp(env.runtime.deps));
  return {
    runtime: env.runtime,
    base,
    async dispose() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await env.dispose();
    },
  };
}

/** A camera-sized JPEG (default 4000x3000) with gradients and grain, so it compresses like a photo (a few MB). */
export async function makeCameraJpeg(seed: number, width = 4000, height = 3000): Promise<Buffer> {
  const small = Buffer.alloc(400 * 300 * 3);
  let x = seed * 2654435761;
  for (let i = 0; i < small.length; i += 3) {
    const p = i / 3;
    const px = p % 400;
    const py = Math.floor(p / 400);
    x = (x * 1103515245 + 12345) >>> 0;
    const grain = (x >>> 24) % 40;
    small[i] = (px * 0.6 + seed * 37 + grain) & 255;
    small[i + 1] = (py * 0.8 + grain) & 255;
    small[i + 2] = ((px + py) * 0.3 + 90 + grain) & 255;
  }
  const noise = await sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 18 } } })
    .raw()
    .toBuffer();
  const base = await sharp(small, { raw: { width: 400, height: 300, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  for (let i = 0; i < base.length; i++) base[i] = Math.max(0, Math.min(255, base[i]! + ((noise[i]! - 128) >> 1)));
  return sharp(base, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 88 })
    .toBuffer();
}

/**
 * The same photo with a different JPEG comment: other bytes and content hash, the same
 * decoding work, so every run derives afresh instead of hitting the cache.
 */
export function withJpegComment(jpeg: Buffer, text: string): Buffer {
  const body = Buffer.from(text, 'utf8');
  const segment = Buffer.alloc(4 + body.length);
  segment[0] = 0xff;
  segment[1] = 0xfe;
  segment.writeUInt16BE(body.length + 2, 2);
  body.copy(segment, 4);
  return Buffer.concat([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]);
}

/** Samples the resident set size every `intervalMs` until stopped; answers the peak and the start in bytes. */
export function startRssSampler(intervalMs = 50): { stop(): { startBytes: number; peakBytes: number; samples: number } } {
  const startBytes = process.memoryUsage.rss();
  let peakBytes = startBytes;
  let samples = 1;
  const timer = setInterval(() => {
    peakBytes = Math.max(peakBytes, process.memoryUsage.rss());
    samples++;
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      peakBytes = Math.max(peakBytes, process.memoryUsage.rss());
      return { startBytes, peakBytes, samples: samples + 1 };
    },
  };
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function printFigures(title: string, rows: Array<[string, string]>): void {
  const width = Math.max(...rows.map(([k]) => k.length));
  process.stdout.write(`\n${title}\n${'-'.repeat(title.length)}\n`);
  for (const [k, v] of rows) process.stdout.write(`${k.padEnd(width)}  ${v}\n`);
}
