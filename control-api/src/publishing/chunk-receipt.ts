/**
 * Chunk receipt: each chunk is streamed into its part of the file's multipart upload, counted and
 * checked against its X-Chunk-Crc32 (or, from older clients, X-Chunk-Sha256) on the way (a mismatch
 * never becomes a part), recorded once with its CRC-32 (a retry must be byte-identical, else 409),
 * and fed to the file's running SHA-256. Chunks streaming
 * right now are tracked per session so that an abort can cut them short. Direct-chunked sessions on
 * S3 get presigned part URLs instead, so those bytes never pass through here.
 */
import type { Readable, Transform } from 'node:stream';
import { CHUNK_CRC32_HEADER, CHUNK_SHA256_HEADER, crc32FromBase64 } from '@dropsite/shared';
import type { TPublishingDeps } from './publishing.deps.ts';
import { AppError } from '../http/app-error.ts';
import { InvalidPartError, MultipartUploadNotFoundError, type TMultipartUpload, type TPartInfo } from '../storage/storage.ts';
import { ChunkChecksumMismatchError, ChunkLengthError, createChunkMeter, recordedChecksumKind, type TChunkMeter } from './chunk-meter.ts';
import { createKeyedLock } from './keyed-lock.ts';
import type { TReadChunk, TRunningFileHashes } from './running-file-hash.ts';
import {
  PART_URL_SECONDS,
  assertOpen,
  assertUsable,
  chunkChecksumOf,
  chunkUploadPath,
  expectedChunkSize,
  finalKeyOf,
  checkedPartsOf,
  isDirectToStorage,
  loadSession,
  multipartOf,
} from './session-rules.ts';
import type { TStoredChunkCheck } from './stored-chunk-check.ts';
import {
  extendUploadSession,
  findChunk,
  findUploadFile,
  findUploadSessionById,
  insertChunk,
  setUploadFileMultipartId,
  type TUploadFileRow,
  type TUploadSessionRow,
} from './upload-sessions.repository.ts';

export interface TChunkInput {
  sessionId: string;
  fileId: string;
  index: number;
  isLast: boolean | undefined;
  contentLength: number | undefined;
  /** X-Chunk-Sha256 (lower-case hex), from older clients. */
  declaredSha256: string | undefined;
  /** X-Chunk-Crc32 (base64 of the 4 big-endian bytes, checked well-formed). */
  declaredCrc32: string | undefined;
  body: Readable;
  /** Cuts the request short (used when the session is aborted while this chunk streams). */
  cancel(): void;
}

export interface TPartUrl {
  chunkIndex: number;
  uploadUrl: string;
  method: 'POST' | 'PUT';
  headers?: Record<string, string>;
}

export interface TChunkReceipt {
  receiveChunk(input: TChunkInput): Promise<{ duplicate: boolean }>;
  /**
   * Where each chunk of a direct-chunked upload goes: a presigned bucket URL, or the API's chunk endpoint.
   * `checksums` (by index: hex SHA-256 or base64 CRC-32, of the kind the session was opened with) is required
   * by sessions opened with a chunk checksum; their URLs then sign it, so each takes only the bytes the client checked.
   */
  createPartUrls(sessionId: string, fileId: string, indices: readonly number[], checksums?: TDeclaredPartChecksums): Promise<TPartUrl[]>;
  /** Cuts every chunk of the session still streaming and resolves once each has stopped. */
  cancelInFlight(sessionId: string): Promise<void>;
  /** Sessions with a chunk streaming now. */
  inFlightCount(): number;
}

/** The checksum of each chunk a urls call asks for, of one kind. */
export interface TDeclaredPartChecksums {
  kind: 'sha256' | 'crc32';
  byIndex: ReadonlyMap<number, string>;
}

interface TInFlight {
  cancel(): void;
  done: Promise<unknown>;
}

export function createChunkReceipt(
  deps: Pick<TPublishingDeps, 'db' | 'storage' | 'clock' | 'config'>,
  parts: { runningHashes: TRunningFileHashes; storedChunks: TStoredChunkCheck },
): TChunkReceipt {
  const { db, storage, clock, config } = deps;
  const { runningHashes, storedChunks } = parts;
  const chunkLocks = createKeyedLock();
  const fileLocks = createKeyedLock();
  /** Chunk requests streaming right now, per session, so an abort can cut them short. */
  const inFlight = new Map<string, Set<TInFlight>>();
  const ttl = config.uploadSessionTtlMs;

  async function receiveChunk(input: TChunkInput): Promise<{ duplicate: boolean }> {
    // Tracked from the first moment, so an abort arriving at any stage cuts this request too.
    let settle!: () => void;
    const tracked: TInFlight = { cancel: input.cancel, done: new Promise<void>((resolve) => (settle = resolve)) };
    const set = inFlight.get(input.sessionId) ?? new Set();
    set.add(tracked);
    inFlight.set(input.sessionId, set);
    try {
      return await receiveTrackedChunk(input);
    } catch (error) {
      if (error instanceof AppError && error.status < 500) throw error;
      // Cut short because the session was cancelled while this chunk streamed.
      const after = await findUploadSessionById(db, input.sessionId);
      if (!after || after.status === 'aborted') throw new AppError('gone', 'This upload was cancelled', { cause: error });
      throw error;
    } finally {
      set.delete(tracked);
      if (set.size === 0 && inFlight.get(input.sessionId) === set) inFlight.delete(input.sessionId);
      settle();
    }
  }

  async function receiveTrackedChunk(input: TChunkInput): Promise<{ duplicate: boolean }> {
    const session = await loadSession(deps, input.sessionId);
    const declaredFile = await findUploadFile(db, session.id, input.fileId);
    if (!declaredFile) throw new AppError('not_found', 'Upload session not found');
    assertOpen(session, clock.now());
    if (input.index >= declaredFile.total_chunks) {
      throw new AppError('bad_request', `Chunk ${input.index} is out of range: this file has chunks 0 to ${declaredFile.total_chunks - 1}`);
    }
    const isLast = input.index === declaredFile.total_chunks - 1;
    if (input.isLast !== undefined && input.isLast !== isLast) {
      throw new AppError('bad_request', isLast ? `Chunk ${input.index} is the last chunk` : `Chunk ${input.index} is not the last chunk`);
    }
    const expected = expectedChunkSize(declaredFile, input.index);
    // Refused from the headers alone, before a byte of the body is read.
    if (input.contentLength === undefined) throw new AppError('payload_too_large', 'Send each chunk with a Content-Length');
    if (input.contentLength > expected) {
      throw new AppError('payload_too_large', `Chunk ${input.index} may be at most ${expected} bytes, not ${input.contentLength}`);
    }
    if (input.contentLength < expected) throw new AppError('bad_request', `Chunk ${input.index} must be ${expected} bytes, not ${input.contentLength}`);
    // The bucket checks such a part against its checksum, so it cannot be stored without one.
    const checkedBy = checkedPartsOf(session, storage);
    if (checkedBy && expected > 0 && (checkedBy === 'crc32' ? input.declaredCrc32 : input.declaredSha256) === undefined) {
      throw new AppError('bad_request', `Send each chunk of this upload with its ${CHECKSUM_NAMES[checkedBy].header}`);
    }
    // Chunks an earlier run recorded count (and answer retries) only once their bytes are known to be there.
    await storedChunks.check(session, [declaredFile]);

    const release = await chunkLocks.acquire(`${declaredFile.id}:${input.index}`);
    try {
      // The session may have been cancelled, completed or reset while this request waited.
      const current = await loadSession(deps, session.id);
      assertOpen(current, clock.now());
      const file = await findUploadFile(db, current.id, declaredFile.id);
      if (!file) throw new AppError('not_found', 'Upload session not found');
      const existing = await findChunk(db, file.id, input.index);
      let result: { duplicate: boolean };
      if (existing) {
        result = { duplicate: await compareWithStored(input, expected, existing.checksum) };
      } else if (expected === 0) {
        result = await recordChunk(file, input.index, await readChunkThrough(input, expected), '', null);
      } else {
        result = await storeChunk(current, file, input, expected);
      }
      await extendUploadSession(db, current.id, clock.now() + ttl);
      return result;
    } finally {
      release();
    }
  }

  /** Streams the chunk into its part, checked on the way, then records it. */
  async function storeChunk(session: TUploadSessionRow, file: TUploadFileRow, input: TChunkInput, expected: number): Promise<{ duplicate: boolean }> {
    const upload = await ensureMultipartUpload(session, file);
    // The next chunk in order also feeds the file's running hash as its bytes pass.
    const tap = runningHashes.begin(file.id, input.index);
    const meter = createChunkMeter(expected, declaredChecks(input), tap?.hash);
    pipeRequestInto(input.body, meter.stream);
    let part: TPartInfo;
    let result: { duplicate: boolean };
    try {
      // The bucket checks the part against what was declared: the checksum its upload was made with, or a SHA-256 sent along.
      const partChecks = upload.checksum === 'crc32' ? { crc32: input.declaredCrc32 } : { sha256: input.declaredSha256 };
      part = await storage.putPart(upload, input.index + 1, meter.stream, expected, partChecks);
      result = await recordChunk(file, input.index, meter, upload.key, part.etag);
    } catch (error) {
      runningHashes.abandon(file.id, tap);
      meter.stream.destroy();
      throw translateChunkError(error, meter.stream.errored);
    }
    if (result.duplicate) runningHashes.abandon(file.id, tap);
    else runningHashes.stored(file.id, input.index, part.etag, tap, chunkReader(upload, file));
    return result;
  }

  /** Reads a stored chunk back, where storage can (disk); S3 cannot before the upload is completed. */
  function chunkReader(upload: TMultipartUpload, file: TUploadFileRow): TReadChunk | undefined {
    const readPart = storage.readPart?.bind(storage);
    return readPart ? async (index) => readPart(upload, index + 1, expectedChunkSize(file, index)) : undefined;
  }

  /** The file's multipart upload, made on first use; concurrent first chunks agree on one. */
  async function ensureMultipartUpload(session: TUploadSessionRow, file: TUploadFileRow): Promise<TMultipartUpload> {
    if (file.multipart_upload_id) return multipartOf(session, file, storage);
    const release = await fileLocks.acquire(file.id);
    try {
      const current = await findUploadFile(db, session.id, file.id);
      if (!current) throw new AppError('not_found', 'Upload session not found');
      if (current.multipart_upload_id) return multipartOf(session, current, storage);
      // Never start storage for a session cancelled meanwhile: its bytes would belong to no one.
      assertOpen(await loadSession(deps, session.id), clock.now());
      const checksum = checkedPartsOf(session, storage);
      const upload = await storage.createMultipartUpload(finalKeyOf(session, file), {
        partSize: file.chunk_size,
        contentType: 'application/octet-stream',
        ...(checksum ? { checksum } : {}),
      });
      await setUploadFileMultipartId(db, file.id, upload.uploadId);
      return upload;
    } finally {
      release();
    }
  }

  async function recordChunk(file: TUploadFileRow, index: number, meter: TChunkMeter, storageKey: string, etag: string | null): Promise<{ duplicate: boolean }> {
    const outcome = await insertChunk(db, {
      file_id: file.id,
      chunk_index: index,
      size: expectedChunkSize(file, index),
      checksum: meter.checksum(),
      storage_key: storageKey,
      etag,
      created_at: clock.now(),
    });
    if (outcome === 'inserted') return { duplicate: false };
    // Another process recorded this chunk while ours streamed (one process serialises by lock).
    const winner = await findChunk(db, file.id, index);
    if (winner && sameChunk(meter, winner.checksum)) return { duplicate: true };
    throw new AppError('conflict', `Chunk ${index} was already received with different content`);
  }

  /** A chunk already stored: the retry is read (never written) and must be byte-identical. */
  async function compareWithStored(input: TChunkInput, expected: number, recorded: string): Promise<boolean> {
    const meter = await readChunkThrough(input, expected, recordedChecksumKind(recorded) === 'sha256');
    if (!sameChunk(meter, recorded)) throw new AppError('conflict', `Chunk ${input.index} was already received with different content`);
    return true;
  }

  async function createPartUrls(sessionId: string, fileId: string, indices: readonly number[], checksums?: TDeclaredPartChecksums): Promise<TPartUrl[]> {
    const session = await loadSession(deps, sessionId);
    const file = await findUploadFile(db, session.id, fileId);
    if (!file) throw new AppError('not_found', 'Upload session not found');
    assertUsable(session, clock.now());
    const checkedBy = session.protocol === 'direct-chunked' ? chunkChecksumOf(session) : undefined;
    if (checkedBy && (checksums?.kind !== checkedBy || indices.some((index) => !checksums.byIndex.has(index)))) {
      const names = CHECKSUM_NAMES[checkedBy];
      throw new AppError('bad_request', `This upload needs the ${names.name} of every chunk asked for (${names.field})`);
    }
    for (const index of indices) {
      if (index >= file.total_chunks) {
        throw new AppError('bad_request', `Chunk ${index} is out of range: this file has chunks 0 to ${file.total_chunks - 1}`);
      }
    }
    await extendUploadSession(db, session.id, clock.now() + ttl);
    const viaApi = (index: number): TPartUrl => ({
      chunkIndex: index,
      uploadUrl: `${chunkUploadPath(session.id, file.id)}?chunk=${index}&last=${index === file.total_chunks - 1}`,
      method: 'POST',
    });
    // Empty files have no multipart upload (a zero-byte part is not portable across S3 implementations).
    if (!isDirectToStorage(session, storage) || file.size === 0) return indices.map(viaApi);
    const upload = await ensureMultipartUpload(session, file);
    const urls: TPartUrl[] = [];
    for (const index of indices) {
      // The URL takes exactly this chunk's bytes: its Content-Length is signed.
      // With a declared checksum it also signs the chunk's CRC-32 (or SHA-256): exactly these bytes.
      const declared = checkedBy ? checksums?.byIndex.get(index) : undefined;
      const signed = await storage.createPartUploadUrl(upload, index + 1, {
        expiresInSeconds: PART_URL_SECONDS,
        size: expectedChunkSize(file, index),
        ...(declared === undefined ? {} : checkedBy === 'crc32' ? { crc32: declared } : { sha256: declared }),
      });
      urls.push(signed ? { chunkIndex: index, uploadUrl: signed.url, method: signed.method, headers: signed.headers } : viaApi(index));
    }
    return urls;
  }

  async function cancelInFlight(sessionId: string): Promise<void> {
    const running = [...(inFlight.get(sessionId) ?? [])];
    for (const entry of running) entry.cancel();
    await Promise.all(running.map((e) => e.done));
  }

  return { receiveChunk, createPartUrls, cancelInFlight, inFlightCount: () => inFlight.size };
}

/** How a chunk checksum is named to the client: its header, its field in a urls call, and in words. */
const CHECKSUM_NAMES = {
  sha256: { header: CHUNK_SHA256_HEADER, field: 'chunkSha256', name: 'SHA-256' },
  crc32: { header: CHUNK_CRC32_HEADER, field: 'chunkCrc32', name: 'CRC-32' },
} as const;

/** What the client declared for this chunk, decoded (the routes checked the header's form). */
function declaredChecks(input: TChunkInput): { crc32: number | undefined; sha256: string | undefined } {
  return { crc32: input.declaredCrc32 === undefined ? undefined : crc32FromBase64(input.declaredCrc32), sha256: input.declaredSha256 };
}

/** Whether the chunk that passed the meter is the one recorded (by its CRC-32, or by the SHA-256 of an older row). */
function sameChunk(meter: TChunkMeter, recorded: string): boolean {
  return recordedChecksumKind(recorded) === 'sha256' ? meter.sha256() === recorded : meter.checksum() === recorded;
}

/** Reads a chunk's body only to check it (a retry of a stored chunk, or an empty chunk). */
async function readChunkThrough(input: TChunkInput, expected: number, withSha256 = false): Promise<TChunkMeter> {
  const meter = createChunkMeter(expected, declaredChecks(input), undefined, withSha256);
  pipeRequestInto(input.body, meter.stream);
  try {
    for await (const _ of meter.stream) {
      // Only the checksum matters.
    }
  } catch (error) {
    throw translateChunkError(error, error);
  }
  return meter;
}

/**
 * Pipes a request body into the chunk meter. Unlike stream.pipeline this never destroys the request
 * when the meter refuses the bytes, so the client still receives the refusal; a dropped connection
 * does fail the meter, and with it the storage write.
 */
function pipeRequestInto(body: Readable, meter: Transform): void {
  const fail = (error?: Error) => {
    if (!meter.destroyed) meter.destroy(error ?? new Error('The client went away while sending the chunk'));
  };
  if (body.destroyed) {
    fail();
    return;
  }
  body.once('error', fail);
  body.once('aborted', () => fail());
  body.once('close', () => {
    if (!body.readableEnded) fail();
  });
  body.pipe(meter);
}

function translateChunkError(error: unknown, meterError: unknown): unknown {
  const cause = meterError instanceof Error ? meterError : error;
  if (cause instanceof ChunkChecksumMismatchError) return new AppError('checksum_mismatch', 'Chunk checksum mismatch', { cause });
  if (cause instanceof ChunkLengthError) {
    return cause.received > cause.expected ? new AppError('payload_too_large', cause.message, { cause }) : new AppError('bad_request', cause.message, { cause });
  }
  if (error instanceof MultipartUploadNotFoundError) return new AppError('gone', 'This upload was cancelled', { cause: error });
  if (error instanceof InvalidPartError) return new AppError('bad_request', 'Chunk body did not match its declared size', { cause: error });
  return error;
}
