/** Storage on an S3-compatible service (AWS S3, MinIO, s3rver in tests). */
import { crc32FromBase64 } from '@dropsite/shared';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  ListMultipartUploadsCommand,
  ListPartsCommand,
  UploadPartCommand,
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
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { createHash } from 'node:crypto';
import { PassThrough, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  InvalidPartError,
  MultipartUploadNotFoundError,
  STORED_ETAG,
  StorageFullError,
  StorageNotFoundError,
  assertConsecutiveParts,
  assertSafeKey,
  assertValidEtag,
  assertValidMetadata,
  assertValidPart,
  createExactLengthGuard,
} from './storage.ts';
import type {
  Storage,
  TByteRange,
  TGetResult,
  TMultipartUpload,
  TMultipartUploadInfo,
  TObjectInfo,
  TPartChecksumAlgorithm,
  TPartChecksums,
  TPartInfo,
  TPresignedRequest,
  TPutOptions,
} from './storage.ts';

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

const QUIET_SDK_LOGGER = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

export function createS3Client(options: TS3StorageOptions): S3Client {
  const { accessKeyId, secretAccessKey } = options;
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new Error('S3 storage needs both accessKeyId and secretAccessKey, or neither');
  }
  const client = new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    credentials: accessKeyId !== undefined && secretAccessKey !== undefined ? { accessKeyId, secretAccessKey } : undefined,
    // The SDK's default checksums send streamed bodies with aws-chunked framing, which S3-compatible
    // servers such as s3rver store verbatim inside the object: silently corrupt data.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // Without a logger the SDK warns on the console for every streamed request that fails, which an
    // upload whose client went away is; the failure itself still reaches the caller as an error.
    logger: QUIET_SDK_LOGGER,
  });
  // Outermost (after the SDK's retries): a store out of space fails every call the same way, whichever made it.
  client.middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        throw isStoreFull(error) ? new StorageFullError('The object store is out of space', { cause: error }) : error;
      }
    },
    { step: 'initialize', name: 'dropsiteStorageFull' },
  );
  return client;
}

/** 507 Insufficient Storage, as MinIO answers (XMinioStorageFull) when its drives are full. */
function isStoreFull(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 507 || error.name === 'XMinioStorageFull');
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

/** The user metadata (x-amz-meta-…) that holds the entity tag put with an object (TPutOptions.etag). */
const ETAG_METADATA = 'dropsite-etag';

function storedEtagOf(metadata: Record<string, string> | undefined): string | undefined {
  const etag = metadata?.[ETAG_METADATA];
  return etag !== undefined && STORED_ETAG.test(etag) ? etag : undefined;
}

/** The metadata put with an object (TPutOptions.metadata), without the storage's own tag. */
function userMetadataOf(metadata: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!metadata) return undefined;
  const { [ETAG_METADATA]: _tag, ...rest } = metadata;
  return Object.keys(rest).length > 0 ? rest : undefined;
}

export function createS3Storage(options: TS3StorageOptions): Storage {
  const client = createS3Client(options);
  const Bucket = options.bucket;

  async function put(key: string, body: Readable | Uint8Array | string, putOptions: TPutOptions = {}): Promise<TObjectInfo> {
    assertSafeKey(key);
    assertValidEtag(putOptions.etag);
    assertValidMetadata(putOptions.metadata, [ETAG_METADATA]);
    // User metadata travels with the object in the same put, so the tag always describes these bytes.
    const Metadata =
      putOptions.etag === undefined && putOptions.metadata === undefined
        ? undefined
        : { ...putOptions.metadata, ...(putOptions.etag === undefined ? {} : { [ETAG_METADATA]: putOptions.etag }) };
    const common = { Bucket, Key: key, ContentType: putOptions.contentType, CacheControl: putOptions.cacheControl, Metadata };
    if (!(body instanceof Readable)) {
      const bytes = typeof body === 'string' ? Buffer.from(body) : body;
      await client.send(new PutObjectCommand({ ...common, Body: bytes, ContentLength: bytes.byteLength }));
      return { key, size: bytes.byteLength, contentType: putOptions.contentType, modifiedAt: Date.now(), etag: putOptions.etag };
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
    return { key, size, contentType: putOptions.contentType, modifiedAt: Date.now(), etag: putOptions.etag };
  }

  async function get(key: string, range?: TByteRange): Promise<TGetResult> {
    assertSafeKey(key);
    if (range) assertValidRange(range);
    try {
      const response = await client.send(new GetObjectCommand({ Bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
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
        etag: storedEtagOf(response.Metadata),
        metadata: userMetadataOf(response.Metadata),
      };
    } catch (error) {
      if (isNotFound(error)) throw new StorageNotFoundError(key);
      if (httpStatusOf(error) === 416 && range) throw new RangeError(`Byte range ${range.start}-${range.end} is outside ${JSON.stringify(key)}`);
      throw error;
    }
  }

  async function hashObject(key: string): Promise<{ sha256: string; size: number }> {
    const { body } = await get(key);
    const hash = createHash('sha256');
    let size = 0;
    for await (const piece of body) {
      hash.update(piece as Buffer);
      size += (piece as Buffer).length;
    }
    return { sha256: hash.digest('hex'), size };
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
        etag: storedEtagOf(response.Metadata),
        metadata: userMetadataOf(response.Metadata),
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
    const response = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }));
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

  async function createMultipartUpload(key: string, options: { partSize: number; contentType?: string; checksum?: TPartChecksumAlgorithm }): Promise<TMultipartUpload> {
    assertSafeKey(key);
    if (!Number.isSafeInteger(options.partSize) || options.partSize < 1 || options.partSize > 5 * 1024 ** 3) {
      throw new InvalidPartError(`Part size must be from 1 byte to 5 GiB, not ${options.partSize}`);
    }
    // With a checksum algorithm S3 checks every part against its x-amz-checksum-crc32 (-sha256) and wants each part's at complete.
    const checksum = options.checksum ? { ChecksumAlgorithm: options.checksum === 'crc32' ? ('CRC32' as const) : ('SHA256' as const) } : {};
    const response = await client.send(new CreateMultipartUploadCommand({ Bucket, Key: key, ContentType: options.contentType, ...checksum }));
    if (!response.UploadId) throw new Error(`S3 returned no upload id for ${JSON.stringify(key)}`);
    return { key, uploadId: response.UploadId, partSize: options.partSize, ...(options.checksum ? { checksum: options.checksum } : {}) };
  }

  async function putPart(upload: TMultipartUpload, partNumber: number, body: Readable | Uint8Array, size: number, options: TPartChecksums = {}): Promise<TPartInfo> {
    assertSafeKey(upload.key);
    assertValidPart(upload, partNumber, size);
    const checked = partChecksumsOf(upload, options);
    const common = {
      Bucket,
      Key: upload.key,
      UploadId: upload.uploadId,
      PartNumber: partNumber,
      ContentLength: size,
      ...(checked.checksumSha256 ? { ChecksumSHA256: checked.checksumSha256 } : {}),
      ...(checked.checksumCrc32 ? { ChecksumCRC32: checked.checksumCrc32 } : {}),
    };
    try {
      if (!(body instanceof Readable)) {
        if (body.byteLength !== size) throw new InvalidPartError(`Part body has ${body.byteLength} bytes, not the declared ${size}`);
        const response = await client.send(new UploadPartCommand({ ...common, Body: body }));
        return { partNumber, size, etag: requireEtag(response.ETag), ...checked };
      }
      // The guard stops a body of the wrong length; aborting the request keeps S3 from storing a short part.
      const abort = new AbortController();
      const guarded = new PassThrough();
      const feeding = pipeline(body, createExactLengthGuard(size), guarded).catch((error: unknown) => {
        abort.abort(error);
        throw error;
      });
      const sending = client.send(new UploadPartCommand({ ...common, Body: guarded }), { abortSignal: abort.signal });
      const [sent, fed] = await Promise.allSettled([sending, feeding]);
      if (fed.status === 'rejected') throw fed.reason;
      if (sent.status === 'rejected') throw sent.reason;
      return { partNumber, size, etag: requireEtag(sent.value.ETag), ...checked };
    } catch (error) {
      throw translateMultipartError(error, upload.uploadId);
    }
  }

  async function listParts(upload: TMultipartUpload): Promise<TPartInfo[]> {
    assertSafeKey(upload.key);
    const parts: TPartInfo[] = [];
    let marker: string | undefined;
    try {
      for (;;) {
        const page = await client.send(new ListPartsCommand({ Bucket, Key: upload.key, UploadId: upload.uploadId, PartNumberMarker: marker }));
        for (const part of page.Parts ?? []) {
          if (part.PartNumber === undefined || part.ETag === undefined) continue;
          parts.push({
            partNumber: part.PartNumber,
            size: part.Size ?? 0,
            etag: part.ETag,
            ...(part.ChecksumSHA256 ? { checksumSha256: part.ChecksumSHA256 } : {}),
            ...(part.ChecksumCRC32 ? { checksumCrc32: part.ChecksumCRC32 } : {}),
          });
        }
        if (!page.IsTruncated || page.NextPartNumberMarker === undefined) break;
        marker = page.NextPartNumberMarker;
      }
    } catch (error) {
      throw translateMultipartError(error, upload.uploadId);
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  async function completeMultipartUpload(
    upload: TMultipartUpload,
    parts: ReadonlyArray<Pick<TPartInfo, 'partNumber' | 'etag' | 'checksumSha256' | 'checksumCrc32'>>,
  ): Promise<TObjectInfo> {
    assertSafeKey(upload.key);
    assertConsecutiveParts(parts);
    try {
      await client.send(
        new CompleteMultipartUploadCommand({
          Bucket,
          Key: upload.key,
          UploadId: upload.uploadId,
          // An upload made with a checksum algorithm is completed with each part's checksum (ListParts gives them).
          MultipartUpload: {
            Parts: parts.map((p) => ({
              PartNumber: p.partNumber,
              ETag: p.etag,
              ...(p.checksumSha256 ? { ChecksumSHA256: p.checksumSha256 } : {}),
              ...(p.checksumCrc32 ? { ChecksumCRC32: p.checksumCrc32 } : {}),
            })),
          },
        }),
      );
    } catch (error) {
      throw translateMultipartError(error, upload.uploadId);
    }
    const info = await head(upload.key);
    if (!info) throw new Error(`S3 completed ${JSON.stringify(upload.key)} but the object is not there`);
    return info;
  }

  async function abortMultipartUpload(upload: Pick<TMultipartUpload, 'key' | 'uploadId'>): Promise<void> {
    assertSafeKey(upload.key);
    try {
      await client.send(new AbortMultipartUploadCommand({ Bucket, Key: upload.key, UploadId: upload.uploadId }));
    } catch (error) {
      if (translateMultipartError(error, upload.uploadId) instanceof MultipartUploadNotFoundError) return;
      throw error;
    }
  }

  async function* listMultipartUploads(prefix: string): AsyncIterable<TMultipartUploadInfo> {
    assertSafePrefix(prefix);
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (;;) {
      const page = await client.send(new ListMultipartUploadsCommand({ Bucket, Prefix: prefix === '' ? undefined : prefix, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }));
      for (const upload of page.Uploads ?? []) {
        if (upload.Key === undefined || upload.UploadId === undefined) continue;
        yield { key: upload.Key, uploadId: upload.UploadId, initiatedAt: upload.Initiated?.getTime() ?? 0 };
      }
      if (!page.IsTruncated) break;
      keyMarker = page.NextKeyMarker;
      uploadIdMarker = page.NextUploadIdMarker;
    }
  }

  async function createPartUploadUrl(
    upload: TMultipartUpload,
    partNumber: number,
    options: { expiresInSeconds: number; size: number } & TPartChecksums,
  ): Promise<TPresignedRequest> {
    assertSafeKey(upload.key);
    assertValidPart(upload, partNumber, options.size);
    const checked = partChecksumsOf(upload, options);
    // The bucket checks the body against this header, and the header is signed: the URL takes only these bytes.
    const checksumHeaders: Record<string, string> = {
      ...(checked.checksumSha256 ? { 'x-amz-checksum-sha256': checked.checksumSha256 } : {}),
      ...(checked.checksumCrc32 ? { 'x-amz-checksum-crc32': checked.checksumCrc32 } : {}),
    };
    const now = Date.now();
    const command = new UploadPartCommand({
      Bucket,
      Key: upload.key,
      UploadId: upload.uploadId,
      PartNumber: partNumber,
      ContentLength: options.size,
      ChecksumSHA256: checked.checksumSha256,
      ChecksumCRC32: checked.checksumCrc32,
    });
    const url = await getSignedUrl(client, command, {
      expiresIn: options.expiresInSeconds,
      signingDate: new Date(now),
      // Browsers set Content-Length from the body themselves: a body of any other size fails the signature.
      signableHeaders: new Set(['content-length']),
      // Kept a header (not moved into the query) so that the bucket checks the body against it.
      unhoistableHeaders: new Set(['x-amz-checksum-sha256', 'x-amz-checksum-crc32']),
    });
    return { url, method: 'PUT', headers: checksumHeaders, expiresAt: now + options.expiresInSeconds * 1000 };
  }

  return {
    driver: 's3',
    put,
    get,
    head,
    hashObject,
    delete: deleteObject,
    deletePrefix,
    list,
    createMultipartUpload,
    putPart,
    listParts,
    completeMultipartUpload,
    abortMultipartUpload,
    listMultipartUploads,
    createPartUploadUrl,
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

/**
 * The checksums a part is sent with, as S3 takes them (base64): the one its upload was created with is required,
 * and a part of an upload made without one carries none it could be refused for.
 */
function partChecksumsOf(upload: TMultipartUpload, options: TPartChecksums): Pick<TPartInfo, 'checksumSha256' | 'checksumCrc32'> {
  if (upload.checksum === 'sha256' && options.sha256 === undefined) throw new InvalidPartError('This upload needs each part’s SHA-256');
  if (upload.checksum === 'crc32' && options.crc32 === undefined) throw new InvalidPartError('This upload needs each part’s CRC-32');
  if (options.crc32 !== undefined && crc32FromBase64(options.crc32) === undefined) throw new InvalidPartError('A part CRC-32 must be the base64 of 4 bytes');
  return {
    ...(options.sha256 === undefined ? {} : { checksumSha256: hexToBase64Sha256(options.sha256) }),
    ...(options.crc32 === undefined ? {} : { checksumCrc32: options.crc32 }),
  };
}

/** S3's checksum headers carry the digest in base64; ours are lower-case hex. */
function hexToBase64Sha256(hex: string): string {
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new InvalidPartError('A part SHA-256 must be 64 lower-case hex digits');
  return Buffer.from(hex, 'hex').toString('base64');
}

function requireEtag(etag: string | undefined): string {
  if (!etag) throw new Error('S3 stored a part but returned no ETag');
  return etag;
}

/** Maps S3's multipart errors onto the storage contract's; anything else passes through. */
function translateMultipartError(error: unknown, uploadId: string): unknown {
  if (!(error instanceof S3ServiceException)) return error;
  if (error.name === 'NoSuchUpload') return new MultipartUploadNotFoundError(uploadId);
  if (error.name === 'InvalidPart' || error.name === 'InvalidPartOrder' || error.name === 'EntityTooSmall') {
    return new InvalidPartError(`S3 refused the parts: ${error.name} ${error.message}`);
  }
  return error;
}

function isNotFound(error: unknown): boolean {
  // HeadObject has no error body, so the SDK can only name it after the status: NotFound.
  return error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound');
}

function httpStatusOf(error: unknown): number | undefined {
  return error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
}
