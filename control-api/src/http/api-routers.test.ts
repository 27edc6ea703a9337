import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiRouters, mountApiRouters } from './api-routers.ts';

describe('API routers mounted at their prefixes', () => {
  /** Which routers a request met, in order. */
  const met: string[] = [];
  let url: string;
  let close: () => Promise<void>;

  const files = createApiRouters();
  files.at('/api/files').use((_req, _res, next) => {
    met.push('files middleware');
    next();
  });
  files.at('/api/files').get('/:id', (req, res) => {
    met.push('files');
    res.json({ id: req.params.id });
  });
  const engagement = createApiRouters();
  engagement.at('/api/favorites').post('/', (_req, res) => {
    met.push('favorites');
    res.status(201).json({ ok: true });
  });
  engagement.at('/api/engagement').get('/state', (_req, _res, next) => {
    met.push('state fails');
    next(new Error('state failed'));
  });
  engagement.at('/api/files').get('/:id/extra', (_req, res) => {
    met.push('engagement files');
    res.json({ extra: true });
  });
  const leaving = createApiRouters();
  leaving.at('/api/favorites').get('/', (_req, _res, next) => {
    met.push('leaving');
    next('router');
  });

  beforeAll(async () => {
    const app = express();
    app.use((_req, _res, next) => {
      met.push('before');
      next();
    });
    mountApiRouters(app, leaving.routers, engagement.routers, files.routers);
    app.use((_req, res) => {
      met.push('not found');
      res.status(404).json({ error: 'not found' });
    });
    app.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(500).json({ error: err.message });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });
  afterAll(async () => {
    await close();
  });

  async function ask(method: string, path: string) {
    met.length = 0;
    const response = await fetch(url + path, { method });
    return { status: response.status, body: await response.json(), met: [...met] };
  }

  it('lists one router per prefix, in the order the prefixes were first asked for', () => {
    expect(engagement.routers.map(([prefix]) => prefix)).toEqual(['/api/favorites', '/api/engagement', '/api/files']);
    expect(files.at('/api/files')).toBe(files.routers[0]?.[1]);
  });

  it('answers through the routers of the prefix, in their order, with their middleware', async () => {
    expect(await ask('GET', '/api/files/abc/extra')).toEqual({ status: 200, body: { extra: true }, met: ['before', 'engagement files'] });
    expect(await ask('GET', '/api/files/abc')).toEqual({ status: 200, body: { id: 'abc' }, met: ['before', 'files middleware', 'files'] });
    // Without regard to case, as Express matches.
    expect(await ask('GET', '/API/Files/abc')).toEqual({ status: 200, body: { id: 'abc' }, met: ['before', 'files middleware', 'files'] });
  });

  it("goes on to the next router when one says next('router') or has no route, and passes errors on", async () => {
    expect(await ask('GET', '/api/favorites')).toEqual({ status: 404, body: { error: 'not found' }, met: ['before', 'leaving', 'not found'] });
    expect(await ask('POST', '/api/favorites')).toEqual({ status: 201, body: { ok: true }, met: ['before', 'favorites'] });
    expect(await ask('GET', '/api/engagement/state')).toEqual({ status: 500, body: { error: 'state failed' }, met: ['before', 'state fails'] });
  });

  it('lets a request of another prefix, or not under /api/, meet none of them', async () => {
    expect(await ask('GET', '/api/unknown')).toEqual({ status: 404, body: { error: 'not found' }, met: ['before', 'not found'] });
    expect(await ask('GET', '/api/filesx/abc')).toEqual({ status: 404, body: { error: 'not found' }, met: ['before', 'not found'] });
    expect(await ask('GET', '/files/abc')).toEqual({ status: 404, body: { error: 'not found' }, met: ['before', 'not found'] });
  });
});
