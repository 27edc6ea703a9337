/**
 * The regular publish call (spec 7.3 'Regular'): one multipart POST /api/upload sent with
 * XMLHttpRequest, because fetch cannot report upload progress.
 */
import { ZUploadResponseSchema, type TSiteSettings, type TTemplateId } from '@dropsite/shared';

export const UPLOAD_ENDPOINT = '/api/upload';
export const UPLOAD_FAILED_MESSAGE = 'Upload failed. Please try again.';

/** The wizard's defaults (spec 9): analytics on, every other engagement feature off. */
export const DEFAULT_UPLOAD_SETTINGS = {
  enableFavorites: false,
  enableComments: false,
  enableApprovals: false,
  enableAnalytics: true,
  enableNotifications: false,
} as const satisfies Partial<TSiteSettings>;

export interface TUploadRequest {
  files: readonly File[];
  title: string;
  description?: string;
  authorName?: string;
  template?: TTemplateId;
}

export interface TUploadProgress {
  /** Bytes of the request body sent so far. */
  loaded: number;
  /** Size of the whole request body, multipart framing included. */
  total: number;
}

export type TUploadOutcome = { ok: true; url: string; slug: string } | { ok: false; error: string };

export interface TUploadOptions {
  onProgress?: (progress: TUploadProgress) => void;
  /** Called once the last byte has left the browser; the server still has to answer. */
  onUploadComplete?: () => void;
  signal?: AbortSignal;
  endpoint?: string;
  /** Seam for tests. */
  createRequest?: () => XMLHttpRequest;
}

/**
 * Builds the multipart body. Text fields come before the files so the server knows the
 * site's title and settings before the first file byte arrives.
 */
export function buildUploadForm(request: TUploadRequest): FormData {
  const form = new FormData();
  form.append('title', request.title.trim());
  form.append('description', (request.description ?? '').trim());
  form.append('template', request.template ?? 'universal');
  form.append('authorName', (request.authorName ?? '').trim());
  form.append('settings', JSON.stringify(DEFAULT_UPLOAD_SETTINGS));
  form.append('filesMetadata', JSON.stringify(request.files.map((f) => ({ name: f.name, type: f.type, size: f.size }))));
  for (const file of request.files) form.append('files', file, file.name);
  return form;
}

/** Reads the server's reply; anything that is not a well-formed success becomes a message for the creator. */
export function parseUploadReply(status: number, body: string): TUploadOutcome {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, error: UPLOAD_FAILED_MESSAGE };
  }
  const reply = ZUploadResponseSchema.safeParse(json);
  if (!reply.success) return { ok: false, error: UPLOAD_FAILED_MESSAGE };
  if (!reply.data.success) return { ok: false, error: reply.data.error.trim() || UPLOAD_FAILED_MESSAGE };
  if (status < 200 || status >= 300 || reply.data.slug === '') return { ok: false, error: UPLOAD_FAILED_MESSAGE };
  return { ok: true, url: reply.data.url, slug: reply.data.slug };
}

/**
 * Sends the files. Resolves with the outcome (a failed upload is an outcome, not an exception);
 * rejects only with an AbortError when `signal` aborts.
 */
export function uploadFiles(request: TUploadRequest, options: TUploadOptions = {}): Promise<TUploadOutcome> {
  const { onProgress, onUploadComplete, signal, endpoint = UPLOAD_ENDPOINT } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const xhr = options.createRequest?.() ?? new XMLHttpRequest();
    const onAbortSignal = () => xhr.abort();
    const settle = () => signal?.removeEventListener('abort', onAbortSignal);

    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress?.({ loaded: event.loaded, total: event.total });
    });
    xhr.upload.addEventListener('load', () => onUploadComplete?.());
    xhr.addEventListener('load', () => {
      settle();
      resolve(parseUploadReply(xhr.status, xhr.responseText));
    });
    xhr.addEventListener('error', () => {
      settle();
      resolve({ ok: false, error: UPLOAD_FAILED_MESSAGE });
    });
    xhr.addEventListener('timeout', () => {
      settle();
      resolve({ ok: false, error: UPLOAD_FAILED_MESSAGE });
    });
    xhr.addEventListener('abort', () => {
      settle();
      reject(abortError());
    });
    signal?.addEventListener('abort', onAbortSignal, { once: true });

    xhr.open('POST', endpoint);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.send(buildUploadForm(request));
  });
}

function abortError(): DOMException {
  return new DOMException('The upload was cancelled.', 'AbortError');
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
