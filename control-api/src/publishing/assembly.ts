/**
 * Assembly: the completion of a session. One completer at a time holds a lease on the session (renewed
 * while it works; a crashed completer's lease runs out and another takes over). Each file's parts are
 * checked against the recorded chunks and completed into the final key uploads/{projectId}/{fileId}
 * (on disk: one fsync of the data file and a rename), its SHA-256 is checked against the client's,
 * then the site is published the way a regular upload is. Retried completions are idempotent.
 */
import type { TPublishingDeps } from './publishing.deps.ts';
import { AppError } from '../http/app-error.ts';
import { findSiteById } from '../site-records/site-records.repository.ts';
import { InvalidPartError, MultipartUploadNotFoundError, type TPartInfo } from '../storage/storage.ts';
import type { TStoredFile } from '../site-records/stored-files.ts';
import { publishSite } from './upload.service.ts';
import type { TRunningFileHashes } from './running-file-hash.ts';
import {
  COMPLETION_LEASE_MS,
  assertUsable,
  expectedChunkSize,
  finalKeyOf,
  findReceivedChunks,
  incompleteError,
  isDirectToStorage,
  loadSession,
  multipartOf,
  range,
  storedFormOf,
} from './session-rules.ts';
import type { TStoredChunkCheck } from './stored-chunk-check.ts';
import {
  claimUploadSessionCompletion,
  deleteChunks,
  findChunksBySession,
  findUploadFiles,
  markUploadFileAssembled,
  markUploadSessionCompleted,
  renewUploadSessionLease,
  reopenUploadSession,
  resetUploadFile,
  type TUploadChunkRow,
  type TUploadFileRow,
  type TUploadSessionRow,
} from './upload-sessions.repository.ts';

export interface TCompletion {
  url: string;
  slug: string;
}

/** The whole-file SHA-256 a client declares at complete. */
export type TDeclaredFileHashes = ReadonlyArray<{ fileId: string; sha256: string }>;

export interface TAssembly {
  /** Assembles, verifies and publishes the session; a concurrent call in this process waits for the same result. */
  complete(sessionId: string, declared: TDeclaredFileHashes | undefined): Promise<TCompletion>;
}

/** How often a completer waiting for another process looks again. */
const COMPLETION_POLL_MS = 250;

export function createAssembly(deps: TPublishingDeps, parts: { runningHashes: TRunningFileHashes; storedChunks: TStoredChunkCheck }): TAssembly {
  const { db, storage, clock, log, config } = deps;
  const { runningHashes, storedChunks } = parts;
  /** Completions running in this process; a concurrent complete waits for the same result. */
  const completions = new Map<string, Promise<TCompletion>>();

  async function complete(sessionId: string, declared: TDeclaredFileHashes | undefined): Promise<TCompletion> {
    const running = completions.get(sessionId);
    if (running) return running;
    const promise = completeOnce(sessionId, declared).finally(() => completions.delete(sessionId));
    completions.set(sessionId, promise);
    return promise;
  }

  async function completeOnce(sessionId: string, declared: TDeclaredFileHashes | undefined): Promise<TCompletion> {
    let session = await loadSession(deps, sessionId);
    if (session.status === 'completed') return completionOf(session);
    assertUsable(session, clock.now());
    const files = await findUploadFiles(db, session.id);
    const expectedSha = mergeDeclaredHashes(files, declared ?? []);
    await storedChunks.check(session, files);

    // Checked before claiming, so a premature complete leaves the session open and untouched.
    if (session.status === 'open') await assertAllChunksReceived(session, files);

    for (let wait = 0; !(await claimUploadSessionCompletion(db, session.id, clock.now(), clock.now() + COMPLETION_LEASE_MS)); wait++) {
      session = await loadSession(deps, sessionId);
      if (session.status === 'completed') return completionOf(session);
      assertUsable(session, clock.now());
      // Another process is completing it: wait for its outcome rather than assembling twice.
      if (wait > (COMPLETION_LEASE_MS / COMPLETION_POLL_MS) * 2) throw new AppError('service_unavailable', 'This upload is still being completed. Please try again.');
      await new Promise((resolve) => setTimeout(resolve, COMPLETION_POLL_MS));
    }

    const leaseTimer = setInterval(() => {
      void renewUploadSessionLease(db, session.id, clock.now() + COMPLETION_LEASE_MS).catch((err: unknown) => log.warn({ err }, 'could not renew an upload lease'));
    }, COMPLETION_LEASE_MS / 3);
    leaseTimer.unref();
    try {
      const assembled: TStoredFile[] = [];
      const rowsByFile = await findChunksBySession(db, session.id);
      for (const file of files) assembled.push(await assembleFile(session, file, expectedSha.get(file.id), rowsByFile.get(file.id) ?? []));
      const form = storedFormOf(session);
      // A completer that crashed after publishing left the site behind: this run only records it.
      if (!(await findSiteById(db, session.project_id, { includeDeleted: true }))) {
        await publishSite(deps, {
          siteId: session.project_id,
          form: {
            title: form.title,
            description: form.description,
            template: form.template,
            authorName: form.authorName,
            settings: form.settings,
            contactInfo: form.contactInfo,
            ...form.look,
            expiryDate: form.expiresAt === null ? undefined : new Date(form.expiresAt),
          },
          files: assembled,
          anonymousSessionId: session.anonymous_session_id,
          ownerCreatorId: form.ownerCreatorId ?? null,
          workspaceId: form.workspaceId ?? form.ownerCreatorId ?? null,
          slug: session.project_slug ?? undefined,
          passwordHash: form.passwordHash,
        });
      }
      await markUploadSessionCompleted(db, session.id, clock.now());
      for (const file of files) storedChunks.forget(file.id);
      log.info({ sessionId: session.id, projectId: session.project_id, files: files.length }, 'upload session completed');
      return completionOf({ ...session, status: 'completed' });
    } catch (error) {
      await reopenUploadSession(db, session.id, clock.now() + config.uploadSessionTtlMs).catch((err: unknown) => log.error({ err }, 'could not reopen an upload session'));
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

  async function assertAllChunksReceived(session: TUploadSessionRow, files: readonly TUploadFileRow[]): Promise<void> {
    const received = await findReceivedChunks(deps, session, files);
    const missing = files
      .map((f) => {
        const have = received.get(f.id) ?? new Set<number>();
        return { fileId: f.id, chunkIndices: range(f.total_chunks).filter((i) => !have.has(i)) };
      })
      .filter((m) => m.chunkIndices.length > 0);
    if (missing.length > 0) throw incompleteError(files, missing);
  }

  /** Assembles one file into its final object and verifies it; idempotent across retried completions. */
  async function assembleFile(session: TUploadSessionRow, file: TUploadFileRow, expectedSha: string | undefined, chunkRows: readonly TUploadChunkRow[]): Promise<TStoredFile> {
    const key = finalKeyOf(session, file);
    const published = { fileId: file.id, storageKey: key, size: file.size, originalName: file.name, clientType: file.type, group: file.group_name };
    if (file.assembled_at !== null && file.sha256) {
      const head = await storage.head(key);
      if (head?.size === file.size && (!expectedSha || expectedSha === file.sha256)) return { ...published, sha256: file.sha256 };
    }
    if (file.size === 0) {
      await storage.put(key, new Uint8Array(0), { contentType: 'application/octet-stream' });
    } else {
      await completeMultipart(session, file, chunkRows);
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

  async function completeMultipart(session: TUploadSessionRow, file: TUploadFileRow, chunkRows: readonly TUploadChunkRow[]): Promise<void> {
    const all = () => incompleteError([file], [{ fileId: file.id, chunkIndices: range(file.total_chunks) }]);
    if (!file.multipart_upload_id) throw all();
    const upload = multipartOf(session, file, storage);
    let stored: TPartInfo[];
    try {
      stored = await storage.listParts(upload);
    } catch (error) {
      if (!(error instanceof MultipartUploadNotFoundError)) throw error;
      // Completed by a run that crashed before recording it: the object is there already.
      if ((await storage.head(upload.key))?.size === file.size) return;
      await resetUploadFile(db, file.id, null);
      throw all();
    }
    const partsByNumber = new Map(stored.map((p) => [p.partNumber, p]));
    const rows = new Map(chunkRows.map((r) => [r.chunk_index, r]));
    const missing: number[] = [];
    const stale: number[] = [];
    for (let index = 0; index < file.total_chunks; index++) {
      const part = partsByNumber.get(index + 1);
      const row = rows.get(index);
      const sizeOk = part?.size === expectedChunkSize(file, index);
      if (row) {
        // A part replaced behind the row's back (another writer) no longer holds the recorded bytes.
        if (!part || part.etag !== row.etag || !sizeOk) {
          stale.push(index);
          missing.push(index);
        }
      } else if (!(isDirectToStorage(session, storage) && part && sizeOk)) {
        // Only the bucket knows of parts a browser sent it; through the API, a chunk without a row was never acknowledged.
        missing.push(index);
      }
    }
    if (stale.length > 0) await deleteChunks(db, file.id, stale);
    if (missing.length > 0) throw incompleteError([file], [{ fileId: file.id, chunkIndices: missing }]);
    try {
      await storage.completeMultipartUpload(
        upload,
        // Parts checked against a CRC-32 (or SHA-256) are completed with it, as the bucket listed it.
        range(file.total_chunks).map((i) => {
          const { etag, checksumCrc32, checksumSha256 } = partsByNumber.get(i + 1)!;
          return { partNumber: i + 1, etag, ...(checksumCrc32 ? { checksumCrc32 } : {}), ...(checksumSha256 ? { checksumSha256 } : {}) };
        }),
      );
    } catch (error) {
      if (error instanceof InvalidPartError) {
        // The bucket disagrees with its own part list (a part replaced meanwhile): start this file over.
        await storage.abortMultipartUpload(upload);
        await resetUploadFile(db, file.id, null);
        throw all();
      }
      throw error;
    }
  }

  return { complete };
}

function mergeDeclaredHashes(files: readonly TUploadFileRow[], declared: TDeclaredFileHashes): Map<string, string> {
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
