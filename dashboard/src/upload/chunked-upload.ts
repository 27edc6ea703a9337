/**
 * The two chunked publish protocols (spec 7.3 'Chunked' and 'Direct chunked'): init, chunks of
 * 10 MB sent 3 at a time with retries, each with its CRC-32 in X-Chunk-Crc32, then complete
 * with every file's whole SHA-256 (hashed incrementally while the chunks are read). A session
 * is remembered in localStorage so a later try (after a dropped connection or a reload) sends
 * only the chunks the server lacks.
 */
import {
  CHUNK_CRC32_HEADER,
  CHUNK_SHA256_HEADER,
  ZChunkedInitResponseSchema,
  ZCompleteUploadResponseSchema,
  ZDirectChunkedInitResponseSchema,
  ZDirectUploadUrlsResponseSchema,
  ZUploadSessionStatusResponseSchema,
  crc32,
  crc32ToBase64,
  createSha256,
  toHex,
  type TChunkUploadUrl,
  type TDirectChunkChecksum,
  type TSha256,
  type TUploadMetadataInput,
} from '@dropsite/shared';
import { loadSchemas } from '../schemas/lazy-schemas.ts';
import { assertAllChunksSent, runChunkQueue, sleepFor, type TChunkTask } from './chunk-scheduler.ts';
import { planFreshUpload, planResume, type TFileChunkPlan } from './resume-plan.ts';
import { clearResumableSession, findResumableSession, fingerprintFile, saveResumableSession, type TResumableSession } from './resume-store.ts';
import { jsonRequest, parseJson, type TTransport, type TTransportResponse } from './transport.ts';
import { FALLBACK_MESSAGES, UPLOAD_MESSAGES, UploadError, isRetryableStatus, readBackendError } from './upload-errors.ts';
import type { TProgressTracker } from './upload-progress-tracker.ts';

export type TChunkedProtocol = 'chunked' | 'direct-chunked';

export const CHUNKED_ENDPOINTS = {
  chunkedInit: '/api/chunked-upload/init',
  chunkedComplete: '/api/chunked-upload/complete',
  sessionStatus: '/api/upload-session/status',
  directInit: '/api/direct-upload/init',
  directUrls: '/api/direct-upload/urls',
  directComplete: '/api/direct-upload/complete',
} as const;

/** How many presigned chunk URLs to ask for at once. */
const URL_BATCH = 50;

export interface TChunkedUploadDeps {
  transport: TTransport;
  tracker: TProgressTracker;
  signal?: AbortSignal;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  waitUntilOnline?: (signal: AbortSignal) => Promise<void>;
  /** Hex SHA-256 of one chunk, for a session an older wizard opened with chunk SHA-256s; WebCrypto by default. */
  digestChunk?: (bytes: ArrayBuffer) => Promise<string>;
  now?: () => number;
  /** Where the resumable session is kept; localStorage by default, null to keep none. */
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
  /** Called as soon as the server has named the site. */
  onSlugKnown?: (slug: string) => void;
}

export interface TChunkedUploadResult {
  url: string;
  slug: string;
  /** Whether an earlier session was continued. */
  resumed: boolean;
}

interface TSessionFile {
  file: File;
  fileId: string;
  chunkSize: number;
  totalChunks: number;
  uploadUrl?: string;
}

interface TActiveSession {
  protocol: TChunkedProtocol;
  sessionId: string;
  projectSlug: string;
  files: TSessionFile[];
  plans: TFileChunkPlan[];
  resumed: boolean;
  /**
   * Direct chunked: the server binds each part URL to the chunk's CRC-32 (or, in a session an older wizard
   * opened, its SHA-256), so that is computed before its URL is asked for.
   */
  chunkChecksum?: TDirectChunkChecksum;
}

export const webCryptoDigest = async (bytes: ArrayBuffer): Promise<string> => toHex(await crypto.subtle.digest('SHA-256', bytes));

/**
 * The SHA-256 of the form (and the files' groups, when there are any) as sent at init; a session is
 * only continued for the same form and the same folders.
 */
export function hashDraft(metadata: TUploadMetadataInput, groups: ReadonlyArray<string | null> = []): string {
  const draft = groups.some((g) => g !== null) ? { ...metadata, groups } : metadata;
  return createSha256()
    .update(new TextEncoder().encode(JSON.stringify(draft)))
    .digestHex();
}

/**
 * One chunked upload. `start` then `upload` then `complete`, or `run` for all three. Misuse
 * answers the spec's messages: 'Upload session not initialized', 'Upload already in progress'.
 */
export function createChunkedUpload(
  protocol: TChunkedProtocol,
  files: readonly File[],
  metadata: TUploadMetadataInput,
  deps: TChunkedUploadDeps,
  /** Each file's group (the folder it was dropped in), by index; none when absent. */
  groups: ReadonlyArray<string | null> = [],
) {
  const { transport, tracker, signal } = deps;
  const now = deps.now ?? (() => Date.now());
  const storage = deps.storage;
  const digestChunk = deps.digestChunk ?? webCryptoDigest;
  const draftHash = hashDraft(metadata, groups);
  let session: TActiveSession | null = null;
  let isRunning = false;
  let hashes: string[] | null = null;

  const send = async (request: Parameters<TTransport>[0]): Promise<TTransportResponse> => transport({ ...request, ...(signal ? { signal } : {}) });

  const remember = (s: TActiveSession) => {
    const record: TResumableSession = {
      protocol: s.protocol,
      sessionId: s.sessionId,
      projectSlug: s.projectSlug,
      files: s.files.map((f) => ({
        ...fingerprintFile(f.file),
        fileId: f.fileId,
        chunkSize: f.chunkSize,
        totalChunks: f.totalChunks,
        ...(f.uploadUrl ? { uploadUrl: f.uploadUrl } : {}),
      })),
      draftHash,
      createdAt: now(),
      ...(s.chunkChecksum ? { chunkChecksum: s.chunkChecksum } : {}),
    };
    saveResumableSession(record, storage);
  };

  /** An earlier session of these very files and this form, with what the server still lacks. */
  async function tryResume(): Promise<TActiveSession | null> {
    await loadSchemas(); // the stored session is checked with its schema
    const stored = findResumableSession(files.map(fingerprintFile), draftHash, now(), storage);
    if (!stored || stored.protocol !== protocol) return null;
    const reply = await send({ method: 'GET', url: `${CHUNKED_ENDPOINTS.sessionStatus}?sessionId=${encodeURIComponent(stored.sessionId)}` });
    const parsed = reply.status === 200 ? ZUploadSessionStatusResponseSchema.safeParse(parseJson(reply.text)) : null;
    const sessionFiles: TSessionFile[] = stored.files.map((f, i) => ({
      file: files[i]!,
      fileId: f.fileId,
      chunkSize: f.chunkSize,
      totalChunks: f.totalChunks,
      ...(f.uploadUrl ? { uploadUrl: f.uploadUrl } : {}),
    }));
    const plans = parsed?.success
      ? planResume(
          parsed.data.session,
          sessionFiles.map((f) => ({ fileId: f.fileId, size: f.file.size })),
        )
      : null;
    if (!plans) {
      // Expired, completed or unknown on the server: start over rather than guess.
      clearResumableSession(storage);
      return null;
    }
    return {
      protocol,
      sessionId: stored.sessionId,
      projectSlug: stored.projectSlug,
      files: sessionFiles,
      plans,
      resumed: true,
      ...(stored.chunkChecksum ? { chunkChecksum: stored.chunkChecksum } : {}),
    };
  }

  async function initFresh(): Promise<TActiveSession> {
    const descriptors = files.map((f, i) => {
      const group = groups[i] ?? null;
      return { name: f.name, size: f.size, type: f.type, ...(group !== null ? { group } : {}) };
    });
    if (protocol === 'chunked') {
      const reply = await send(jsonRequest('POST', CHUNKED_ENDPOINTS.chunkedInit, { files: descriptors, ...metadata }));
      const parsed = ZChunkedInitResponseSchema.safeParse(parseJson(reply.text));
      if (reply.status < 200 || reply.status >= 300 || !parsed.success || parsed.data.uploadUrls.length !== files.length) {
        throw new UploadError(readBackendError(reply.text) ?? FALLBACK_MESSAGES.init, { status: reply.status });
      }
      const sessionFiles = parsed.data.uploadUrls.map((t, i) => ({
        file: files[i]!,
        fileId: t.fileId,
        chunkSize: t.chunkSize,
        totalChunks: t.totalChunks,
        uploadUrl: t.uploadUrl,
      }));
      return { protocol, sessionId: parsed.data.sessionId, projectSlug: parsed.data.projectSlug, files: sessionFiles, plans: planFreshUpload(sessionFiles), resumed: false };
    }
    // Each part URL then takes only the bytes whose CRC-32 was given for it.
    const reply = await send(jsonRequest('POST', CHUNKED_ENDPOINTS.directInit, { files: descriptors, metadata, chunkChecksum: 'crc32' }));
    if (reply.status < 200 || reply.status >= 300) {
      throw new UploadError(readBackendError(reply.text) ?? UPLOAD_MESSAGES.initStatus(reply.status), { status: reply.status });
    }
    const parsed = ZDirectChunkedInitResponseSchema.safeParse(parseJson(reply.text));
    if (!parsed.success || parsed.data.files.length !== files.length) throw new UploadError(FALLBACK_MESSAGES.directChunked, { status: reply.status });
    const sessionFiles = parsed.data.files.map((t, i) => ({ file: files[i]!, fileId: t.fileId, chunkSize: t.chunkSize, totalChunks: t.chunkCount }));
    return {
      protocol,
      sessionId: parsed.data.sessionId,
      projectSlug: parsed.data.projectSlug,
      files: sessionFiles,
      plans: planFreshUpload(sessionFiles),
      resumed: false,
      ...(parsed.data.chunkChecksum ? { chunkChecksum: parsed.data.chunkChecksum } : {}),
    };
  }

  async function start(): Promise<void> {
    if (isRunning) throw new UploadError(UPLOAD_MESSAGES.alreadyRunning);
    isRunning = true;
    try {
      session = (await tryResume()) ?? (await initFresh());
      remember(session);
      deps.onSlugKnown?.(session.projectSlug);
      // Chunks already on the server count as sent from the start.
      session.plans.forEach((plan, i) => {
        const onServer = plan.totalChunks - plan.missing.length;
        if (onServer > 0) tracker.addConfirmed(i, Math.min(session!.files[i]!.file.size, onServer * plan.chunkSize));
        if (plan.missing.length === 0) tracker.setStatus(i, 'uploaded');
      });
    } finally {
      isRunning = false;
    }
  }

  async function upload(): Promise<void> {
    const active = session;
    if (!active) throw new UploadError(UPLOAD_MESSAGES.notInitialized);
    if (isRunning) throw new UploadError(UPLOAD_MESSAGES.alreadyRunning);
    isRunning = true;
    try {
      hashes = await sendChunks(active);
    } finally {
      isRunning = false;
    }
  }

  async function sendChunks(active: TActiveSession): Promise<string[]> {
    const hashers: TSha256[] = active.files.map(() => createSha256());
    /** Per file, the index of the next chunk to feed to the whole-file hash. */
    const hashedUpTo = active.files.map(() => 0);
    const urls = active.files.map(() => new Map<number, TChunkUploadUrl>());
    const remainingChunks = active.plans.map((p) => p.missing.length);

    const readChunk = (fileIndex: number, chunkIndex: number) => {
      const f = active.files[fileIndex]!;
      const start = chunkIndex * f.chunkSize;
      return f.file.slice(start, Math.min(f.file.size, start + f.chunkSize)).arrayBuffer();
    };

    /** Feeds chunks [hashedUpTo, upTo) of a file to its whole-file hash (re-reading ones the server already has). */
    const hashThrough = async (fileIndex: number, upTo: number) => {
      while (hashedUpTo[fileIndex]! < upTo) {
        const bytes = await readChunk(fileIndex, hashedUpTo[fileIndex]!);
        hashers[fileIndex]!.update(new Uint8Array(bytes));
        hashedUpTo[fileIndex]!++;
      }
    };

    /**
     * URLs from `fromChunk` on. A session with chunk checksums gets one URL at a time, for the chunk just
     * read and checked (`prepared`): checking ahead would mean reading chunks twice or holding them.
     */
    const fetchUrls = async (fileIndex: number, fromChunk: number, prepared: Pick<TPrepared, 'crc32' | 'sha256'>) => {
      const plan = active.plans[fileIndex]!;
      const one = { sessionId: active.sessionId, fileId: plan.fileId, chunkIndices: [fromChunk] };
      const body =
        active.chunkChecksum === 'crc32'
          ? { ...one, chunkCrc32: [prepared.crc32] }
          : active.chunkChecksum === 'sha256'
            ? { ...one, chunkSha256: [prepared.sha256] }
            : { sessionId: active.sessionId, fileId: plan.fileId, chunkIndices: plan.missing.filter((i) => i >= fromChunk).slice(0, URL_BATCH) };
      const reply = await send(jsonRequest('POST', CHUNKED_ENDPOINTS.directUrls, body));
      const parsed = reply.status >= 200 && reply.status < 300 ? ZDirectUploadUrlsResponseSchema.safeParse(parseJson(reply.text)) : null;
      if (!parsed?.success) {
        throw new UploadError(readBackendError(reply.text) ?? UPLOAD_MESSAGES.noChunkUrl(fromChunk + 1), {
          status: reply.status,
          isSessionLost: reply.status === 404 || reply.status === 410,
        });
      }
      for (const u of parsed.data.uploadUrls) urls[fileIndex]!.set(u.chunkIndex, u);
    };

    /** A chunk read, with its CRC-32 (base64) and, in a session opened with chunk SHA-256s, its SHA-256. */
    type TPrepared = { bytes: ArrayBuffer; crc32: string; sha256: string | undefined; target: TChunkUploadUrl | null };
    const tasks: TChunkTask[] = active.plans.flatMap((plan, fileIndex) => plan.missing.map((chunkIndex) => ({ fileIndex, chunkIndex })));

    const prepare = async (task: TChunkTask): Promise<TPrepared> => {
      await hashThrough(task.fileIndex, task.chunkIndex);
      const bytes = await readChunk(task.fileIndex, task.chunkIndex);
      hashers[task.fileIndex]!.update(new Uint8Array(bytes));
      hashedUpTo[task.fileIndex]!++;
      const checks = { crc32: crc32ToBase64(crc32(new Uint8Array(bytes))), sha256: active.chunkChecksum === 'sha256' ? await digestChunk(bytes) : undefined };
      let target: TChunkUploadUrl | null = null;
      if (active.protocol === 'direct-chunked') {
        if (!urls[task.fileIndex]!.has(task.chunkIndex)) await fetchUrls(task.fileIndex, task.chunkIndex, checks);
        target = urls[task.fileIndex]!.get(task.chunkIndex) ?? null;
        if (!target) throw new UploadError(UPLOAD_MESSAGES.noChunkUrl(task.chunkIndex + 1));
      }
      return { bytes, ...checks, target };
    };

    const sendOne = async (task: TChunkTask, prepared: TPrepared, _attempt: number, chunkSignal: AbortSignal) => {
      const f = active.files[task.fileIndex]!;
      const key = String(task.chunkIndex);
      let target = prepared.target;
      if (active.protocol === 'direct-chunked') {
        // Presigned URLs live minutes: one refused as expired was dropped below, so a retry asks for a fresh one.
        if (!urls[task.fileIndex]!.has(task.chunkIndex)) await fetchUrls(task.fileIndex, task.chunkIndex, prepared);
        target = urls[task.fileIndex]!.get(task.chunkIndex) ?? null;
        if (!target) throw new UploadError(UPLOAD_MESSAGES.noChunkUrl(task.chunkIndex + 1));
      }
      tracker.setStatus(task.fileIndex, 'uploading');
      const isLast = task.chunkIndex === f.totalChunks - 1;
      // Its CRC-32, and its SHA-256 where the session was opened with those (the bucket checks parts against them).
      const checkHeaders = { [CHUNK_CRC32_HEADER]: prepared.crc32, ...(prepared.sha256 === undefined ? {} : { [CHUNK_SHA256_HEADER]: prepared.sha256 }) };
      const request =
        active.protocol === 'chunked'
          ? {
              method: 'POST' as const,
              url: `${f.uploadUrl}?chunk=${task.chunkIndex}&last=${isLast}`,
              headers: { 'Content-Type': 'application/octet-stream', ...checkHeaders },
            }
          : target!.method === 'PUT'
            ? // Exactly the headers the answer lists (with chunk checksums: the signed x-amz-checksum-crc32).
              { method: 'PUT' as const, url: target!.uploadUrl, headers: { ...target!.headers } }
            : {
                method: 'POST' as const,
                url: target!.uploadUrl,
                headers: { 'Content-Type': 'application/octet-stream', ...checkHeaders, ...target!.headers },
              };
      let reply: TTransportResponse;
      try {
        reply = await transport({
          ...request,
          body: prepared.bytes,
          signal: chunkSignal,
          onUploadProgress: (loaded) => tracker.setInFlight(task.fileIndex, key, loaded),
        });
      } finally {
        tracker.setInFlight(task.fileIndex, key, 0);
      }
      const ok = reply.status >= 200 && reply.status < 300;
      if (!ok) {
        const backend = request.method === 'PUT' ? null : readBackendError(reply.text);
        const fallback = active.protocol === 'chunked' ? FALLBACK_MESSAGES.chunk : UPLOAD_MESSAGES.chunkStatus(reply.status);
        // The bucket answers 403 to a presigned URL that has expired: the next try gets a new one.
        const refusedUrl = request.method === 'PUT' && reply.status === 403;
        if (refusedUrl) urls[task.fileIndex]!.delete(task.chunkIndex);
        throw new UploadError(backend ?? fallback, {
          status: reply.status,
          isRetryable: refusedUrl || isRetryableStatus(reply.status),
          isSessionLost: reply.status === 404 || reply.status === 410,
        });
      }
      tracker.addConfirmed(task.fileIndex, prepared.bytes.byteLength);
      remainingChunks[task.fileIndex]!--;
      if (remainingChunks[task.fileIndex] === 0) tracker.setStatus(task.fileIndex, 'uploaded');
    };

    const result = await runChunkQueue({
      tasks,
      prepare,
      send: sendOne,
      sleep: deps.sleep ?? sleepFor,
      ...(deps.waitUntilOnline ? { waitUntilOnline: deps.waitUntilOnline } : {}),
      ...(signal ? { signal } : {}),
    });
    const onServer = active.plans.reduce((sum, p) => sum + (p.totalChunks - p.missing.length), 0);
    if (result.failed.length > 0) {
      for (const failure of result.failed) tracker.setStatus(failure.task.fileIndex, 'error');
    }
    assertAllChunksSent(result, onServer);
    for (let i = 0; i < active.files.length; i++) await hashThrough(i, active.files[i]!.totalChunks);
    return hashers.map((h) => h.digestHex());
  }

  async function complete(): Promise<TChunkedUploadResult> {
    const active = session;
    if (!active || !hashes) throw new UploadError(UPLOAD_MESSAGES.notInitialized);
    if (isRunning) throw new UploadError(UPLOAD_MESSAGES.alreadyRunning);
    isRunning = true;
    try {
      const body = { sessionId: active.sessionId, files: active.files.map((f, i) => ({ fileId: f.fileId, sha256: hashes![i]! })) };
      const url = active.protocol === 'chunked' ? CHUNKED_ENDPOINTS.chunkedComplete : CHUNKED_ENDPOINTS.directComplete;
      const reply = await send(jsonRequest('POST', url, body));
      const parsed = ZCompleteUploadResponseSchema.safeParse(parseJson(reply.text));
      if (reply.status < 200 || reply.status >= 300 || !parsed.success) {
        if (reply.status === 404 || reply.status === 410) clearResumableSession(storage);
        const fallback = active.protocol === 'chunked' ? FALLBACK_MESSAGES.complete : UPLOAD_MESSAGES.completeStatus(reply.status);
        throw new UploadError(readBackendError(reply.text) ?? fallback, { status: reply.status, isSessionLost: reply.status === 404 || reply.status === 410 });
      }
      clearResumableSession(storage);
      return { url: parsed.data.url, slug: parsed.data.slug, resumed: active.resumed };
    } finally {
      isRunning = false;
    }
  }

  return {
    start,
    upload,
    complete,
    /** Init (or resume), send every missing chunk, complete. A session the server lost is forgotten. */
    async run(): Promise<TChunkedUploadResult> {
      try {
        await start();
        tracker.setPhase('uploading');
        await upload();
        tracker.setPhase('finishing');
        return await complete();
      } catch (error) {
        if (error instanceof UploadError && error.isSessionLost) clearResumableSession(storage);
        throw error;
      }
    },
    get sessionId() {
      return session?.sessionId ?? null;
    },
  };
}
