/**
 * /readyz on the public port tells a visitor only whether the process is ready: which checks run
 * (database, migrations, queue, store) and which of them fails is told on the private OPS_PORT
 * listener alone.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { createOpsServer } from './ops-endpoints.ts';

let app: TTestApp;
beforeAll(async () => {
  app = await startTestApp({ startWorker: false });
});
afterAll(() => app?.close());

it('names no check on the public port, ready or not; the private listener names the failing one', async () => {
  const head = vi.spyOn(app.deps.storage, 'head').mockRejectedValue(new Error('connect ECONNREFUSED 10.0.0.7:9000'));
  const server = createOpsServer(app.deps);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  try {
    const res = await fetch(`${app.url}/readyz`);
    expect(res.status).toBe(503);
    const body = await res.text();
    expect(JSON.parse(body)).toEqual({ status: 'not ready' });
    for (const word of ['storage', 'database', 'queue', 'migrations', 'checks', '10.0.0.7']) expect(body).not.toContain(word);

    const ops = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/readyz`);
    expect(ops.status).toBe(503);
    expect(((await ops.json()) as { checks: Record<string, string> }).checks.storage).toBe('unreachable');
  } finally {
    head.mockRestore();
    server.close();
  }
  await expect.poll(async () => (await fetch(`${app.url}/readyz`)).status, { timeout: 10_000 }).toBe(200);
  expect(await (await fetch(`${app.url}/readyz`)).json()).toEqual({ status: 'ready' });
});
