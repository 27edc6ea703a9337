import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { sendStoredBody } from './send-compressed.ts';

/** A stored object that never ends by itself, as a large file read slowly would. */
function endlessBody(): Readable {
  return new Readable({
    read() {
      setTimeout(() => this.push(Buffer.alloc(64 * 1024, 0x61)), 5);
    },
  });
}

describe('sendStoredBody', () => {
  let server: http.Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function serve(body: Readable, contentType: string): Promise<string> {
    const app = express();
    app.get('/object', (req, res) => void sendStoredBody(req, res, body, 1 << 30, contentType));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server?.once('listening', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/object`;
  }

  for (const [what, contentType, acceptEncoding] of [
    ['sent as it is', 'application/octet-stream', 'identity'],
    ['gzipped', 'text/html', 'gzip'],
  ] as const) {
    it(`closes the stored object when the client goes away mid-transfer (${what})`, async () => {
      const body = endlessBody();
      const url = await serve(body, contentType);
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
      await expect.poll(() => body.destroyed, { timeout: 5000 }).toBe(true);
    });
  }
});
