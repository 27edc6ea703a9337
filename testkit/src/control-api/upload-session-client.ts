/** The resumable upload calls as a client makes them, for tests and benchmarks. */
import { request as httpRequest } from 'node:http';
import { CHUNK_SIZE } from '@dropsite/shared';
import { crc32Base64, sha256 } from '../bytes.ts';

export type TJson = Record<string, unknown> & {
  success?: boolean;
  error?: string;
  code?: string;
};

export interface TReply {
  status: number;
  body: TJson;
  headers: Headers;
}

export function chunkOf(bytes: Uint8Array, index: number, chunkSize = CHUNK_SIZE): Uint8Array {
  return bytes.subarray(index * chunkSize, Math.min(bytes.byteLength, (index + 1) * chunkSize));
}

export async function callJson(baseUrl: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<TReply> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as TJson) : {}, headers: res.headers };
}

export const FORM = {
  title: 'Launch film',
  description: 'Final cut and stills',
  template: 'universal',
  authorName: 'Mara Lind',
  settings: { enableAnalytics: true, enableComments: true },
};

export interface TDeclaredFile {
  name: string;
  bytes: Uint8Array;
  type?: string;
  declareSha?: boolean;
}

export function declare(files: readonly TDeclaredFile[]) {
  return files.map((f) => ({ name: f.name, size: f.bytes.byteLength, type: f.type ?? 'application/octet-stream', ...(f.declareSha ? { sha256: sha256(f.bytes) } : {}) }));
}

export async function initChunked(baseUrl: string, files: readonly TDeclaredFile[], extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return callJson(baseUrl, 'POST', '/api/chunked-upload/init', { ...FORM, files: declare(files), ...extra }, headers);
}

export async function initDirect(baseUrl: string, files: readonly TDeclaredFile[], metadata: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return callJson(baseUrl, 'POST', '/api/direct-upload/init', { files: declare(files), metadata: { ...FORM, ...metadata } }, headers);
}

export async function sendChunk(
  baseUrl: string,
  uploadUrl: string,
  index: number,
  bytes: Uint8Array,
  options: { sha?: string; crc32?: string | false; last?: boolean; query?: string } = {},
): Promise<TReply> {
  const headers: Record<string, string> = { 'content-type': 'application/octet-stream' };
  // The CRC-32 as the wizard sends it (unless `crc32` is false); a SHA-256 only as older clients send it, when `sha` gives one.
  if (options.crc32 !== false) headers['x-chunk-crc32'] = options.crc32 ?? crc32Base64(bytes);
  if (options.sha !== undefined) headers['x-chunk-sha256'] = options.sha;
  const query = options.query ?? `chunk=${index}${options.last === undefined ? '' : `&last=${options.last}`}`;
  const res = await fetch(`${baseUrl}${uploadUrl}?${query}`, { method: 'POST', headers, body: new Uint8Array(bytes) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as TJson) : {}, headers: res.headers };
}

export async function completeSession(baseUrl: string, sessionId: string, files?: Array<{ fileId: string; sha256: string }>, path = '/api/chunked-upload/complete') {
  return callJson(baseUrl, 'POST', path, { sessionId, ...(files ? { files } : {}) });
}

export async function sessionStatus(baseUrl: string, sessionId: string) {
  return callJson(baseUrl, 'GET', `/api/upload-session/status?sessionId=${encodeURIComponent(sessionId)}`);
}

/** A request whose headers and body the test writes itself (no Content-Length, a body cut short…). */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Uint8Array; endEarly?: boolean },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'POST', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.body) req.write(options.body);
    if (!options.endEarly) req.end();
  });
}
