import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSegmentsOf, createApiDispatch } from './api-dispatch.ts';

describe('API routers met by their segment', () => {
  /** Which routers a request met, in order. */
  const met: string[] = [];
  let url: string;
  let close: () => Promise<void>;

  const files = express.Router();
  files.use('/api/files', (_req, _res, next) => {
    met.push('files middleware');
    next();
  });
  files.get('/api/files/:id', (req, res) => {
    met.push('files');
    res.json({ id: req.params.id });
  });
  const engagement = express.Router();
  engagement.post('/api/favorites', (_req, res) => {
    met.push('favorites');
    res.status(201).json({ ok: true });
  });
  engagement.get('/api/engagement/state', (_req, _res, next) => {
    met.push('state fails');
    next(new Error('state failed'));
  });
  engagement.get('/api/files/:id/extra', (_req, res) => {
    met.push('engagement files');
    res.json({ extra: true });
  });
  /** One that cannot be read: a parameter for the segment. */
  const anywhere = express.Router();
  anywhere.get('/api/:section/ping', (req, res) => {
    met.push('anywhere');
    res.json({ section: req.params.section });
  });
  const leaving = express.Router();
  leaving.get('/api/favorites', (_req, _res, next) => {
    met.push('leaving');
    next('router');
  });

  beforeAll(async () => {
    const app = express();
    app.use(createApiDispatch([leaving, engagement, anywhere, files]));
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

  it('reads the segments each router answers, and none of one whose segment is a pattern', () => {
    expect(apiSegmentsOf(files)).toEqual(new Set(['files']));
    expect(apiSegmentsOf(engagement)).toEqual(new Set(['favorites', 'engagement', 'files']));
    expect(apiSegmentsOf(anywhere)).toBeNull();
  });

  it('answers through the routers of the segment, in their order, with their middleware', async () => {
    expect(await ask('GET', '/api/files/abc/extra')).toEqual({ status: 200, body: { extra: true }, met: ['engagement files'] });
    expect(await ask('GET', '/api/files/abc')).toEqual({ status: 200, body: { id: 'abc' }, met: ['files middleware', 'files'] });
    // Without regard to case, as Express matches.
    expect(await ask('GET', '/API/Files/abc')).toEqual({ status: 200, body: { id: 'abc' }, met: ['files middleware', 'files'] });
  });

  it("goes on to the next router when one says next('router') or has no route", async () => {
    expect(await ask('GET', '/api/favorites')).toEqual({ status: 404, body: { error: 'not found' }, met: ['leaving', 'not found'] });
    expect(await ask('POST', '/api/favorites')).toEqual({ status: 201, body: { ok: true }, met: ['favorites'] });
  });

  it('lets a router whose paths it cannot read meet every request, and passes errors on', async () => {
    expect(await ask('GET', '/api/anything/ping')).toEqual({ status: 200, body: { section: 'anything' }, met: ['anywhere'] });
    expect(await ask('GET', '/api/files/ping')).toEqual({ status: 200, body: { section: 'files' }, met: ['anywhere'] });
    expect(await ask('GET', '/api/engagement/state')).toEqual({ status: 500, body: { error: 'state failed' }, met: ['state fails'] });
    expect(await ask('GET', '/api/unknown')).toEqual({ status: 404, body: { error: 'not found' }, met: ['not found'] });
    expect(await ask('GET', '/files/abc')).toEqual({ status: 404, body: { error: 'not found' }, met: ['not found'] });
  });
});
