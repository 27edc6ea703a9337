/** Object storage behind one interface: local disk by default, S3-compatible when configured. */
import { Transform, type Readable } from 'node:stream';

export interface TObjectInfo {
  key: string;
  size: number;
  contentType: string | undefined;
  /** Last modification time in epoch milliseconds. */
  modifiedAt: number;
  /** The entity tag put with the object (TPutOptions.etag), while it describes these bytes. */
  etag?: string | undefined;
  /** The user metadata put with the object (TPutOptions.metadata), while it describes these bytes (as the tag). */
  metadata?: Record<string, string> | undefined;
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
  /**
   * A strong entity tag of the bytes (a content hash, without quotes: letters, digits, '-' and '_'),
   * kept with the object so a reader can answer If-None-Match without reading it. head and get answer
   * it only while it describes the bytes they found, never a tag of an object put before or after.
   */
  etag?: string;
  /**
   * User metadata kept with the object and answered by head and get (S3 sends each to any reader as an
   * `x-amz-meta-{name}` header, which is how the edge learns a public page's headers). Names are
   * lowercase letters, digits and '-'; values printable ASCII; at most METADATA_MAX_BYTES in all.
   */
  metadata?: Readonly<Record<string, string>>;
}

/** S3 keeps at most 2 KB of user metadata per object (names and values); the storage's own tag is counted in. */
export const METADATA_MAX_BYTES = 1900;
const METADATA_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const METADATA_VALUE = /^[\x20-\x7e]*$/;

/** Refuses user metadata S3 would refuse, mangle or not send back as is. */
export function assertValidMetadata(metadata: Readonly<Record<string, string>> | undefined, reserved: readonly string[] = []): void {
  if (metadata === undefined) return;
  let bytes = 0;
  for (const [name, value] of Object.entries(metadata)) {
    if (!METADATA_NAME.test(name) || reserved.includes(name)) throw new Error(`Unsafe metadata name: ${JSON.stringify(name)}`);
    if (!METADATA_VALUE.test(value)) throw new Error(`Metadata ${name} is not printable ASCII`);
    bytes += name.length + value.length;
  }
  if (bytes > METADATA_MAX_BYTES) throw new Error(`Metadata of ${bytes} bytes is over the ${METADATA_MAX_BYTES} an object may carry`);
}

/** What an entity tag kept with an object may hold (it goes into a header and S3 metadata as is). */
export const STORED_ETAG = /^[A-Za-z0-9_-]{1,128}$/;

export interface TGetResult {
  body: Readable;
  /** Total size of the object (not of the range). */
  size: number;
  contentType: string | undefined;
  range: TByteRange | undefined;
  /** The entity tag put with the object (TPutOptions.etag), when it describes the bytes being read. */
  etag?: string | undefined;
  /** The user metadata put with the object (TPutOptions.metadata), when it describes the bytes being read. */
  metadata?: Record<string, string> | undefined;
}

/** A multipart upload: an object assembled from numbered parts and visible only once completed. */
export interface TMultipartUpload {
  key: string;
  uploadId: string;
  /** Size of every part but the last, which may be shorter. */
  partSize: number;
  /**
   * 'crc32' ('sha256'): created so that every part carries its CRC-32 (SHA-256), which the bucket checks
   * against the bytes (S3's ChecksumAlgorithm). Such parts need their checksum at putPart and in part URLs.
   */
  checksum?: TPartChecksumAlgorithm;
}

export type TPartChecksumAlgorithm = 'crc32' | 'sha256';

/** A part's checksum for the storage service to check: `sha256` lower-case hex, `crc32` base64 of its 4 big-endian bytes (as S3). */
export interface TPartChecksums {
  sha256?: string | undefined;
  crc32?: string | undefined;
}

export interface TPartInfo {
  /** 1-based, as in S3. */
  partNumber: number;
  size: number;
  /** Opaque; hand it back to completeMultipartUpload. Never compare it with a content hash. */
  etag: string;
  /** Base64 SHA-256 the bucket checked the part against (uploads with checksum 'sha256', where the service reports it). */
  checksumSha256?: string;
  /** Base64 CRC-32 the bucket checked the part against (uploads with checksum 'crc32', where the service reports it). */
  checksumCrc32?: string;
}

export interface TMultipartUploadInfo {
  key: string;
  uploadId: string;
  /** When the upload was created, epoch milliseconds. */
  initiatedAt: number;
}

/** A request a client may send straight to the storage service, bypassing the API. */
export interface TPresignedRequest {
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
  /** Epoch milliseconds after which the URL no longer works. */
  expiresAt: number;
}

/** Most parts one multipart upload may have (S3's limit, kept by every driver). */
export const MAX_PART_NUMBER = 10_000;
/** Smallest part S3 accepts but for the last one. */
export const MIN_PART_SIZE = 5 * 1024 * 1024;

export interface Storage {
  readonly driver: 'disk' | 's3';
  /**
   * Writes an object from a stream or bytes. The object becomes visible only once
   * it is whole: a failed or aborted put leaves no partial object behind.
   */
  put(key: string, body: Readable | Uint8Array | string, options?: TPutOptions): Promise<TObjectInfo>;
  /** Opens an object, or a byte range of it. Throws StorageNotFoundError when absent. */
  get(key: string, range?: TByteRange): Promise<TGetResult>;
  /**
   * SHA-256 (hex) and size of an object's bytes as stored, read once. Throws StorageNotFoundError when absent.
   * Disk reads into one reused buffer, so hashing a large file makes no garbage for the GC to chase.
   */
  hashObject(key: string): Promise<{ sha256: string; size: number }>;
  /** Size and type of an object, or null when it does not exist. */
  head(key: string): Promise<TObjectInfo | null>;
  /** Deletes one object; deleting a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Deletes every object whose key starts with the prefix; returns how many. */
  deletePrefix(prefix: string): Promise<number>;
  /** Lists objects whose key starts with the prefix, in key order. */
  list(prefix: string): AsyncIterable<TObjectInfo>;
  /** Starts a multipart upload into `key`; nothing is visible at `key` until it is completed. */
  createMultipartUpload(key: string, options: { partSize: number; contentType?: string; checksum?: TPartChecksumAlgorithm }): Promise<TMultipartUpload>;
  /**
   * Stores one part of exactly `size` bytes (at most partSize). A body longer or shorter than `size` fails,
   * and a failed put never leaves its bytes listed as the part. Re-putting a part number replaces it.
   * Throws MultipartUploadNotFoundError when the upload was completed or aborted. `options` holds the part's
   * checksum, sent along for the storage service to check (S3 needs the one of the upload's `checksum`).
   */
  putPart(upload: TMultipartUpload, partNumber: number, body: Readable | Uint8Array, size: number, options?: TPartChecksums): Promise<TPartInfo>;
  /** The parts stored so far, by part number. */
  listParts(upload: TMultipartUpload): Promise<TPartInfo[]>;
  /**
   * Reads back the bytes of one stored part of `size` bytes, where the driver can (disk); absent when it cannot
   * (S3 has no way to read a part before the upload is completed). Each piece is valid only until the next is asked for.
   * A driver with readPart may answer putPart before the part is on stable storage (disk: the upload is fsynced
   * once, by completeMultipartUpload), so after a power cut a listed part may not hold the bytes put:
   * its owner checks them by reading them back. A driver without it (S3) answers putPart once the part is durable.
   */
  readPart?(upload: TMultipartUpload, partNumber: number, size: number): AsyncIterable<Uint8Array>;
  /**
   * Assembles parts 1..n (consecutive, each with the etag putPart or listParts gave) into the object, durably:
   * the object is on stable storage when this answers. Throws MultipartUploadNotFoundError when the upload no longer exists.
   */
  completeMultipartUpload(upload: TMultipartUpload, parts: ReadonlyArray<Pick<TPartInfo, 'partNumber' | 'etag' | 'checksumSha256' | 'checksumCrc32'>>): Promise<TObjectInfo>;
  /** Discards an upload and its parts; aborting a missing upload is not an error. */
  abortMultipartUpload(upload: Pick<TMultipartUpload, 'key' | 'uploadId'>): Promise<void>;
  /** Multipart uploads not yet completed or aborted whose key starts with the prefix. */
  listMultipartUploads(prefix: string): AsyncIterable<TMultipartUploadInfo>;
  /**
   * A URL a browser can PUT one part to directly, or null when the driver has none (disk: parts go through the API).
   * The part's ETag comes back in the response header (S3 needs CORS `ExposeHeaders: ETag` for browsers to read it).
   * The URL accepts a body of exactly `size` bytes (its Content-Length is signed) and only until it expires.
   * With `crc32` (base64) or `sha256` (hex) it also signs `x-amz-checksum-crc32` or `-sha256`, which the request
   * must carry (see `headers`), so it takes only those bytes; an upload created with a checksum needs its own.
   */
  createPartUploadUrl(upload: TMultipartUpload, partNumber: number, options: { expiresInSeconds: number; size: number } & TPartChecksums): Promise<TPresignedRequest | null>;
  /** Releases connections and handles. */
  close(): Promise<void>;
  /**
   * A mark that moves whenever an object under this top-level folder (`sites`) or folder below it
   * (`sites/{slug}/`, a trailing slash or none) is written or deleted through this instance: what an
   * in-process cache of stored objects compares to know none of them changed. Given by the runtime's
   * change counter (storage/change-counter.ts), not by the drivers.
   */
  changes?(prefix: string): number;
}

export class MultipartUploadNotFoundError extends Error {
  readonly uploadId: string;
  constructor(uploadId: string) {
    super(`Multipart upload not found: ${uploadId}`);
    this.name = 'MultipartUploadNotFoundError';
    this.uploadId = uploadId;
  }
}

/** A part or completion the driver refuses: wrong size, wrong number, unknown etag. Nothing was stored. */
export class InvalidPartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidPartError';
  }
}

/** Checks the arguments every driver refuses the same way, before any I/O. */
export function assertValidPart(upload: TMultipartUpload, partNumber: number, size: number): void {
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PART_NUMBER) {
    throw new InvalidPartError(`Part number must be an integer from 1 to ${MAX_PART_NUMBER}, not ${partNumber}`);
  }
  if (!Number.isSafeInteger(size) || size < 0 || size > upload.partSize) {
    throw new InvalidPartError(`Part size must be from 0 to ${upload.partSize} bytes, not ${size}`);
  }
}

/** Parts handed to completeMultipartUpload must be 1..n in order. */
export function assertConsecutiveParts(parts: ReadonlyArray<{ partNumber: number }>): void {
  if (parts.length === 0) throw new InvalidPartError('A multipart upload needs at least one part to complete');
  parts.forEach((part, i) => {
    if (part.partNumber !== i + 1) throw new InvalidPartError(`Parts must be numbered 1..${parts.length} in order; found ${part.partNumber} at position ${i + 1}`);
  });
}

/**
 * Passes exactly `size` bytes through and fails on more or fewer, so a storage driver never
 * stores a part whose length differs from the one it was told.
 */
export function createExactLengthGuard(size: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > size) {
        done(new InvalidPartError(`Part body is longer than its declared ${size} bytes`));
        return;
      }
      done(null, chunk);
    },
    flush(done) {
      done(seen === size ? null : new InvalidPartError(`Part body ended after ${seen} of its declared ${size} bytes`));
    },
  });
}

/**
 * The store has no room for what was being written: an S3-compatible store answering 507 Insufficient
 * Storage (MinIO's XMinioStorageFull when its drives are full). Nothing of the object is kept (S3 puts
 * are atomic). Its code is the one a full disk gives the disk driver (ENOSPC), so the API answers both
 * the same way: 507 (http/error-middleware.ts).
 */
export class StorageFullError extends Error {
  readonly code = 'ENOSPC';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageFullError';
  }
}

export class StorageNotFoundError extends Error {
  readonly key: string;
  constructor(key: string) {
    super(`Object not found: ${key}`);
    this.name = 'StorageNotFoundError';
    this.key = key;
  }
}

/** Refuses an entity tag a driver could not keep as is. */
export function assertValidEtag(etag: string | undefined): void {
  if (etag !== undefined && !STORED_ETAG.test(etag)) throw new Error(`Unsafe entity tag: ${JSON.stringify(etag)}`);
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
