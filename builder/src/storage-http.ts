/**
 * Serves one stored object on a loopback HTTP URL with byte ranges, so ffprobe and ffmpeg read
 * only the parts they need (the moov atom, one frame) instead of the builder copying a
 * multi-gigabyte video to a temp file first. The URL holds a random 128-bit token and the
 * server answers nothing else; it lives only as long as one derivation.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseRange } from '@dropsite/shared';
import type { BuilderStorage } from './types.ts';

export interface TServedObject {
  url: string;
  /** How many requests the tools made (for tests and logs). */
  readonly requests: number;
  close(): Promise<void>;
}

export async function serveObjectOnLoopback(storage: BuilderStorage, key: string, size: number): Promise<TServedObject> {
  const token = randomBytes(16).toString('hex');
  const path = `/${token}`;
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    if (req.url !== path || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404).end();
      return;
    }
    const parsed = parseRange(req.headers.range, size);
    if (parsed.kind === 'unsatisfiable') {
      res.writeHead(416, { 'Content-Range': `bytes */${size}` }).end();
      return;
    }
    const range = parsed.kind === 'range' ? { start: parsed.start, end: parsed.end } : null;
    const headers: Record<string, string> = { 'Accept-Ranges': 'bytes', 'Content-Type': 'application/octet-stream' };
    if (range) {
      headers['Content-Range'] = `bytes ${range.start}-${range.end}/${size}`;
      headers['Content-Length'] = String(range.end - range.start + 1);
    } else {
      headers['Content-Length'] = String(size);
    }
    if (req.method === 'HEAD' || size === 0) {
      res.writeHead(range ? 206 : 200, headers).end();
      return;
    }
    storage.get(key, range ?? undefined).then(
      (object) => {
        res.writeHead(range ? 206 : 200, headers);
        // ffmpeg drops the connection whenever it seeks: stop reading storage then.
        res.on('close', () => object.body.destroy());
        object.body.on('error', () => res.destroy());
        object.body.pipe(res);
      },
      () => {
        res.writeHead(500).end();
      },
    );
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
