/** An in-memory BuilderStorage for tests: records every put in order. */
import { Readable } from 'node:stream';
import type { BuilderStorage } from '@dropsite/builder';
import { readAll } from '../bytes.ts';

export interface TStoredObject {
  body: Buffer;
  contentType: string | undefined;
  cacheControl: string | undefined;
  etag: string | undefined;
  metadata: Record<string, string> | undefined;
}

export class MemoryStorage implements BuilderStorage {
  readonly objects = new Map<string, TStoredObject>();
  /** Keys in the order they were written. */
  readonly putLog: string[] = [];
  readonly getLog: string[] = [];
  readonly headLog: string[] = [];

  async put(
    key: string,
    body: Readable | Uint8Array | string,
    options: { contentType?: string; cacheControl?: string; etag?: string; metadata?: Readonly<Record<string, string>> } = {},
  ): Promise<{ key: string; size: number }> {
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body instanceof Uint8Array ? Buffer.from(body) : await readAll(body);
    this.objects.set(key, {
      body: bytes,
      contentType: options.contentType,
      cacheControl: options.cacheControl,
      etag: options.etag,
      metadata: options.metadata && { ...options.metadata },
    });
    this.putLog.push(key);
    return { key, size: bytes.length };
  }

  async get(key: string, range?: { start: number; end: number }): Promise<{ body: Readable; size: number; contentType: string | undefined }> {
    this.getLog.push(key);
    const object = this.objects.get(key);
    if (!object) throw Object.assign(new Error(`Object not found: ${key}`), { name: 'StorageNotFoundError', key });
    const bytes = range ? object.body.subarray(range.start, range.end + 1) : object.body;
    // Small chunks, so consumers really see a stream.
    return { body: Readable.from(chunks(bytes, 64 * 1024)), size: object.body.length, contentType: object.contentType };
  }

  /** Size, and the tag and metadata put with the object, as the real drivers answer. */
  async head(key: string): Promise<{ size: number; etag: string | undefined; metadata: Record<string, string> | undefined } | null> {
    this.headLog.push(key);
    const object = this.objects.get(key);
    return object ? { size: object.body.length, etag: object.etag, metadata: object.metadata } : null;
  }

  /** Test convenience: the object's bytes as text. */
  text(key: string): string {
    const object = this.objects.get(key);
    if (!object) throw new Error(`No object ${key}`);
    return object.body.toString('utf8');
  }

  keys(prefix = ''): string[] {
    return [...this.objects.keys()].filter((k) => k.startsWith(prefix)).sort();
  }
}

function* chunks(bytes: Buffer, size: number): Generator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}
