/** Test helper: one HTTP request with headers fetch will not send as given (Host, Content-Encoding). */
import http from 'node:http';

export interface TRawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export function rawRequest(url: string, options: { method?: string; path: string; headers?: Record<string, string>; body?: Buffer | string }): Promise<TRawResponse> {
  const target = new URL(options.path, url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { hostname: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: options.method ?? 'POST', headers: options.headers ?? {}, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
