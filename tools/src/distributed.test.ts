/**
 * The distributed deployment end to end: the API as one process (RUN_BUILDER=false),
 * a separate builder process (npm run builder), PostgreSQL, BullMQ on Redis and an
 * S3-compatible store (s3rver), all real, talking over loopback.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { isPostgresUp, isRedisUp, requireService } from '@dropsite/testkit/control-api/services';
import { startS3rver, type TS3rver } from '@dropsite/testkit/control-api/s3rver';
import { freePort } from './stack.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const available = (await requireService('PostgreSQL', () => isPostgresUp(PG_URL))) && (await requireService('Redis', () => isRedisUp(REDIS_URL)));

function startProcess(
  script: string,
  env: Record<string, string>,
): { child: ChildProcess; output: () => string; waitFor: (text: string, ms?: number) => Promise<void>; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [script], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const onData = (d: Buffer) => (out += d.toString());
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exited,
    waitFor: (text, ms = 30_000) =>
      vi.waitFor(
        () => {
          if (out.includes(text)) return;
          if (child.exitCode !== null) throw new Error(`Process exited (${child.exitCode}) before "${text}":\n${out}`);
          throw new Error(`Timed out waiting for "${text}" in:\n${out}`);
        },
        { timeout: ms, interval: 100 },
      ),
  };
}

describe.skipIf(!available)('distributed deployment: API + builder process + PostgreSQL + BullMQ + S3', () => {
  const schema = `dist_${process.pid}_${Date.now()}`;
  const queueName = `dist-test-${process.pid}-${Date.now()}`;
  let s3: TS3rver;
  let s3Dir: string;
  let dataDir: string;
  let api: ReturnType<typeof startProcess>;
  let builder: ReturnType<typeof startProcess>;
  let baseUrl: string;
  let builderOps: string;

  beforeAll(async () => {
    s3Dir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-s3-'));
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-dist-'));
    const started = await startS3rver(s3Dir);
    s3 = started.server;
    const port = await freePort();
    baseUrl = `http://localhost:${port}`;
    const env = {
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      DATABASE_URL: `${PG_URL}?schema=${schema}`,
      REDIS_URL,
      BUILD_QUEUE_NAME: queueName,
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: started.endpoint,
      S3_BUCKET: 'dropsite-dist-test',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      PUBLIC_URL: baseUrl,
      SESSION_SECRET: 'distributed-test-session-secret-0123456789',
      LOG_LEVEL: 'info',
    };
    // DEMO_SITES=false: the builder's only jobs are this test's.
    api = startProcess('control-api/src/main.ts', { ...env, PORT: String(port), RUN_BUILDER: 'false', DEMO_SITES: 'false' });
    await api.waitFor('Dropsite is running at');
    const opsPort = await freePort();
    builderOps = `http://127.0.0.1:${opsPort}`;
    builder = startProcess('scripts/src/builder.ts', { ...env, OPS_PORT: String(opsPort) });
    await builder.waitFor('builder started');
  }, 90_000);

  afterAll(async () => {
    for (const p of [api, builder]) if (p && p.child.exitCode === null) p.child.kill('SIGKILL');
    await s3?.close();
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
    await rm(s3Dir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  it('publishes through the API, builds in the builder process (its log lines naming the publish request), serves from S3, and both stop gracefully', async () => {
    const photo = await sharp({ create: { width: 2400, height: 1600, channels: 3, background: { r: 200, g: 150, b: 90 } } })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.append('title', 'Studio Delivery');
    form.append('description', 'Final selects');
    form.append('files', new Blob([photo], { type: 'image/jpeg' }), 'select-01.jpg');
    form.append('files', new Blob([new TextEncoder().encode('%PDF-1.4 not really')], { type: 'application/pdf' }), 'contract.pdf');
    const res = await fetch(`${baseUrl}/api/upload`, { method: 'POST', body: form, headers: { 'X-Request-Id': 'dist-publish-0001' } });
    const body = (await res.json()) as { success: boolean; slug: string; url: string };
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.url).toBe(`${baseUrl}/${body.slug}`);

    const statusOf = async () => ((await (await fetch(`${baseUrl}/api/sites/${body.slug}/status`)).json()) as { status: string }).status;
    await expect.poll(statusOf, { timeout: 30_000, interval: 200 }).not.toBe('building');
    expect(await statusOf()).toBe('live');
    expect(builder.output()).not.toContain('"level":50');
    // The request id travelled from the API's request into the job and the builder's own lines.
    const builderLines = builder
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; requestId?: string });
    expect(builderLines.filter((l) => l.requestId === 'dist-publish-0001').map((l) => l.msg)).toEqual(expect.arrayContaining(['build started', 'file derived', 'site built']));
    // The builder's own ops listener: ready, and its metrics count the build.
    const ready = await fetch(`${builderOps}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', queue: 'ok', storage: 'ok' } });
    const metrics = await (await fetch(`${builderOps}/metrics`)).text();
    expect(metrics).toMatch(/dropsite_builds_total\{outcome="succeeded"\} 1\b/);
    expect(metrics).toMatch(/dropsite_build_queue_wait_seconds_count 1\b/);
    expect(metrics).toContain('nodejs_eventloop_lag_p99_seconds');

    const page = await fetch(`${baseUrl}/${body.slug}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Studio Delivery');
    const fileId = /\/api\/files\/([\w-]{22})\?mode=preview&(?:amp;)?size=300/.exec(html)?.[1];
    expect(fileId).toBeDefined();
    const thumb = await fetch(`${baseUrl}/api/files/${fileId}?mode=preview&size=300`);
    expect(thumb.status).toBe(200);
    expect((await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).width).toBe(300);
    const original = await fetch(`${baseUrl}/api/files/${fileId}?mode=download`);
    expect(Buffer.from(await original.arrayBuffer()).equals(photo)).toBe(true);

    builder.child.kill('SIGTERM');
    api.child.kill('SIGTERM');
    expect(await builder.exited).toBe(0);
    expect(await api.exited).toBe(0);
  }, 90_000);
});
