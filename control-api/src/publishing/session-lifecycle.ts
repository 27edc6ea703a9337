/**
 * Session lifecycle: init (declare the files, reserve the link; a retry with the same Idempotency-Key
 * replays the session it made), status (which chunks are durable, for resuming), abort (cut the chunks
 * still streaming, discard the bytes). Sessions expire UPLOAD_SESSION_TTL_HOURS after their last
 * activity; the sweeper in upload-sessions.cleanup.ts discards what expired ones left.
 */
import { createHash } from 'node:crypto';
import { CHUNK_SIZE, lookChoiceOf, type TDirectChunkChecksum, type TUploadMetadata } from '@dropsite/shared';
import type { TPublishingDeps } from './publishing.deps.ts';
import { newId } from '../db/ids.ts';
import { AppError } from '../http/app-error.ts';
import { hashPassword } from '../sites/password-hash.ts';
import { allocateSlug } from './upload.service.ts';
import type { TRunningFileHashes } from './running-file-hash.ts';
import { assertUsable, countChunks, findReceivedChunks, hashIdempotencyKey, loadSession, type TSessionProtocol, type TStoredForm } from './session-rules.ts';
import type { TStoredChunkCheck } from './stored-chunk-check.ts';
import { discardSessionBytes } from './upload-sessions.cleanup.ts';
import {
  findUploadFiles,
  findUploadSessionByIdempotencyKey,
  insertUploadSession,
  markUploadSessionAborted,
  type TUploadFileRow,
  type TUploadSessionRow,
} from './upload-sessions.repository.ts';

export interface TInitInput {
  protocol: TSessionProtocol;
  /** Each group already cleaned by ZFileGroupSchema (null or absent for none). */
  files: ReadonlyArray<{ name: string; size: number; type: string; sha256?: string | undefined; group?: string | null | undefined }>;
  details: Omit<TUploadMetadata, 'anonymousSessionId'>;
  idempotencyKey: string | undefined;
  anonymousSessionId: string | null;
  /** The signed-in creator's account the site will belong to (then no anonymous session is kept). */
  ownerCreatorId: string | null;
  /** The workspace the site will be in (the publisher's current one); null for an anonymous publish. */
  workspaceId: string | null;
  /** Direct chunked: the client declares each chunk's SHA-256, and part URLs bind it. */
  chunkChecksum?: TDirectChunkChecksum | undefined;
}

export interface TSessionView {
  session: TUploadSessionRow;
  files: TUploadFileRow[];
  replayed: boolean;
}

export interface TSessionStatus {
  session: TUploadSessionRow;
  files: Array<{ file: TUploadFileRow; receivedChunks: number[] }>;
}

export interface TSessionLifecycle {
  init(input: TInitInput): Promise<TSessionView>;
  /** Whether an init with this idempotency key already opened a session (a retry, which the publish limits do not count again). */
  isRetry(idempotencyKey: string | undefined): Promise<boolean>;
  describe(sessionId: string): Promise<TSessionStatus>;
  abort(sessionId: string): Promise<void>;
}

/** Tries at a fresh session id and slug before giving up (a clash is rare; two in a row rarer still). */
const INIT_ATTEMPTS = 3;

export function createSessionLifecycle(
  deps: TPublishingDeps,
  parts: { runningHashes: TRunningFileHashes; storedChunks: TStoredChunkCheck; cancelInFlight(sessionId: string): Promise<void> },
): TSessionLifecycle {
  const { db, clock, log, config } = deps;

  async function isRetry(idempotencyKey: string | undefined): Promise<boolean> {
    return idempotencyKey !== undefined && (await findUploadSessionByIdempotencyKey(db, hashIdempotencyKey(idempotencyKey))) !== null;
  }

  async function init(input: TInitInput): Promise<TSessionView> {
    const now = clock.now();
    const total = input.files.reduce((sum, f) => sum + f.size, 0);
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
      look: lookChoiceOf(input.details),
      expiresAt,
      passwordHash: input.details.password ? await hashPassword(input.details.password) : null,
      ownerCreatorId: input.ownerCreatorId,
      workspaceId: input.workspaceId,
      ...(input.chunkChecksum ? { chunkChecksum: input.chunkChecksum } : {}),
    };
    for (let attempt = 0; attempt < INIT_ATTEMPTS; attempt++) {
      const sessionId = newId();
      const session = {
        id: sessionId,
        project_id: newId(),
        protocol: input.protocol,
        status: 'open' as const,
        idempotency_key: idempotencyKey,
        anonymous_session_id: input.ownerCreatorId ? null : input.anonymousSessionId,
        form: JSON.stringify(form),
        created_at: now,
        expires_at: now + config.uploadSessionTtlMs,
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
        group_name: f.group ?? null,
      }));
      if ((await insertUploadSession(db, session, files)) === 'inserted') {
        // Every chunk of these files will come through this process (or be checked by the next one).
        parts.storedChunks.trust(files.map((f) => f.id));
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
    assertUsable(existing, clock.now(), { allowCompleted: true });
    return { session: existing, files: await findUploadFiles(db, existing.id), replayed: true };
  }

  async function describe(sessionId: string): Promise<TSessionStatus> {
    const session = await loadSession(deps, sessionId);
    assertUsable(session, clock.now(), { allowCompleted: true });
    const files = await findUploadFiles(db, session.id);
    // A resuming client sends what is listed missing, so only chunks known to be intact are listed.
    if (session.status !== 'completed') await parts.storedChunks.check(session, files);
    const received = await findReceivedChunks(deps, session, files);
    return {
      session,
      files: files.map((f) => ({ file: f, receivedChunks: [...(received.get(f.id) ?? [])].sort((a, b) => a - b) })),
    };
  }

  async function abort(sessionId: string): Promise<void> {
    const session = await loadSession(deps, sessionId);
    if (session.status === 'aborted') throw new AppError('gone', 'This upload was cancelled');
    if (session.status === 'completed') throw new AppError('conflict', 'This upload has already been published');
    if (!(await markUploadSessionAborted(db, session.id, clock.now()))) {
      const now = await loadSession(deps, sessionId);
      if (now.status === 'completed') throw new AppError('conflict', 'This upload has already been published');
      if (now.status === 'aborted') throw new AppError('gone', 'This upload was cancelled');
      throw new AppError('conflict', 'This upload is being completed');
    }
    await parts.cancelInFlight(session.id);
    await discardSessionBytes(deps, session);
    for (const file of await findUploadFiles(db, session.id)) {
      parts.runningHashes.forget(file.id);
      parts.storedChunks.forget(file.id);
    }
    log.info({ sessionId: session.id }, 'upload session cancelled');
  }

  return { init, isRetry, describe, abort };
}

/** What makes two init requests the same: files and form, the password aside (it is never stored in clear). */
function fingerprintOf(input: TInitInput): string {
  const { password: _password, ...details } = input.details;
  const canonical = JSON.stringify({
    protocol: input.protocol,
    // A group only when one is given, so an init made before groups existed keeps its fingerprint.
    files: input.files.map((f) => [f.name, f.size, f.type, f.sha256 ?? null, ...(f.group ? [f.group] : [])]),
    details: { ...details, expiryDate: details.expiryDate?.getTime() ?? null },
    ...(input.chunkChecksum ? { chunkChecksum: input.chunkChecksum } : {}),
  });
  return createHash('sha256').update(canonical).digest('hex');
}
