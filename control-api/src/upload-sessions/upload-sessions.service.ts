/**
 * The one upload-session core behind the chunked and direct-chunked protocols:
 * init (declare files, reserve the link) → chunks (each stored durably as a part of the file's
 * multipart upload, in any order, resumable) → complete (assemble, verify SHA-256, then the same
 * publish path as the regular upload). Nothing is published before complete succeeds.
 *
 * Storage: every file with bytes is a multipart upload into its final key uploads/{projectId}/{fileId};
 * chunk i is part i+1. Disk writes parts in place (completing is a rename), S3 keeps parts until
 * CompleteMultipartUpload. Direct-chunked sessions on S3 hand out presigned part URLs, so those
 * bytes never pass through the API; the bucket's ListParts says which arrived.
 */
import { createHash } from 'node:crypto';
import type { Readable, Transform } from 'node:stream';
import { CHUNK_SIZE, uploadKey, type TDirectChunkChecksum, type TUploadMetadata, type TUploadForm } from '@dropsite/shared';
import type { TAppDeps } from '../deps.ts';
import { newId } from '../db/ids.ts';
import { AppError } from '../http/app-error.ts';
import { findProjectById } from '../projects/projects.repository.ts';
import { hashPassword } from '../sites/password-hash.ts';
import { InvalidPartError, MultipartUploadNotFoundError, type TMultipartUpload, type TPartInfo } from '../storage/storage.ts';
import { allocateSlug, publishProject } from '../uploads/upload.service.ts';
import { ChunkChecksumMismatchError, ChunkLengthError, createChunkMeter } from './chunk-meter.ts';
import { createKeyedLock } from './keyed-lock.ts';
import { createRunningFileHashes, type TReadChunk } from './running-file-hash.ts';
import {
  claimUploadSessionCompletion,
  deleteChunks,
  extendUploadSession,
  findChunk,
  findChunksBySession,
  findUploadFile,
  findUploadFiles,
  findUploadSessionById,
  findUploadSessionByIdempotencyKey,
  insertChunk,
  insertUploadSession,
  markUploadFileAssembled,
  markUploadSessionAborted,
  markUploadSessionCompleted,
  renewUploadSessionLease,
  reopenUploadSession,
  resetUploadFile,
  setUploadFileMultipartId,
  type TUploadChunkRow,
  type TUploadFileRow,
  type TUploadSessionRow,
} from './upload-sessions.repository.ts';
import { discardSessionBytes } from './upload-sessions.cleanup.ts';

export type TSessionProtocol = 'chunked' | 'direct-chunked';

/** How long a completer holds a session before another may take over (it is renewed while working). */
export const COMPLETION_LEASE_MS = 5 * 60_000;
/** Lifetime of a presigned part URL: minutes (the client asks again when one has expired). */
export const PART_URL_SECONDS = 300;
const EMPTY_SHA256 = createHash('sha256').digest('hex');

/** The form as a session keeps it: the password only as its hash. */
interface TStoredForm {
  title: string;
  description: string;
  template: TUploadForm['template'];
  authorName: string;
  settings: TUploadMetadata['settings'];
  /** Absent in sessions opened before contact details were sent. */
  contactInfo?: TUploadMetadata['contactInfo'];
  expiresAt: number | null;
  passwordHash: string | null;
  /** Not the form but how the session was opened: its client gives every chunk's SHA-256 with the urls call. */
  chunkChecksum?: TDirectChunkChecksum;
}

export interface TInitInput {
  protocol: TSessionProtocol;
  files: ReadonlyArray<{ name: string; size: number; type: string; sha256?: string | undefined }>;
  details: Omit<TUploadMetadata, 'anonymousSessionId'>;
  idempotencyKey: string | undefined;
  anonymousSessionId: string | null;
  /** Direct chunked: the client declares each chunk's SHA-256, and part URLs bind it. */
  chunkChecksum?: TDirectChunkChecksum | undefined;
}

export interface TSessionView {
  session: TUploadSessionRow;
  files: TUploadFileRow[];
  replayed: boolean;
}

export interface TChunkInput {
  sessionId: string;
  fileId: string;
  index: number;
  isLast: boolean | undefined;
  contentLength: number | undefined;
  declaredSha256: string | undefined;
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

export interface TCompletion {
  url: string;
  slug: string;
}

export type TUploadSessionService = ReturnType<typeof createUploadSessionService>;

/** Chunks a file of `size` bytes is sent in; an empty file still sends one (empty) chunk. */
export function countChunks(size: number, chunkSize: number = CHUNK_SIZE): number {
  return Math.max(1, Math.ceil(size / chunkSize));
}

/** Exact size of chunk `index` of the file. */
export function expectedChunkSize(file: Pick<TUploadFileRow, 'size' | 'chunk_size' | 'total_chunks'>, index: number): number {
  return index < file.total_chunks - 1 ? file.chunk_size : file.size - file.chunk_size * (file.total_chunks - 1);
}

/** How an Idempotency-Key is kept (never in clear). */
export function hashIdempotencyKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function chunkUploadPath(sessionId: string, fileId: string): string {
  return `/api/upload-chunk/${sessionId}/${fileId}`;
}

export function finalKeyOf(projectId: string, fileId: string): string {
  return uploadKey(projectId, fileId);
}

export function createUploadSessionService(deps: TAppDeps) {
  const { db, storage, clock, log, config } = deps;
  const chunkLocks = createKeyedLock();
  const fileLocks = createKeyedLock();
  /** Chunk requests streaming right now, per session, so an abort can cut them short. */
  const inFlight = new Map<string, Set<{ cancel(): void; done: Promise<unknown> }>>();
  /** Completions running in this process; a concurrent complete waits for the same result. */
  const completions = new Map<string, Promise<TCompletion>>();
  /** Each file's SHA-256, computed while its chunks arrive, so complete need not read the file again. */
  const runningHashes = createRunningFileHashes({
    onError: (err) => log.warn({ err }, 'could not read a chunk back to hash its file; the file is hashed at complete'),
  });

  const ttl = config.uploadSessionTtlMs;

  async function init(input: TInitInput): Promise<TSessionView> {
    const now = clock.now();
    const total = input.files.reduce((sum, f) => sum + f.size, 0);
    if (total > config.maxUploadBytes) throw new AppError('payload_too_large', 'This upload is larger than your plan allows');
    const expiresAt = input.details.expiryDate ? input.details.expiryDate.getTime() : null;
    if (expiresAt !== null && expiresAt <= now) throw new AppError('validation_failed', 'Expiry date must be in the future');

    const fingerprint = fingerprintOf(input);
    // Not scoped to the anonymous creator: a retry whose first reply (and its cookie) was lost comes
    // without that cookie. The key is the client's random secret, and the request must match too.
    const idempotencyKey = input.idempotencyKey === undefined ? null : hashIdempotencyKey(input.idempotencyKey);
    if (idempotencyKey) {
      const existing = await findUploadSessionByIdempotencyKey(db, idempotencyKey);
      if (existing) return replay(existing, fingerprint);
    }

    const form: TStoredForm = {
      title: input.details.title,
      description: input.details.description,
      template: input.details.template,
      authorName: input.details.authorName,
      settings: input.details.settings,
      contactInfo: input.details.contactInfo,
      expiresAt,
      passwordHash: input.details.password ? await hashPassword(input.details.password) : null,
      ...(input.chunkChecksum ? { chunkChecksum: input.chunkChecksum } : {}),
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      const sessionId = newId();
      const session = {
        id: sessionId,
        project_id: newId(),
        protocol: input.protocol,
        status: 'open' as const,
        idempotency_key: idempotencyKey,
        anonymous_session_id: input.anonymousSessionId,
        form: JSON.stringify(form),
        created_at: now,
        expires_at: now + ttl,
        completed_at: null,
        project_slug: await allocateSlug(deps),
        request_fingerprint: fingerprint,
        lease_until: null,
      };
      const files = input.files.map((f, position) => ({
        id: newId(),
        session_id: sessionId,
        name: f.name,
        type: f.type,
        size: f.size,
        chunk_size: CHUNK_SIZE,
        total_chunks: countChunks(f.size),
        expected_sha256: f.sha256 ?? null,
        multipart_upload_id: null,
        position,
        sha256: null,
        assembled_at: null,
      }));
      if ((await insertUploadSession(db, session, files)) === 'inserted') {
        log.info({ sessionId, protocol: input.protocol, files: files.length, bytes: total }, 'upload session opened');
        return { session: { ...session }, files, replayed: false };
      }
      // Either a concurrent retry with the same key won, or (rarely) the slug was reserved meanwhile.
      if (idempotencyKey) {
        const winner = await findUploadSessionByIdempotencyKey(db, idempotencyKey);
        if (winner) return replay(winner, fingerprint);
      }
    }
    throw new AppError('internal', 'Could not start the upload. Please try again.');
  }

  async function replay(existing: TUploadSessionRow, fingerprint: string): Promise<TSessionView> {
    if (existing.request_fingerprint !== fingerprint) {
      throw new AppError('conflict', 'This Idempotency-Key was already used for a different upload');
    }
    assertUsable(existing, { allowCompleted: true });
    return { session: existing, files: await findUploadFiles(db, existing.id), replayed: true };
  }

  /** 404 for unknown ids, 410 for cancelled or expired sessions. */
  async function loadSession(sessionId: string): Promise<TUploadSessionRow> {
    const session = await findUploadSessionById(db, sessionId);
    if (!session) throw new AppError('not_found', 'Upload session not found');
    return session;
  }

  function assertUsable(session: TUploadSessionRow, options: { allowCompleted?: boolean } = {}): void {
    if (session.status === 'aborted') throw new AppError('gone', 'This upload was cancelled');
    if (session.status === 'completed') {
      if (options.allowCompleted) return;
      throw new AppError('conflict', 'This upload has already been published');
    }
    if (session.expires_at <= clock.now()) throw new AppError('gone', 'This upload session has expired. Please upload the files again.');
  }

  async function describe(sessionId: string) {
    const session = await loadSession(sessionId);
    assertUsable(session, { allowCompleted: true });
    const files = await findUploadFiles(db, session.id);
    const received = await findReceivedChunks(session, files);
    return {
      session,
      files: files.map((f) => ({ file: f, receivedChunks: [...(received.get(f.id) ?? [])].sort((a, b) => a - b) })),
    };
  }

  /**
   * Durable chunks per file. Chunks through the API are rows; parts a browser PUT straight to the
   * bucket are known only to the bucket, so for direct-chunked sessions its part list counts too.
   */
  async function findReceivedChunks(session: TUploadSessionRow, files: readonly TUploadFileRow[]): Promise<Map<string, Set<number>>> {
    const rows = await findChunksBySession(db, session.id);
    const received = new Map<string, Set<number>>();
    for (const file of files) {
      const set = new Set((rows.get(file.id) ?? []).map((r) => r.chunk_index));
      if (file.assembled_at !== null) for (let i = 0; i < file.total_chunks; i++) set.add(i);
      else if (isDirectToStorage(session) && file.multipart_upload_id) {
        for (const part of await listPartsOrEmpty(session, file)) {
          const index = part.partNumber - 1;
          if (index < file.total_chunks && part.size === expectedChunkSize(file, index)) set.add(index);
        }
      }
      received.set(file.id, set);
    }
    return received;
  }

  function isDirectToStorage(session: TUploadSessionRow): boolean {
    return session.protocol === 'direct-chunked' && storage.driver === 's3';
  }

  /** Whether the client promised every chunk's SHA-256 (then the bucket checks each part against it). */
  function declaresChunkChecksums(session: TUploadSessionRow): boolean {
    return session.protocol === 'direct-chunked' && chunkChecksumOf(session) === 'sha256';
  }

  /** Parts of this session's multipart uploads carry their SHA-256, checked by the bucket. */
  function hasCheckedParts(session: TUploadSessionRow): boolean {
    return isDirectToStorage(session) && declaresChunkChecksums(session);
  }

  async function listPartsOrEmpty(session: TUploadSessionRow, file: TUploadFileRow): Promise<TPartInfo[]> {
    try {
      return await storage.listParts(multipartOf(session, file));
    } catch (error) {
      if (error instanceof MultipartUploadNotFoundError) return [];
      throw error;
    }
  }

  function multipartOf(session: TUploadSessionRow, file: TUploadFileRow): TMultipartUpload {
    if (!file.multipart_upload_id) throw new Error(`File ${file.id} has no multipart upload`);
    return {
      key: finalKeyOf(session.project_id, file.id),
      uploadId: file.multipart_upload_id,
      partSize: file.chunk_size,
      ...(hasCheckedParts(session) ? { checksum: 'sha256' as const } : {}),
    };
  }

  /** The file's multipart upload, made on first use; concurrent first chunks agree on one. */
  async function ensureMultipartUpload(session: TUploadSessionRow, file: TUploadFileRow): Promise<TMultipartUpload> {
    if (file.multipart_upload_id) return multipartOf(session, file);
    const release = await fileLocks.acquire(file.id);
    try {
      const current = await findUploadFile(db, session.id, file.id);
      if (!current) throw new AppError('not_found', 'Upload session not found');
      if (current.multipart_upload_id) return multipartOf(session, current);
      // Never start storage for a session cancelled meanwhile: its bytes would belong to no one.
      assertOpen(await loadSession(session.id));
      const upload = await storage.createMultipartUpload(finalKeyOf(session.project_id, file.id), {
        partSize: file.chunk_size,
        contentType: 'application/octet-stream',
        ...(hasCheckedParts(session) ? { checksum: 'sha256' as const } : {}),
      });
      await setUploadFileMultipartId(db, file.id, upload.uploadId);
      return upload;
    } finally {
      release();
    }
  }

  async function receiveChunk(input: TChunkInput): Promise<{ duplicate: boolean }> {
    // Tracked from the first moment, so an abort arriving at any stage cuts this request too.
    let settle!: () => void;
    const tracked = { cancel: input.cancel, done: new Promise<void>((resolve) => (settle = resolve)) };
    trackInFlight(input.sessionId, tracked);
    try {
      return await receiveTrackedChunk(input);
    } catch (error) {
      if (error instanceof AppError && error.status < 500) throw error;
      // Cut short because the session was cancelled while this chunk streamed.
      const after = await findUploadSessionById(db, input.sessionId);
      if (!after || after.status === 'aborted') throw new AppError('gone', 'This upload was cancelled', { cause: error });
      throw error;
    } finally {
      untrackInFlight(input.sessionId, tracked);
      settle();
    }
  }

  async function receiveTrackedChunk(input: TChunkInput): Promise<{ duplicate: boolean }> {
    const session = await loadSession(input.sessionId);
    const declaredFile = await findUploadFile(db, session.id, input.fileId);
    if (!declaredFile) throw new AppError('not_found', 'Upload session not found');
    assertOpen(session);
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
    // The bucket checks such a part against its SHA-256, so it cannot be stored without one.
    if (hasCheckedParts(session) && expected > 0 && input.declaredSha256 === undefined) {
      throw new AppError('bad_request', 'Send each chunk of this upload with its X-Chunk-Sha256');
    }

    const release = await chunkLocks.acquire(`${declaredFile.id}:${input.index}`);
    try {
      // The session may have been cancelled, completed or reset while this request waited.
      const current = await loadSession(session.id);
      assertOpen(current);
      const file = await findUploadFile(db, current.id, declaredFile.id);
      if (!file) throw new AppError('not_found', 'Upload session not found');
      const existing = await findChunk(db, file.id, input.index);
      let result: { duplicate: boolean };
      if (existing) {
        result = { duplicate: await compareWithStored(input, expected, existing.sha256) };
      } else if (expected === 0) {
        result = await recordChunk(file, input.index, await hashChunk(input, expected), '', null);
      } else {
        const upload = await ensureMultipartUpload(current, file);
        // The next chunk in order also feeds the file's running hash as its bytes pass.
        const tap = runningHashes.begin(file.id, input.index);
        const meter = createChunkMeter(expected, input.declaredSha256, tap?.hash);
        pipeRequestInto(input.body, meter.stream);
        let part: TPartInfo;
        try {
          part = await storage.putPart(upload, input.index + 1, meter.stream, expected, input.declaredSha256 === undefined ? {} : { sha256: input.declaredSha256 });
          result = await recordChunk(file, input.index, meter.digest(), upload.key, part.etag);
        } catch (error) {
          runningHashes.abandon(file.id, tap);
          meter.stream.destroy();
          throw translateChunkError(error, meter.stream.errored);
        }
        if (result.duplicate) runningHashes.abandon(file.id, tap);
        else runningHashes.stored(file.id, input.index, part.etag, tap, chunkReader(upload, file));
      }
      await extendUploadSession(db, current.id, clock.now() + ttl);
      return result;
    } finally {
      release();
    }
  }

  function assertOpen(session: TUploadSessionRow): void {
    assertUsable(session);
    if (session.status === 'completing') throw new AppError('conflict', 'This upload is being completed');
  }

  async function recordChunk(
    file: TUploadFileRow,
    index: number,
    sha256: string,
    storageKey: string,
    etag: string | null,
  ): Promise<{ duplicate: boolean }> {
    const outcome = await insertChunk(db, {
      file_id: file.id,
      chunk_index: index,
      size: expectedChunkSize(file, index),
      sha256,
      storage_key: storageKey,
      etag,
      created_at: clock.now(),
    });
    if (outcome === 'inserted') return { duplicate: false };
    // Another process recorded this chunk while ours streamed (one process serialises by lock).
    const winner = await findChunk(db, file.id, index);
    if (winner && winner.sha256 === sha256) return { duplicate: true };
    throw new AppError('conflict', `Chunk ${index} was already received with different content`);
  }

  /** A chunk already stored: the retry is read (never written) and must be byte-identical. */
  async function compareWithStored(input: TChunkInput, expected: number, storedSha256: string): Promise<boolean> {
    const sha256 = await hashChunk(input, expected);
    if (sha256 !== storedSha256) throw new AppError('conflict', `Chunk ${input.index} was already received with different content`);
    return true;
  }

  async function hashChunk(input: TChunkInput, expected: number): Promise<string> {
    const meter = createChunkMeter(expected, input.declaredSha256);
    pipeRequestInto(input.body, meter.stream);
    try {
      for await (const _ of meter.stream) {
        // Only the hash matters.
      }
    } catch (error) {
      throw translateChunkError(error, error);
    }
    return meter.digest();
  }

  function trackInFlight(sessionId: string, entry: { cancel(): void; done: Promise<unknown> }): void {
    const set = inFlight.get(sessionId) ?? new Set();
    set.add(entry);
    inFlight.set(sessionId, set);
  }

  function untrackInFlight(sessionId: string, entry: { cancel(): void; done: Promise<unknown> }): void {
    const set = inFlight.get(sessionId);
    set?.delete(entry);
    if (set && set.size === 0) inFlight.delete(sessionId);
  }

  /**
   * Where each chunk of a direct-chunked upload goes: a presigned bucket URL, or the API's chunk endpoint.
   * `chunkSha256` (hex, by index) is required by sessions opened with a chunk checksum; their URLs then
   * sign it, so each takes only the bytes the client hashed.
   */
  async function createPartUrls(sessionId: string, fileId: string, indices: readonly number[], chunkSha256?: ReadonlyMap<number, string>): Promise<TPartUrl[]> {
    const session = await loadSession(sessionId);
    const file = await findUploadFile(db, session.id, fileId);
    if (!file) throw new AppError('not_found', 'Upload session not found');
    assertUsable(session);
    const checked = declaresChunkChecksums(session);
    if (checked && indices.some((index) => !chunkSha256?.has(index))) {
      throw new AppError('bad_request', 'This upload needs the SHA-256 of every chunk asked for (chunkSha256)');
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
    if (!isDirectToStorage(session) || file.size === 0) return indices.map(viaApi);
    const upload = await ensureMultipartUpload(session, file);
    const urls: TPartUrl[] = [];
    for (const index of indices) {
      // The URL takes exactly this chunk's bytes: its Content-Length is signed.
      // With a declared checksum it also signs the chunk's SHA-256: exactly these bytes.
      const sha256 = checked ? chunkSha256?.get(index) : undefined;
      const signed = await storage.createPartUploadUrl(upload, index + 1, {
        expiresInSeconds: PART_URL_SECONDS,
        size: expectedChunkSize(file, index),
        ...(sha256 === undefined ? {} : { sha256 }),
      });
      urls.push(signed ? { chunkIndex: index, uploadUrl: signed.url, method: signed.method, headers: signed.headers } : viaApi(index));
    }
    return urls;
  }

  async function complete(sessionId: string, declared: ReadonlyArray<{ fileId: string; sha256: string }> | undefined): Promise<TCompletion> {
    const running = completions.get(sessionId);
    if (running) return running;
    const promise = completeOnce(sessionId, declared).finally(() => completions.delete(sessionId));
    completions.set(sessionId, promise);
    return promise;
  }

  async function completeOnce(sessionId: string, declared: ReadonlyArray<{ fileId: string; sha256: string }> | undefined): Promise<TCompletion> {
    let session = await loadSession(sessionId);
    if (session.status === 'completed') return completionOf(session);
    assertUsable(session);
    const files = await findUploadFiles(db, session.id);
    const expectedSha = mergeDeclaredHashes(files, declared ?? []);

    // Checked before claiming, so a premature complete leaves the session open and untouched.
    if (session.status === 'open') await assertAllChunksReceived(session, files);

    for (let wait = 0; !(await claimUploadSessionCompletion(db, session.id, clock.now(), clock.now() + COMPLETION_LEASE_MS)); wait++) {
      session = await loadSession(sessionId);
      if (session.status === 'completed') return completionOf(session);
      assertUsable(session);
      // Another process is completing it: wait for its outcome rather than assembling twice.
      if (wait > (COMPLETION_LEASE_MS / 250) * 2) throw new AppError('service_unavailable', 'This upload is still being completed. Please try again.');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }

    const leaseTimer = setInterval(() => {
      void renewUploadSessionLease(db, session.id, clock.now() + COMPLETION_LEASE_MS).catch((err: unknown) => log.warn({ err }, 'could not renew an upload lease'));
    }, COMPLETION_LEASE_MS / 3);
    leaseTimer.unref();
    try {
      const assembled = [];
      const rowsByFile = await findChunksBySession(db, session.id);
      for (const file of files) assembled.push(await assembleFile(session, file, expectedSha.get(file.id), rowsByFile.get(file.id) ?? []));
      const form = JSON.parse(session.form) as TStoredForm;
      const slug = session.project_slug ?? undefined;
      // A completer that crashed after publishing left the project behind: this run only records it.
      if (!(await findProjectById(db, session.project_id, { includeDeleted: true }))) {
        await publishProject(deps, {
          projectId: session.project_id,
          form: {
            title: form.title,
            description: form.description,
            template: form.template,
            authorName: form.authorName,
            settings: form.settings,
            contactInfo: form.contactInfo,
            expiryDate: form.expiresAt === null ? undefined : new Date(form.expiresAt),
          },
          files: assembled,
          anonymousSessionId: session.anonymous_session_id,
          slug,
          passwordHash: form.passwordHash,
        });
      }
      await markUploadSessionCompleted(db, session.id, clock.now());
      log.info({ sessionId: session.id, projectId: session.project_id, files: files.length }, 'upload session completed');
      return completionOf({ ...session, status: 'completed' });
    } catch (error) {
      await reopenUploadSession(db, session.id, clock.now() + ttl).catch((err: unknown) => log.error({ err }, 'could not reopen an upload session'));
      throw error;
    } finally {
      clearInterval(leaseTimer);
    }
  }

  function completionOf(session: TUploadSessionRow): TCompletion {
    const slug = session.project_slug;
    if (!slug) throw new Error(`Upload session ${session.id} has no slug`);
    return { slug, url: `${config.publicUrl}/${slug}` };
  }

  function mergeDeclaredHashes(files: readonly TUploadFileRow[], declared: ReadonlyArray<{ fileId: string; sha256: string }>): Map<string, string> {
    const byId = new Map(files.map((f) => [f.id, f]));
    const expected = new Map<string, string>();
    for (const f of files) if (f.expected_sha256) expected.set(f.id, f.expected_sha256);
    for (const d of declared) {
      if (!byId.has(d.fileId)) throw new AppError('bad_request', 'A file in this request is not part of the upload');
      const earlier = expected.get(d.fileId);
      if (earlier && earlier !== d.sha256) {
        throw new AppError('file_checksum_mismatch', 'File checksum mismatch', { details: { fileId: d.fileId } });
      }
      expected.set(d.fileId, d.sha256);
    }
    return expected;
  }

  async function assertAllChunksReceived(session: TUploadSessionRow, files: readonly TUploadFileRow[]): Promise<void> {
    const received = await findReceivedChunks(session, files);
    const missing = files
      .map((f) => {
        const have = received.get(f.id) ?? new Set<number>();
        return { fileId: f.id, chunkIndices: Array.from({ length: f.total_chunks }, (_, i) => i).filter((i) => !have.has(i)) };
      })
      .filter((m) => m.chunkIndices.length > 0);
    if (missing.length > 0) throw incompleteError(files, missing);
  }

  function incompleteError(files: readonly TUploadFileRow[], missing: ReadonlyArray<{ fileId: string; chunkIndices: number[] }>): AppError {
    const total = files.reduce((n, f) => n + f.total_chunks, 0);
    const failed = missing.reduce((n, m) => n + m.chunkIndices.length, 0);
    return new AppError('upload_incomplete', `Upload incomplete: ${total - failed}/${total} chunks, ${failed} failed`, { details: { missingChunks: missing } });
  }

  /** Assembles one file into its final object and verifies it; idempotent across retried completions. */
  async function assembleFile(session: TUploadSessionRow, file: TUploadFileRow, expectedSha: string | undefined, chunkRows: readonly TUploadChunkRow[]) {
    const key = finalKeyOf(session.project_id, file.id);
    const published = { fileId: file.id, storageKey: key, size: file.size, originalName: file.name, clientType: file.type };
    if (file.assembled_at !== null && file.sha256) {
      const head = await storage.head(key);
      if (head?.size === file.size && (!expectedSha || expectedSha === file.sha256)) return { ...published, sha256: file.sha256 };
    }
    if (file.size === 0) {
      await storage.put(key, new Uint8Array(0), { contentType: 'application/octet-stream' });
    } else {
      await completeMultipart(session, file, key, chunkRows);
    }
    // The end-to-end check. Chunks that came through this process were hashed as they arrived; the file is
    // read again only otherwise (bytes the API never saw, a restart, a replaced chunk) or when that hash disagrees.
    let sha256 = await runningDigest(file, chunkRows);
    runningHashes.forget(file.id);
    let stored = { size: file.size };
    if (sha256 === undefined || (expectedSha !== undefined && sha256 !== expectedSha)) {
      const read = await storage.hashObject(key);
      stored = read;
      sha256 = read.size === file.size ? read.sha256 : undefined;
    }
    if (sha256 === undefined || (expectedSha !== undefined && sha256 !== expectedSha)) {
      // The bytes are not the file the client meant: drop them so that file can be sent again.
      await storage.delete(key);
      await resetUploadFile(db, file.id, null);
      log.warn({ sessionId: session.id, fileId: file.id, size: stored.size, expectedSize: file.size }, 'assembled file failed verification');
      throw new AppError('file_checksum_mismatch', 'File checksum mismatch', { details: { fileId: file.id } });
    }
    await markUploadFileAssembled(db, file.id, sha256, clock.now());
    return { ...published, sha256 };
  }

  /** The running hash of a file whose every chunk has a row (whose etags completeMultipart checked against the parts). */
  async function runningDigest(file: TUploadFileRow, chunkRows: readonly TUploadChunkRow[]): Promise<string | undefined> {
    if (file.size === 0 || chunkRows.length !== file.total_chunks) return undefined;
    const etags = new Map<number, string>();
    for (const row of chunkRows) {
      if (row.etag === null) return undefined;
      etags.set(row.chunk_index, row.etag);
    }
    return runningHashes.digest(file.id, etags);
  }

  /** Reads a stored chunk back, where storage can (disk); S3 cannot before the upload is completed. */
  function chunkReader(upload: TMultipartUpload, file: TUploadFileRow): TReadChunk | undefined {
    const readPart = storage.readPart?.bind(storage);
    return readPart ? async (index) => readPart(upload, index + 1, expectedChunkSize(file, index)) : undefined;
  }

  async function completeMultipart(session: TUploadSessionRow, file: TUploadFileRow, key: string, chunkRows: readonly TUploadChunkRow[]): Promise<void> {
    if (!file.multipart_upload_id) throw incompleteError([file], [{ fileId: file.id, chunkIndices: range(file.total_chunks) }]);
    const upload = multipartOf(session, file);
    let stored: TPartInfo[];
    try {
      stored = await storage.listParts(upload);
    } catch (error) {
      if (!(error instanceof MultipartUploadNotFoundError)) throw error;
      // Completed by a run that crashed before recording it: the object is there already.
      if ((await storage.head(key))?.size === file.size) return;
      await resetUploadFile(db, file.id, null);
      throw incompleteError([file], [{ fileId: file.id, chunkIndices: range(file.total_chunks) }]);
    }
    const parts = new Map(stored.map((p) => [p.partNumber, p]));
    const rows = new Map(chunkRows.map((r) => [r.chunk_index, r]));
    const missing: number[] = [];
    const stale: number[] = [];
    for (let index = 0; index < file.total_chunks; index++) {
      const part = parts.get(index + 1);
      const row = rows.get(index);
      const sizeOk = part?.size === expectedChunkSize(file, index);
      if (row) {
        // A part replaced behind the row's back (another writer) no longer holds the recorded bytes.
        if (!part || part.etag !== row.etag || !sizeOk) {
          stale.push(index);
          missing.push(index);
        }
      } else if (!(session.protocol === 'direct-chunked' && part && sizeOk)) {
        missing.push(index);
      }
    }
    if (stale.length > 0) await deleteChunks(db, file.id, stale);
    if (missing.length > 0) throw incompleteError([file], [{ fileId: file.id, chunkIndices: missing }]);
    try {
      await storage.completeMultipartUpload(
        upload,
        // Parts checked against a SHA-256 are completed with it, as the bucket listed it.
        range(file.total_chunks).map((i) => {
          const part = parts.get(i + 1)!;
          return { partNumber: i + 1, etag: part.etag, ...(part.checksumSha256 ? { checksumSha256: part.checksumSha256 } : {}) };
        }),
      );
    } catch (error) {
      if (error instanceof InvalidPartError) {
        // The bucket disagrees with its own part list (a part replaced meanwhile): start this file over.
        await storage.abortMultipartUpload(upload);
        await resetUploadFile(db, file.id, null);
        throw incompleteError([file], [{ fileId: file.id, chunkIndices: range(file.total_chunks) }]);
      }
      throw error;
    }
  }

  async function abort(sessionId: string): Promise<void> {
    const session = await loadSession(sessionId);
    if (session.status === 'aborted') throw new AppError('gone', 'This upload was cancelled');
    if (session.status === 'completed') throw new AppError('conflict', 'This upload has already been published');
    if (!(await markUploadSessionAborted(db, session.id, clock.now()))) {
      const now = await loadSession(sessionId);
      if (now.status === 'completed') throw new AppError('conflict', 'This upload has already been published');
      if (now.status === 'aborted') throw new AppError('gone', 'This upload was cancelled');
      throw new AppError('conflict', 'This upload is being completed');
    }
    const running = [...(inFlight.get(session.id) ?? [])];
    for (const entry of running) entry.cancel();
    await Promise.all(running.map((e) => e.done));
    await discardSessionBytes(deps, session);
    for (const file of await findUploadFiles(db, session.id)) runningHashes.forget(file.id);
    log.info({ sessionId: session.id }, 'upload session cancelled');
  }

  return { init, describe, receiveChunk, createPartUrls, complete, abort, inFlightCount: () => inFlight.size };
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
    return cause.received > cause.expected
      ? new AppError('payload_too_large', cause.message, { cause })
      : new AppError('bad_request', cause.message, { cause });
  }
  if (error instanceof MultipartUploadNotFoundError) return new AppError('gone', 'This upload was cancelled', { cause: error });
  if (error instanceof InvalidPartError) return new AppError('bad_request', 'Chunk body did not match its declared size', { cause: error });
  return error;
}

/** The chunk checksum a session was opened with (kept beside its form). */
function chunkChecksumOf(session: TUploadSessionRow): TDirectChunkChecksum | undefined {
  const stored = JSON.parse(session.form) as Partial<TStoredForm>;
  return stored.chunkChecksum === 'sha256' ? 'sha256' : undefined;
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

/** What makes two init requests the same: files and form, the password aside (it is never stored in clear). */
function fingerprintOf(input: TInitInput): string {
  const { password: _password, ...details } = input.details;
  const canonical = JSON.stringify({
    protocol: input.protocol,
    files: input.files.map((f) => [f.name, f.size, f.type, f.sha256 ?? null]),
    details: { ...details, expiryDate: details.expiryDate?.getTime() ?? null },
    ...(input.chunkChecksum ? { chunkChecksum: input.chunkChecksum } : {}),
  });
  return createHash('sha256').update(canonical).digest('hex');
}
