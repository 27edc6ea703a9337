/** The publish error catalogue (spec 8): one error type carrying the message the spec words. */
import { readErrorEnvelope } from '@dropsite/shared/browser/api-client';

/** What the creator is told whenever publishing fails; the specific message is shown beneath it. */
export const PUBLISH_FAILED_MESSAGE = 'Upload failed. Please try again.';

/** Fallbacks used when the backend sends no `error` field (spec 8, 'Backend error field present'). */
export const FALLBACK_MESSAGES = {
  init: 'Failed to initialize upload',
  complete: 'Failed to complete upload',
  chunk: 'Chunk upload failed',
  direct: 'Direct upload failed',
  directChunked: 'Direct chunked upload failed',
  regular: 'Upload failed',
} as const;

export const UPLOAD_MESSAGES = {
  initStatus: (status: number) => `Failed to initialize upload: ${status}`,
  completeStatus: (status: number) => `Failed to complete upload: ${status}`,
  chunkStatus: (status: number) => `Upload failed with status ${status}`,
  noChunkUrl: (n: number) => `Failed to get upload URL for chunk ${n}`,
  chunkFailed: (n: number) => `Chunk ${n} upload failed`,
  incomplete: (done: number, total: number, failed: number) => `Upload incomplete: ${done}/${total} chunks, ${failed} failed`,
  notInitialized: 'Upload session not initialized',
  alreadyRunning: 'Upload already in progress',
} as const;

export interface TUploadErrorOptions {
  /** HTTP status of the reply that failed, 0 for a network failure. */
  status?: number;
  /** Worth trying again as it is (network drop, 5xx, 408, 429). */
  isRetryable?: boolean;
  /** The upload session is gone on the server: resuming it can never work. */
  isSessionLost?: boolean;
  cause?: unknown;
}

export class UploadError extends Error {
  readonly status: number;
  readonly isRetryable: boolean;
  readonly isSessionLost: boolean;

  constructor(message: string, options: TUploadErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'UploadError';
    this.status = options.status ?? 0;
    this.isRetryable = options.isRetryable ?? false;
    this.isSessionLost = options.isSessionLost ?? false;
  }
}

/** Statuses a retry of the same request can cure. */
export function isRetryableStatus(status: number): boolean {
  return status === 0 || status === 408 || status === 429 || status >= 500;
}

/** The backend's `error` text when the body is its JSON error shape. */
export function readBackendError(body: string): string | null {
  try {
    const message = readErrorEnvelope(JSON.parse(body))?.trim();
    if (message) return message;
  } catch {
    // not JSON: an HTML error page from a proxy, for example
  }
  return null;
}

export function createAbortError(): DOMException {
  return new DOMException('The upload was cancelled.', 'AbortError');
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** The message to show under the generic one; never repeats it. */
export function describePublishError(error: unknown): string | null {
  const message = error instanceof Error ? error.message.trim() : '';
  if (!message || message === PUBLISH_FAILED_MESSAGE || isAbortError(error)) return null;
  return message;
}
