/** Storage on an S3-compatible service (AWS S3, MinIO, s3rver in tests). */
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  paginateListObjectsV2,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StorageNotFoundError, assertSafeKey } from './storage.ts';
import type { Storage, TByteRange, TGetResult, TObjectInfo, TPutOptions } from './storage.ts';

export interface TS3StorageOptions {
  /** Set for S3-compatible services; leave unset for AWS. */
  endpoint?: string;
  region: string;
  bucket: string;
  /** Both or neither; without them the SDK's default credential chain applies. */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Needed by most S3-compatible services, whose buckets are not DNS names. */
  forcePathStyle?: boolean;
}

/** S3 allows at most 1000 keys per DeleteObjects request. */
const DELETE_BATCH_SIZE = 1000;
/** Multipart part size; memory held per streamed put is about PART_SIZE * UPLOAD_QUEUE_SIZE. */
const PART_SIZE = 8 * 1024 * 1024;
const UPLOAD_QUEUE_SIZE = 4;

export function createS3Client(options: TS3StorageOptions): S3Client {
  const { accessKeyId, secretAccessKey } = options;
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new Error('S3 storage needs both accessKeyId and secretAccessKey, or neither');
  }
  return new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    credentials: accessKeyId !== undefined && secretAccessKey !== undefined ? { accessKeyId, secretAccessKey } : undefined,
    // The SDK's default checksums send streamed bodies with aws-chunked framing, which S3-compatible
    // servers such as s3rver store verbatim inside the object: silently corrupt data.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** Creates the bucket unless it exists; run at startup so the first upload does not fail on a fresh deployment. */
export async function ensureBucket(options: TS3StorageOptions): Promise<void> {
  const client = createS3Client(options);
  try {
    try {
      await client.send(new HeadBucketCommand({ Bucket: options.bucket }));
      return;
    } catch (error) {
      if (httpStatusOf(error) !== 404) throw error;
    }
    try {
      await client.send(new CreateBucketCommand({ Bucket: options.bucket }));
    } catch (error) {
      // Another instance starting at the same moment may have won the race.
      if (!(error instanceof S3ServiceException && error.name === 'BucketAlreadyOwnedByYou')) throw error;
    }
  } finally {
    client.destroy();
  }
}

export function createS3Storage(options: TS3StorageOptions): Storage {
  const client = createS3Client(options);
  const Bucket = options.bucket;

  async function put(key: string, body: Readable | Uint8Array | string, putOptions: TPutOptions = {}): Promise<TObjectInfo> {
    assertSafeKey(key);
    const common = { Bucket, Key: key, ContentType: putOptions.contentType, CacheControl: putOptions.cacheControl };
    if (!(body instanceof Readable)) {
      const bytes = typeof body === 'string' ? Buffer.from(body) : body;
      await client.send(new PutObjectCommand({ ...common, Body: bytes, ContentLength: bytes.byteLength }));
      return { key, size: bytes.byteLength, contentType: putOptions.contentType, modifiedAt: Date.now() };
    }

    let size = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.byteLength;
        callback(null, chunk);
      },
    });
    // pipeline, unlike pipe, carries a source error into `counted`, which makes the upload fail and abort its parts.
    const feeding = pipeline(body, counted);
    const upload = new Upload({
      client,
      params: { ...common, Body: counted },
      partSize: PART_SIZE,
      queueSize: UPLOAD_QUEUE_SIZE,
      leavePartsOnError: false,
    });
    const uploading = upload.done().catch((error: unknown) => {
      // Nobody reads `counted` once the upload has failed; destroying it keeps the feeding pipeline from stalling.
      counted.destroy(error instanceof Error ? error : new Error(String(error)));
      throw error;
    });
    // Waiting for both lets the upload finish aborting its multipart parts before the caller sees the error.
    const [uploaded, fed] = await Promise.allSettled([uploading, feeding]);
    if (fed.status === 'rejected') throw fed.reason;
    if (uploaded.status === 'rejected') throw uploaded.reason;
    return { key, size, contentType: putOptions.contentType, modifiedAt: Date.now() };
  }

  async function get(key: string, range?: TByteRange): Promise<TGetResult> {
    assertSafeKey(key);
    if (range) assertValidRange(range);
    try {
      const response = await client.send(
        new GetObjectCommand({ Bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      if (!(response.Body instanceof Readable)) throw new Error('S3 returned a body that is not a Node.js stream');
      const contentRange = range ? parseContentRange(response.ContentRange) : undefined;
      if (range && !contentRange) {
        // Ranges are honoured by every S3 implementation we target; anything else would silently serve wrong bytes.
        response.Body.destroy();
        throw new Error(`S3 ignored the byte range for ${JSON.stringify(key)}`);
      }
      return {
        body: response.Body,
        size: contentRange?.size ?? response.ContentLength ?? 0,
        contentType: response.ContentType,
        range: contentRange?.range,
      };
    } catch (error) {
      if (isNotFound(error)) throw new StorageNotFoundError(key);
      if (httpStatusOf(error) === 416 && range) throw new RangeError(`Byte range ${range.start}-${range.end} is outside ${JSON.stringify(key)}`);
      throw error;
    }
  }

  async function head(key: string): Promise<TObjectInfo | null> {
    assertSafeKey(key);
    try {
      const response = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
      return {
        key,
        size: response.ContentLength ?? 0,
        contentType: response.ContentType,
        modifiedAt: response.LastModified?.getTime() ?? 0,
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async function deleteObject(key: string): Promise<void> {
    assertSafeKey(key);
    await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
  }

  async function deletePrefix(prefix: string): Promise<number> {
    if (prefix === '') throw new Error('Refusing to delete every object: deletePrefix needs a non-empty prefix');
    let deleted = 0;
    let batch: string[] = [];
    for await (const object of list(prefix)) {
      batch.push(object.key);
      if (batch.length === DELETE_BATCH_SIZE) {
        deleted += await deleteBatch(batch);
        batch = [];
      }
    }
    if (batch.length > 0) deleted += await deleteBatch(batch);
    return deleted;
  }

  async function deleteBatch(keys: string[]): Promise<number> {
    const response = await client.send(
      new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }),
    );
    const failures = response.Errors ?? [];
    if (failures.length > 0) {
      const sample = failures.slice(0, 3).map((failure) => `${failure.Key}: ${failure.Code} ${failure.Message}`);
      throw new Error(`Could not delete ${failures.length} of ${keys.length} objects (${sample.join('; ')})`);
    }
    return keys.length;
  }

  async function* list(prefix: string): AsyncIterable<TObjectInfo> {
    assertSafePrefix(prefix);
    for await (const page of paginateListObjectsV2({ client }, { Bucket, Prefix: prefix })) {
      for (const object of page.Contents ?? []) {
        if (object.Key === undefined) continue;
        yield {
          key: object.Key,
          size: object.Size ?? 0,
          // ListObjectsV2 does not return content types; fetching them would cost a request per object.
          contentType: undefined,
          modifiedAt: object.LastModified?.getTime() ?? 0,
        };
      }
    }
  }

  return {
    driver: 's3',
    put,
    get,
    head,
    delete: deleteObject,
    deletePrefix,
    list,
    close: async () => {
      client.destroy();
    },
  };
}

/** A prefix is safe when some safe key could start with it; appending a character turns that into a key check. */
function assertSafePrefix(prefix: string): void {
  if (prefix === '') return;
  try {
    assertSafeKey(`${prefix}x`);
  } catch {
    throw new Error(`Unsafe storage prefix: ${JSON.stringify(prefix)}`);
  }
}

/** Checked before sending because S3 answers a malformed Range header with the whole object. */
function assertValidRange({ start, end }: TByteRange): void {
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`Invalid byte range ${start}-${end}`);
  }
}

function parseContentRange(header: string | undefined): { range: TByteRange; size: number } | undefined {
  const match = header ? /^bytes (\d+)-(\d+)\/(\d+)$/.exec(header) : null;
  if (!match) return undefined;
  return { range: { start: Number(match[1]), end: Number(match[2]) }, size: Number(match[3]) };
}

function isNotFound(error: unknown): boolean {
  // HeadObject has no error body, so the SDK can only name it after the status: NotFound.
  return error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound');
}

function httpStatusOf(error: unknown): number | undefined {
  return error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
}
