/**
 * Slow clients (slowloris): headers or a body sent a byte every few hundred milliseconds must not
 * hold a connection for ever. Headers have a deadline, an ordinary body a deadline, an upload an
 * idle timer (a multi-GB upload may take hours while bytes keep coming), idle keep-alive
 * connections are closed, and connections past HTTP_MAX_CONNECTIONS are refused, while a
 * normal request is still answered. The API runs as its own process (main.ts) with small limits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.ts';
import { sha256 } from '@dropsite/testkit/bytes';
import { initChunked } from '@dropsite/testkit/control-api/upload-session-client';

const MAIN = path.resolve(import.meta.dirname, '../main.ts');

/** Kills the API and waits until it is gone, so nothing still writes into the folder removed next. */
async function stopApi(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

async function startApi(dataDir: string, env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [MAIN], {
    // No demo sites: seeding them would write to DATA_DIR (and take CPU) beside the timed connections.
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', RUN_BUILDER: 'false', NODE_ENV: 'test', DEMO_SITES: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const onData = (data: Buffer) => {
      output += data.toString();
      const match = /running at http:\/\/[^:]+:(\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`API exited (${code}) before listening:\n${output}`)));
  });
  return { child, port };
}

interface TSlowSocket {
  socket: net.Socket;
  /** Milliseconds from connecting until the server closed the connection. */
  closed: Promise<number>;
  received(): string;
  /** Writes one piece every `everyMs` until the server closes or `stop()` is called. */
  trickle(pieces: string[] | (() => string), everyMs: number): { stop(): void };
}

function connect(port: number): Promise<TSlowSocket> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (d) => (data += d.toString()));
    socket.on('error', () => {});
    const closed = new Promise<number>((r) => socket.once('close', () => r(Date.now() - started)));
    socket.once('connect', () =>
      resolve({
        socket,
        closed,
        received: () => data,
        trickle(pieces, everyMs) {
          let i = 0;
          const timer = setInterval(() => {
            if (socket.destroyed) return clearInterval(timer);
            const piece = typeof pieces === 'function' ? pieces() : pieces[i++ % pieces.length]!;
            socket.write(piece);
          }, everyMs);
          socket.once('close', () => clearInterval(timer));
          return { stop: () => clearInterval(timer) };
        },
      }),
    );
    socket.once('error', reject);
  });
}

const within = (p: Promise<number>, ms: number) => Promise.race([p, new Promise<number>((r) => setTimeout(() => r(Number.POSITIVE_INFINITY), ms))]);

describe('slow clients', () => {
  let dataDir: string;
  let api: { child: ChildProcess; port: number };
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-slow-'));
    api = await startApi(dataDir, {
      HTTP_HEADERS_TIMEOUT_SECONDS: '1',
      HTTP_REQUEST_TIMEOUT_SECONDS: '2',
      HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '1',
      UPLOAD_IDLE_TIMEOUT_SECONDS: '2',
    });
  }, 60_000);
  afterAll(async () => {
    if (api) await stopApi(api.child);
    await rm(dataDir, { recursive: true, force: true });
  });

  const health = async () => (await fetch(`http://127.0.0.1:${api.port}/api/health`)).status;

  it('closes a connection whose headers trickle in, and still answers others', async () => {
    const slow = await connect(api.port);
    slow.socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    slow.trickle(() => 'X-Slow: a\r\n', 200);
    expect(await health()).toBe(200);
    const closedAfter = await within(slow.closed, 6000);
    expect(closedAfter).toBeGreaterThanOrEqual(900);
    expect(closedAfter).toBeLessThan(6000);
  }, 15_000);

  it('cuts an ordinary request whose body trickles in past the request deadline', async () => {
    const slow = await connect(api.port);
    slow.socket.write(`POST /api/analytics/events HTTP/1.1\r\nHost: 127.0.0.1:${api.port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"projectId":"`);
    slow.trickle(() => 'a', 200);
    expect(await health()).toBe(200);
    const closedAfter = await within(slow.closed, 7000);
    expect(closedAfter).toBeGreaterThanOrEqual(1800);
    expect(closedAfter).toBeLessThan(7000);
    // Told why when it can still read.
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408/);
    expect(slow.received()).toContain('"code":"request_timeout"');
  }, 15_000);

  it('lets an upload run past the request deadline while bytes keep coming, and cuts it once they stop', async () => {
    const boundary = 'slowboundary';
    const slow = await connect(api.port);
    const size = 5_000_000;
    slow.socket.write(
      `POST /api/upload HTTP/1.1\r\nHost: 127.0.0.1:${api.port}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${size}\r\n\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nSlow\r\n--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const sender = slow.trickle(() => 'x'.repeat(1000), 250);
    // Twice the request deadline, still sending: not cut.
    expect(await within(slow.closed, 4500)).toBe(Number.POSITIVE_INFINITY);
    sender.stop();
    const stoppedAt = Date.now();
    const closedAfter = await within(slow.closed, 8000);
    expect(closedAfter).toBeLessThan(Number.POSITIVE_INFINITY);
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(1500);
  }, 20_000);

  it('closes a keep-alive connection left idle after its request', async () => {
    const client = await connect(api.port);
    client.socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const closedAfter = await within(client.closed, 5000);
    expect(client.received()).toMatch(/^HTTP\/1\.1 200/);
    expect(closedAfter).toBeLessThan(5000);
  }, 10_000);

  it('closes a keep-alive connection left idle after an upload chunk too', async () => {
    const bytes = Buffer.from('chunk bytes of a small file\n'.repeat(10));
    const init = await initChunked(`http://127.0.0.1:${api.port}`, [{ name: 'a.txt', type: 'text/plain', bytes }]);
    expect(init.status).toBe(201);
    const file = (init.body.uploadUrls as Array<{ uploadUrl: string }>)[0]!;
    const client = await connect(api.port);
    client.socket.write(
      `POST ${file.uploadUrl}?chunk=0&last=true HTTP/1.1\r\nHost: 127.0.0.1:${api.port}\r\nContent-Type: application/octet-stream\r\nX-Chunk-Sha256: ${sha256(bytes)}\r\nContent-Length: ${bytes.length}\r\n\r\n`,
    );
    client.socket.write(bytes);
    const closedAfter = await within(client.closed, 6000);
    expect(client.received()).toMatch(/^HTTP\/1\.1 200/);
    expect(closedAfter).toBeLessThan(6000);
  }, 15_000);

  it('refuses connections past HTTP_MAX_CONNECTIONS', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-maxconn-'));
    const small = await startApi(dir, { HTTP_MAX_CONNECTIONS: '3', HTTP_HEADERS_TIMEOUT_SECONDS: '30' });
    try {
      const held = await Promise.all([connect(small.port), connect(small.port), connect(small.port)]);
      // Each is answered once (so the server has taken all three), then starts a request it never finishes.
      for (const h of held) h.socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await expect.poll(() => held.every((h) => /^HTTP\/1\.1 200/.test(h.received())), { timeout: 3_000, interval: 20 }).toBe(true);
      for (const h of held) h.socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      const extra = await connect(small.port);
      extra.socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      expect(await within(extra.closed, 3000)).toBeLessThan(3000);
      expect(extra.received()).toBe('');
      for (const h of held) h.socket.destroy();
      // Served again once the server has seen the held connections close.
      await expect
        .poll(
          () =>
            fetch(`http://127.0.0.1:${small.port}/api/health`).then(
              (res) => res.status,
              () => 'refused',
            ),
          { timeout: 3_000, interval: 20 },
        )
        .toBe(200);
    } finally {
      await stopApi(small.child);
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('reads the limits from the environment, with defaults', () => {
    const defaults = loadConfig({}).http;
    expect(defaults).toEqual({
      headersTimeoutMs: 30_000,
      requestTimeoutMs: 120_000,
      keepAliveTimeoutMs: 5_000,
      uploadIdleTimeoutMs: 60_000,
      uploadMinBytesPerSecond: 8 * 1024,
      uploadRateWindowMs: 60_000,
      maxConnections: 2_000,
      maxConnectionsPerAddress: 128,
      chunksInFlightPerSession: 6,
      chunksInFlightPerAddress: 24,
    });
    expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_SECONDS: '0' })).toThrow(/HTTP_REQUEST_TIMEOUT_SECONDS/);
    // The minimum rate is averaged over a minute, or over the idle timeout when that is longer.
    expect(loadConfig({ UPLOAD_IDLE_TIMEOUT_SECONDS: '300' }).http.uploadRateWindowMs).toBe(300_000);
    expect(loadConfig({ UPLOAD_MIN_BYTES_PER_SECOND: '0' }).http.uploadMinBytesPerSecond).toBe(0);
    expect(() => loadConfig({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0' })).toThrow(/HTTP_MAX_CONNECTIONS_PER_ADDRESS/);
  });
});
