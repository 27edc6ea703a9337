/**
 * A visitor who leaves while a thumbnail is being opened (a closed tab, a gallery scrolled past, a
 * load generator stopping) must not leave the stored file open: each such handle stayed open until
 * the garbage collector found it, and under load they piled up by the hundred.
 */
import { request, type ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedSite } from '@dropsite/testkit/control-api/site-fixtures';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';

describe('a stored file whose client left while it was being opened', () => {
  let app: TTestApp;
  beforeAll(async () => {
    app = await startTestApp();
  }, 60_000);
  afterAll(() => app?.close());

  it('is closed at once, not left to the garbage collector', async () => {
    const site = await seedSite(app);
    const realGet = app.deps.storage.get.bind(app.deps.storage);
    let aborted: () => void = () => {};
    const clientGone = new Promise<void>((resolve) => (aborted = resolve));
    let body: Readable | undefined;
    let asked: () => void = () => {};
    const askedForObject = new Promise<void>((resolve) => (asked = resolve));
    const opened = new Promise<void>((resolve) => {
      vi.spyOn(app.deps.storage, 'get').mockImplementationOnce(async (key, range) => {
        asked();
        await clientGone; // the client is gone before the object is open
        const result = await realGet(key, range);
        body = result.body as Readable;
        resolve();
        return result;
      });
    });
    // The server sees the client go away before the object is open.
    app.server.once('request', (_req, res: ServerResponse) => res.once('close', aborted));
    const req = request(`${app.url}/api/files/${site.files[0]!.id}?mode=preview&size=300`);
    req.on('error', () => {});
    req.end();
    await askedForObject; // the request reached the server, which asks the store for the object
    req.destroy();
    await opened;
    await vi.waitFor(() => expect(body?.destroyed).toBe(true), { timeout: 2_000 });
    // The next visitor gets the thumbnail as usual.
    const res = await fetch(`${app.url}/api/files/${site.files[0]!.id}?mode=preview&size=300`);
    expect(res.status).toBe(200);
  });
});
