/** Object storage behind one interface: local disk by default, S3-compatible when configured. */
import type { Readable } from 'node:stream';

export interface TObjectInfo {
  key: string;
  size: number;
  contentType: string | undefined;
  /** Last modification time in epoch milliseconds. */
  modifiedAt: number;
}

export interface TByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

export interface TPutOptions {
  contentType?: string;
  cacheControl?: string;
}

export interface TGetResult {
  body: Readable;
  /** Total size of the object (not of the range). */
  size: number;
  contentType: string | undefined;
  range: TByteRange | undefined;
}

export interface Storage {
  readonly driver: 'disk' | 's3';
  /**
   * Writes an object from a stream or bytes. The object becomes visible only once
   * it is whole: a failed or aborted put leaves no partial object behind.
   */
  put(key: string, body: Readable | Uint8Array | string, options?: TPutOptions): Promise<TObjectInfo>;
  /** Opens an object, or a byte range of it. Throws StorageNotFoundError when absent. */
  get(key: string, range?: TByteRange): Promise<TGetResult>;
  /** Size and type of an object, or null when it does not exist. */
  head(key: string): Promise<TObjectInfo | null>;
  /** Deletes one object; deleting a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Deletes every object whose key starts with the prefix; returns how many. */
  deletePrefix(prefix: string): Promise<number>;
  /** Lists objects whose key starts with the prefix, in key order. */
  list(prefix: string): AsyncIterable<TObjectInfo>;
  /** Releases connections and handles. */
  close(): Promise<void>;
}

export class StorageNotFoundError extends Error {
  readonly key: string;
  constructor(key: string) {
    super(`Object not found: ${key}`);
    this.name = 'StorageNotFoundError';
    this.key = key;
  }
}

/** Keys are made by the server only; this refuses anything that could escape a prefix. */
export function assertSafeKey(key: string): void {
  if (
    key.length === 0 ||
    key.length > 1024 ||
    key.startsWith('/') ||
    key.includes('\\') ||
    key.includes('\0') ||
    key.split('/').some((part) => part === '' || part === '.' || part === '..')
  ) {
    throw new Error(`Unsafe storage key: ${JSON.stringify(key)}`);
  }
}
