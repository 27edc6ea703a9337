/**
 * SIGTERM to a real API process (control-api/src/main.ts) under load: it stops taking connections,
 * /readyz is not asked for work any more, every request already in flight finishes (an upload
 * half-sent when the signal came included), no request gets a 5xx, every acknowledged comment and
 * every view beacon answered 'counted' (views are written in batches) is in the database afterwards,
 * and the process exits 0. With a short grace period a stalled upload is cut off, not waited for.
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startApiProcess, type TApiProcess } from '@dropsite/testkit/control-api/api-process';
import { buildUploadForm, makeJpeg } from '@dropsite/testkit/control-api/fixtures';

const UNLIMITED = '100000000';

const startApi = (dataDir: string, graceSeconds: number): Promise<TApiProcess> =>
  startApiProcess(dataDir, {
    LOG_LEVEL: 'info',
    SHUTDOWN_GRACE_SECONDS: String(graceSeconds),
    RATE_LIMIT_READS_PER_MINUTE: UNLIMITED,
    RATE_LIMIT_WRITES_PER_MINUTE: UNLIMITED,
    RATE_LIMIT_SITE_WRITES_PER_MINUTE: UNLIMITED,
    STORAGE_MIN_FREE_BYTES: '0',
    STORAGE_MIN_FREE_PERCENT: '0',
  });

/** A multipart publish of one picture, sent in two halves with `between` awaited in the middle (300 ms after the first); resolves with the status. */
async function publishInTwoHalves(url: string, between: () => Promise<void>): Promise<{ status: number; body: string }> {
  const form = buildUploadForm([{ name: 'pier.jpg', type: 'image/jpeg', bytes: await makeJpeg(640, 480, 9) }], { title: 'Pier at dusk' });
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/api/upload`,
      { method: 'POST', headers: { 'content-type': encoded.headers.get('content-type')!, 'content-length': String(body.length) } },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.write(body.subarray(0, body.length >> 1));
    // The server has the request (its headers and the first half) before `between` runs.
    setTimeout(() => void between().then(() => req.end(body.subarray(body.length >> 1))), 300);
  });
}

const isConnectionError = (error: unknown) => error instanceof TypeError; // fetch's 'fetch failed': refused or reset

describe('SIGTERM to an API process', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const start = async (graceSeconds: number) => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-sigterm-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const api = await startApi(dataDir, graceSeconds);
    cleanups.push(async () => {
      if (api.child.exitCode === null && api.child.signalCode === null) {
        api.child.kill('SIGKILL');
        await once(api.child, 'exit');
      }
    });
    return { api, dataDir };
  };

  it('under load: finishes what is in flight, loses no acknowledged write, answers no 5xx, and exits 0', async () => {
    const { api, dataDir } = await start(10);
    // A live site with comments and analytics on.
    const published = await fetch(`${api.url}/api/upload`, {
      method: 'POST',
      body: buildUploadForm([{ name: 'harbour.jpg', type: 'image/jpeg', bytes: await makeJpeg(320, 240, 4) }], {
        title: 'Harbour',
        settings: JSON.stringify({ enableComments: true, enableAnalytics: true }),
      }),
    });
    expect(published.status).toBe(201);
    const { slug } = (await published.json()) as { slug: string };
    const db = new Database(path.join(dataDir, 'dropsite.db'), { readonly: true, fileMustExist: true });
    cleanups.push(async () => {
      db.close();
    });
    const site = db.prepare('select id from projects where slug = ?').get(slug) as { id: string };
    const file = db.prepare('select id from files where project_id = ?').get(site.id) as { id: string };

    const statuses: number[] = [];
    let comments = 0;
    let views = 0;
    let stopped = false;
    const client = async (n: number) => {
      for (let i = 0; !stopped; i++) {
        try {
          if (i % 2 === 0) {
            const res = await fetch(`${api.url}/api/comments`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ projectId: site.id, fileId: file.id, commentText: `client ${n} comment ${i}` }),
            });
            statuses.push(res.status);
            if (res.status === 201) comments++;
          } else {
            // No cookie: a new visitor each time, so every view counts once.
            const res = await fetch(`${api.url}/api/analytics/view`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ projectId: site.id }),
            });
            statuses.push(res.status);
            if (res.status === 200 && ((await res.json()) as { counted?: boolean }).counted) views++;
          }
        } catch (error) {
          if (!isConnectionError(error)) throw error;
          return; // the server has stopped taking connections
        }
      }
    };
    const clients = Array.from({ length: 12 }, (_, n) => client(n));
    // The signal comes under load: once the clients have had a few dozen answers.
    await expect.poll(() => statuses.length, { timeout: 20_000, interval: 20 }).toBeGreaterThanOrEqual(24);
    let signalled: () => void = () => {};
    const signal = new Promise<void>((resolve) => (signalled = resolve));
    let shutdownBegun: () => void = () => {};
    const refusing = new Promise<void>((resolve) => (shutdownBegun = resolve));
    const upload = publishInTwoHalves(api.url, async () => {
      api.child.kill('SIGTERM');
      signalled();
      // The second half arrives after the signal, once shutdown has begun, inside the grace period.
      await refusing;
    });
    await signal;
    // A new connection is refused once shutdown has begun.
    await expect
      .poll(
        () =>
          fetch(`${api.url}/healthz`, { headers: { connection: 'close' } }).then(
            () => 'answered',
            () => 'refused',
          ),
        { timeout: 2_000, interval: 20 },
      )
      .toBe('refused');
    shutdownBegun();
    const [exit] = await Promise.all([once(api.child, 'close'), (async () => expect((await upload).status).toBe(201))()]);
    stopped = true;
    await Promise.all(clients);

    expect(exit).toEqual([0, null]);
    expect(statuses.length).toBeGreaterThan(50);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(api.output()).toMatch(/"msg":"stopped"/);
    const counted = (sql: string) => (db.prepare(sql).get(site.id) as { n: number }).n;
    expect(counted('select count(*) as n from comments where project_id = ?')).toBe(comments);
    expect(counted("select count(*) as n from analytics_events where project_id = ? and type = 'view'")).toBe(views);
    // The upload that straddled the signal was published (its site waits for a build at the next start).
    expect((db.prepare('select count(*) as n from projects').get() as { n: number }).n).toBe(2);
  }, 90_000);

  it('cuts off an upload that stalls past the grace period, and exits 0 soon after it', async () => {
    const { api } = await start(1);
    const closed = once(api.child, 'close');
    // The second half never comes while the API runs: it must stop without it, at the end of its grace period.
    const stalled = publishInTwoHalves(api.url, async () => {
      api.child.kill('SIGTERM');
      await closed;
    }).catch((error: unknown) => error);
    const [exit] = await closed;
    expect(exit).toBe(0);
    expect(await stalled).toBeInstanceOf(Error);
    expect(api.output()).toMatch(/"cutOff":1/);
  }, 60_000);
});
