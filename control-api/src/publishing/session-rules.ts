/**
 * What every part of an upload session agrees on: how a file is cut into chunks, where its bytes go,
 * how a session's state is read and when it may still be used. Session lifecycle, chunk receipt and
 * assembly all build on these; none of them keeps state.
 */
import { createHash } from 'node:crypto';
import {
  CHUNK_SIZE,
  DIRECT_CHUNK_CHECKSUMS,
  uploadKey,
  ZColorModeSchema,
  ZHeroLayoutSchema,
  ZPublicContactInfoSchema,
  ZSiteSettingsSchema,
  ZSiteThemeSchema,
  ZTemplateIdSchema,
  ZThemeStyleSchema,
  type TDirectChunkChecksum,
} from '@dropsite/shared';
import { z } from 'zod';
import type { TPublishingDeps } from './publishing.deps.ts';
import { AppError } from '../http/app-error.ts';
import { MultipartUploadNotFoundError, type Storage, type TMultipartUpload, type TPartInfo } from '../storage/storage.ts';
import { findChunksBySession, findUploadSessionById, type TUploadFileRow, type TUploadSessionRow } from './upload-sessions.repository.ts';

export type TSessionProtocol = 'chunked' | 'direct-chunked';

/** How long a completer holds a session before another may take over (it is renewed while working). */
export const COMPLETION_LEASE_MS = 5 * 60_000;
/** Lifetime of a presigned part URL: minutes (the client asks again when one has expired). */
export const PART_URL_SECONDS = 300;

/** The form as a session keeps it (JSON in its row): the password only as its hash. */
const ZStoredFormSchema = z.object({
  title: z.string(),
  description: z.string(),
  template: ZTemplateIdSchema,
  authorName: z.string(),
  settings: ZSiteSettingsSchema,
  /** The creator's look choices; absent in sessions opened before they were sent (the template's look). */
  look: z
    .object({
      style: ZThemeStyleSchema.optional(),
      colorMode: ZColorModeSchema.optional(),
      heroLayout: ZHeroLayoutSchema.optional(),
      visitorModeToggle: z.boolean().optional(),
      theme: ZSiteThemeSchema.optional(),
    })
    .optional(),
  /** Absent in sessions opened before contact details were sent. */
  contactInfo: ZPublicContactInfoSchema.optional(),
  expiresAt: z.number().nullable(),
  passwordHash: z.string().nullable(),
  /** Not the form but who publishes: the signed-in creator's account (absent: anonymous, or opened before accounts). */
  ownerCreatorId: z.string().nullable().optional(),
  /** The workspace the site goes into (absent in sessions opened before workspaces: the account's personal one). */
  workspaceId: z.string().nullable().optional(),
  /** Not the form but how the session was opened: its client gives every chunk's SHA-256 with the urls call. */
  chunkChecksum: z.enum(DIRECT_CHUNK_CHECKSUMS).optional(),
});
export type TStoredForm = z.infer<typeof ZStoredFormSchema>;

/** The form a session was opened with, read back from its row: a row that does not hold one is an error, not a guess. */
export function storedFormOf(session: Pick<TUploadSessionRow, 'id' | 'form'>): TStoredForm {
  let json: unknown;
  try {
    json = JSON.parse(session.form);
  } catch (error) {
    throw new Error(`Upload session ${session.id} holds a form that is not JSON`, { cause: error });
  }
  const parsed = ZStoredFormSchema.safeParse(json);
  if (!parsed.success) throw new Error(`Upload session ${session.id} holds an unreadable form: ${z.prettifyError(parsed.error)}`, { cause: parsed.error });
  return parsed.data;
}

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

export function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

/** The chunk checksum a session was opened with (kept beside its form). */
export function chunkChecksumOf(session: Pick<TUploadSessionRow, 'id' | 'form'>): TDirectChunkChecksum | undefined {
  return storedFormOf(session).chunkChecksum;
}

/** Bytes of this session go straight to the bucket (presigned part URLs), never through the API. */
export function isDirectToStorage(session: TUploadSessionRow, storage: Pick<Storage, 'driver'>): boolean {
  return session.protocol === 'direct-chunked' && storage.driver === 's3';
}

/**
 * The checksum every part of this session's multipart uploads carries, checked by the bucket: the one the
 * client promised for every chunk (CRC-32, or SHA-256 from older clients), where its bytes go straight to the bucket.
 */
export function checkedPartsOf(session: TUploadSessionRow, storage: Pick<Storage, 'driver'>): TDirectChunkChecksum | undefined {
  return isDirectToStorage(session, storage) ? chunkChecksumOf(session) : undefined;
}

/** Where a file of the session is stored: its multipart upload's key, then the published file's. */
export function finalKeyOf(session: Pick<TUploadSessionRow, 'project_id'>, file: Pick<TUploadFileRow, 'id'>): string {
  return uploadKey(session.project_id, file.id);
}

/** The multipart upload a file's bytes go to: its final key uploads/{projectId}/{fileId}, chunk i as part i+1. */
export function multipartOf(session: TUploadSessionRow, file: TUploadFileRow, storage: Pick<Storage, 'driver'>): TMultipartUpload {
  if (!file.multipart_upload_id) throw new Error(`File ${file.id} has no multipart upload`);
  const checksum = checkedPartsOf(session, storage);
  return { key: finalKeyOf(session, file), uploadId: file.multipart_upload_id, partSize: file.chunk_size, ...(checksum ? { checksum } : {}) };
}

/** 404 for unknown ids. */
export async function loadSession(deps: Pick<TPublishingDeps, 'db'>, sessionId: string): Promise<TUploadSessionRow> {
  const session = await findUploadSessionById(deps.db, sessionId);
  if (!session) throw new AppError('not_found', 'Upload session not found');
  return session;
}

/** 410 for cancelled or expired sessions, 409 for published ones (unless a completed one is fine here). */
export function assertUsable(session: TUploadSessionRow, now: number, options: { allowCompleted?: boolean } = {}): void {
  if (session.status === 'aborted') throw new AppError('gone', 'This upload was cancelled');
  if (session.status === 'completed') {
    if (options.allowCompleted) return;
    throw new AppError('conflict', 'This upload has already been published');
  }
  if (session.expires_at <= now) throw new AppError('gone', 'This upload session has expired. Please upload the files again.');
}

/** Usable and not being completed: chunks and part URLs need this. */
export function assertOpen(session: TUploadSessionRow, now: number): void {
  assertUsable(session, now);
  if (session.status === 'completing') throw new AppError('conflict', 'This upload is being completed');
}

export function incompleteError(files: readonly TUploadFileRow[], missing: ReadonlyArray<{ fileId: string; chunkIndices: number[] }>): AppError {
  const total = files.reduce((n, f) => n + f.total_chunks, 0);
  const failed = missing.reduce((n, m) => n + m.chunkIndices.length, 0);
  return new AppError('upload_incomplete', `Upload incomplete: ${total - failed}/${total} chunks, ${failed} failed`, { details: { missingChunks: missing } });
}

/**
 * Durable chunks per file. Chunks through the API are rows; parts a browser PUT straight to the
 * bucket are known only to the bucket, so for direct-to-bucket sessions its part list counts too.
 */
export async function findReceivedChunks(
  deps: Pick<TPublishingDeps, 'db' | 'storage'>,
  session: TUploadSessionRow,
  files: readonly TUploadFileRow[],
): Promise<Map<string, Set<number>>> {
  const rows = await findChunksBySession(deps.db, session.id);
  const received = new Map<string, Set<number>>();
  for (const file of files) {
    const set = new Set((rows.get(file.id) ?? []).map((r) => r.chunk_index));
    if (file.assembled_at !== null) for (let i = 0; i < file.total_chunks; i++) set.add(i);
    else if (isDirectToStorage(session, deps.storage) && file.multipart_upload_id) {
      for (const part of await listPartsOrEmpty(deps.storage, multipartOf(session, file, deps.storage))) {
        const index = part.partNumber - 1;
        if (index < file.total_chunks && part.size === expectedChunkSize(file, index)) set.add(index);
      }
    }
    received.set(file.id, set);
  }
  return received;
}

async function listPartsOrEmpty(storage: Storage, upload: TMultipartUpload): Promise<TPartInfo[]> {
  try {
    return await storage.listParts(upload);
  } catch (error) {
    if (error instanceof MultipartUploadNotFoundError) return [];
    throw error;
  }
}
