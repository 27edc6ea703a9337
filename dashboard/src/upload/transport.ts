/**
 * One seam for every request the upload client makes. XMLHttpRequest, because fetch cannot
 * report upload progress; tests pass a fake transport instead.
 */
import { createAbortError } from './upload-errors.ts';

export interface TTransportRequest {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  headers?: Record<string, string>;
  body?: Blob | FormData | string | ArrayBuffer | Uint8Array<ArrayBuffer>;
  /** Bytes of the body sent so far. */
  onUploadProgress?: (loaded: number, total: number) => void;
  /** The last body byte left the browser; the server still has to answer. */
  onUploadComplete?: () => void;
  signal?: AbortSignal;
}

export interface TTransportResponse {
  /** 0 when no reply arrived (network failure). */
  status: number;
  text: string;
}

/** Resolves with any reply, 0 for a network failure; rejects only with an AbortError. */
export type TTransport = (request: TTransportRequest) => Promise<TTransportResponse>;

export function createXhrTransport(createRequest: () => XMLHttpRequest = () => new XMLHttpRequest()): TTransport {
  return (request) =>
    new Promise((resolve, reject) => {
      const { signal } = request;
      if (signal?.aborted) {
        reject(createAbortError());
        return;
      }
      const xhr = createRequest();
      const onAbortSignal = () => xhr.abort();
      const settle = () => signal?.removeEventListener('abort', onAbortSignal);

      xhr.upload.addEventListener('progress', (event) => {
        if (event.lengthComputable) request.onUploadProgress?.(event.loaded, event.total);
      });
      xhr.upload.addEventListener('load', () => request.onUploadComplete?.());
      xhr.addEventListener('load', () => {
        settle();
        resolve({ status: xhr.status, text: xhr.responseText });
      });
      const fail = () => {
        settle();
        resolve({ status: 0, text: '' });
      };
      xhr.addEventListener('error', fail);
      xhr.addEventListener('timeout', fail);
      xhr.addEventListener('abort', () => {
        settle();
        reject(createAbortError());
      });
      signal?.addEventListener('abort', onAbortSignal, { once: true });

      xhr.open(request.method, request.url);
      for (const [name, value] of Object.entries(request.headers ?? {})) xhr.setRequestHeader(name, value);
      xhr.send(request.body ?? null);
    });
}

/** JSON body helper. */
export function jsonRequest(method: 'POST', url: string, body: unknown, signal?: AbortSignal): TTransportRequest {
  return { method, url, headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body), ...(signal ? { signal } : {}) };
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
