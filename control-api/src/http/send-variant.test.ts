import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import express, { type RequestHandler } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { ifNoneMatchMatches } from './conditional.ts';
import { acceptableCodings, type TContentCoding } from './content-coding.ts';
import { sendVariant, type TVariantSource } from './send-variant.ts';

/** A stored object that never ends by itself, as a large file read slowly would. */
function endlessBody(): Readable {
  return new Readable({
    read() {
      setTimeout(() => this.push(Buffer.alloc(64 * 1024, 0x61)), 5);
    },
  });
}

/** A source with the given variants stored (bytes and tag), each read from memory. */
function memorySource(stored: Partial<Record<TContentCoding, { body: () => Readable; size: number; etag?: string }>>): TVariantSource {
  return {
    codings: ['br', 'gzip'],
    async open(coding) {
      const variant = stored[coding];
      return variant ? { body: variant.body(), size: variant.size, etag: variant.etag } : null;
    },
    async stat(coding) {
      const variant = stored[coding];
      return variant ? { size: variant.size, etag: variant.etag } : null;
    },
  };
}

describe('acceptableCodings', () => {
  const all: TContentCoding[] = ['br', 'gzip', 'identity'];
  it.each([
    ['gzip, deflate, br', ['br', 'gzip', 'identity']],
    ['gzip, br;q=0', ['gzip', 'identity']],
    ['br;q=0.2, gzip;q=0.9', ['gzip', 'br', 'identity']],
    ['identity;q=1, gzip;q=0.5', ['identity', 'gzip']],
    ['gzip, identity;q=0', ['gzip']],
    ['*;q=0.5, gzip;q=0', ['br', 'identity']],
    ['*;q=0', []],
    ['x-gzip', ['gzip', 'identity']],
    ['gzip;q=2, br;q=abc, gzip;q=0.4', ['gzip', 'identity']],
    ['', ['identity']],
  ] as const)('%j accepts %j', (header, expected) => {
    expect(acceptableCodings(header, all)).toEqual(expected);
  });

  it('sends identity to a client that sent no Accept-Encoding', () => {
    expect(acceptableCodings(undefined, all)).toEqual(['identity']);
  });
});

describe('ifNoneMatchMatches', () => {
  it.each([
    ['"a1"', true],
    ['W/"a1"', true],
    ['"x", W/"a1" , "y"', true],
    ['*', true],
    ['"a2"', false],
    ['a1', false],
    ['"x", "y"', false],
    ['', false],
  ] as const)('If-None-Match: %s against "a1": %s', (header, matches) => {
    expect(ifNoneMatchMatches(header, '"a1"')).toBe(matches);
  });

  it('matches nothing without a header or an ETag', () => {
    expect(ifNoneMatchMatches(undefined, '"a1"')).toBe(false);
    expect(ifNoneMatchMatches('*', undefined)).toBe(false);
  });
});

describe('sendVariant', () => {
  let server: http.Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function serve(source: TVariantSource, before: RequestHandler = (_req, _res, next) => next()): Promise<string> {
    const app = express();
    app.get('/object', before, (req, res) => void sendVariant(req, res, source));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server?.once('listening', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/object`;
  }

  for (const [what, acceptEncoding] of [
    ['sent as it is', 'identity'],
    ['its Brotli variant', 'br'],
  ] as const) {
    it(`closes the stored object when the client goes away mid-transfer (${what})`, async () => {
      const bodies: Readable[] = [];
      const endless = () => {
        const body = endlessBody();
        bodies.push(body);
        return body;
      };
      const url = await serve(memorySource({ identity: { body: endless, size: 1 << 30 }, br: { body: endless, size: 1 << 30 } }));
      await new Promise<void>((resolve, reject) => {
        const req = http.get(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', () => {});
        req.setTimeout(5000, () => reject(new Error('no data')));
      });
      await expect.poll(() => bodies.length === 1 && bodies[0]!.destroyed, { timeout: 5000 }).toBe(true);
    });
  }

  it('closes the stored object when the client left while it was being opened', async () => {
    const bodies: Readable[] = [];
    let opening = () => {};
    const asked = new Promise<void>((resolve) => {
      opening = resolve;
    });
    let clientGone = () => {};
    const gone = new Promise<void>((resolve) => {
      clientGone = resolve;
    });
    const url = await serve(
      {
        ...memorySource({}),
        async open() {
          opening();
          await gone; // the object opens only after the server saw the client go away
          const body = endlessBody();
          bodies.push(body);
          return { body, size: 1 << 30, etag: undefined };
        },
      },
      (_req, res, next) => {
        res.once('close', clientGone);
        next();
      },
    );
    const req = http.get(url);
    req.on('error', () => {});
    await asked;
    req.destroy();
    await expect.poll(() => bodies.length === 1 && bodies[0]!.destroyed, { timeout: 5000 }).toBe(true);
  });

  it('withholds a cookie from a response any cache may keep, and keeps it on a private one', async () => {
    const source = memorySource({ identity: { body: () => Readable.from([Buffer.from('page')]), size: 4, etag: 'tag' } });
    for (const [cacheControl, keeps] of [
      ['public, max-age=0, must-revalidate', false],
      ['private, no-cache', true],
    ] as const) {
      const url = await serve(source, (_req, res, next) => {
        res.cookie('renewed', 'session');
        res.set('Cache-Control', cacheControl);
        next();
      });
      const res = await fetch(url);
      expect(await res.text()).toBe('page');
      expect(res.headers.get('set-cookie') !== null, cacheControl).toBe(keeps);
      await new Promise<void>((resolve) => server!.close(() => resolve()));
      server = undefined;
    }
  });
  it('sends bytes the source holds in memory as they are, in one write, without reading its stream', async () => {
    const bytes = Buffer.from('<!doctype html><p>kept in memory</p>');
    let streamRead = false;
    const body = new Readable({
      read() {
        streamRead = true;
        this.push(null);
      },
    });
    const url = await serve({
      codings: ['br', 'gzip'],
      async open(coding) {
        return coding === 'identity' ? { body, bytes, size: bytes.length, etag: 'm1' } : null;
      },
      async stat(coding) {
        return coding === 'identity' ? { size: bytes.length, etag: 'm1' } : null;
      },
    });
    const res = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(res.headers.get('etag')).toBe('"m1"');
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    expect(streamRead).toBe(false);
    const head = await fetch(url, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
    expect(head.headers.get('content-length')).toBe(String(bytes.length));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });
});
