/**
 * Helpers for the security suite (`npm run test:security`): requests sent byte for byte as an
 * attacker would write them, a record of every storage call, hand-written multipart bodies, and
 * the checks every refusal must pass (our JSON error shape, no stack trace, no internal path).
 */
import http from 'node:http';
import { expect } from 'vitest';
import type { Storage } from '@dropsite/control-api';

export interface TRawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Header lines exactly as received, name then value. */
  rawHeaders: string[];
  body: Buffer;
  text: string;
}

/**
 * One request with its path sent exactly as given. fetch() and URL normalise `..`, `%2e%2e` and
 * backslashes before sending; an attacker's client does not.
 */
export function rawRequest(baseUrl: string, path: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<TRawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method: options.method ?? 'GET', path, headers: { connection: 'close', ...options.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, rawHeaders: res.rawHeaders, body, text: body.toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const STORAGE_METHODS = [
  'put',
  'get',
  'hashObject',
  'head',
  'delete',
  'deletePrefix',
  'list',
  'createMultipartUpload',
  'putPart',
  'listParts',
  'completeMultipartUpload',
  'abortMultipartUpload',
  'listMultipartUploads',
] as const;

export interface TStorageRecorder {
  /** Keys (or prefixes) of the calls since the last reset, as `method key`. */
  calls: string[];
  reset(): void;
  restore(): void;
}

/** Records every call on a storage object (the app's routes read deps.storage on each request). */
export function recordStorageCalls(storage: Storage): TStorageRecorder {
  const calls: string[] = [];
  const target = storage as unknown as Record<string, (...args: unknown[]) => unknown>;
  const originals = new Map<string, (...args: unknown[]) => unknown>();
  for (const method of STORAGE_METHODS) {
    const original = target[method];
    if (typeof original !== 'function') continue;
    originals.set(method, original);
    target[method] = function (this: unknown, ...args: unknown[]) {
      const first = args[0];
      const key = typeof first === 'string' ? first : typeof first === 'object' && first !== null && 'key' in first ? String((first as { key: unknown }).key) : '?';
      calls.push(`${method} ${key}`);
      return original.apply(this, args);
    };
  }
  return {
    calls,
    reset: () => void calls.splice(0, calls.length),
    restore: () => {
      for (const [method, original] of originals) target[method] = original;
    },
  };
}

/** What an error body must never carry: stack frames, source paths, driver messages. */
const LEAK_PATTERNS = [/\n\s+at\s/, /\bat [\w.<>]+ \(/, /node_modules/, /\.ts:\d+/, /\/work\/|\/home\/|\/tmp\//, /SqliteError|SQLITE_|ENOENT|EACCES|TypeError|ReferenceError/];

export function expectNoLeak(text: string, what = 'body'): void {
  for (const pattern of LEAK_PATTERNS) expect(text, `${what} leaks ${pattern}`).not.toMatch(pattern);
}

/** A refusal in our one error shape `{ success: false, error, code }`, with the given status. */
export function expectApiError(status: number, text: string, expected: { status: number | number[]; code?: string }, what = ''): void {
  const statuses = Array.isArray(expected.status) ? expected.status : [expected.status];
  expect(statuses, `${what} answered ${status}: ${text.slice(0, 200)}`).toContain(status);
  expectNoLeak(text, what);
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(body.success, what).toBe(false);
  expect(typeof body.error, what).toBe('string');
  expect(typeof body.code, what).toBe('string');
  if (expected.code) expect(body.code, what).toBe(expected.code);
}

export interface TMultipartPart {
  name: string;
  /** Written into the part's Content-Disposition as is (quote it yourself), e.g. `filename="a.jpg"`. */
  dispositionExtra?: string;
  contentType?: string;
  data: string | Buffer;
}

/** A multipart/form-data body written by hand, so names can hold what FormData would escape. */
export function multipartBody(parts: TMultipartPart[], boundary = `----dropsite${Date.now().toString(16)}`): { body: Buffer; contentType: string } {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.dispositionExtra) head += `; ${part.dispositionExtra}`;
    head += '\r\n';
    if (part.contentType) head += `Content-Type: ${part.contentType}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`, 'utf8'), typeof part.data === 'string' ? Buffer.from(part.data, 'utf8') : part.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The form fields of a regular publish, for hand-written multipart bodies. */
export function publishFields(files: Array<{ name: string; type: string; size: number }>, extra: Record<string, string> = {}): TMultipartPart[] {
  const fields: Record<string, string> = {
    title: 'Security suite',
    description: 'Files an attacker would upload',
    template: 'universal',
    authorName: 'Mara Lind',
    settings: JSON.stringify({ enableAnalytics: true }),
    filesMetadata: JSON.stringify(files),
    ...extra,
  };
  return Object.entries(fields).map(([name, data]) => ({ name, data }));
}
