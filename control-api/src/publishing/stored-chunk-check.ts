/**
 * Acknowledged chunks survive a crash without an fsync per chunk. Where storage writes parts
 * through the page cache (disk: `Storage.readPart` is there, and the data file is fsynced once,
 * when the file is assembled), a chunk recorded by another process (an earlier run of the API,
 * which may have stopped with the power, taking unwritten pages with it) counts only once its
 * bytes were read back and matched the checksum recorded with it (its CRC-32). One that does not match (or
 * whose part is gone) is forgotten, so the status call lists it as missing and the client sends
 * it again. Each file is checked once per process, before any other use of its chunks; files
 * this process opened, or whose chunks it checked, are trusted from then on (the page cache it
 * wrote to is the one it reads). Storage whose parts are durable when put answers (S3) is never checked.
 */
import type { TPublishingDeps } from './publishing.deps.ts';
import { MultipartUploadNotFoundError, type TPartInfo } from '../storage/storage.ts';
import { createChunkChecksum, recordedChecksumKind } from './chunk-meter.ts';
import { expectedChunkSize, multipartOf } from './session-rules.ts';
import { deleteChunks, findChunksBySession, type TUploadFileRow, type TUploadSessionRow } from './upload-sessions.repository.ts';

export interface TStoredChunkCheck {
  /** Files whose every chunk this process received itself (a session it just opened). */
  trust(fileIds: Iterable<string>): void;
  /** Resolves once the recorded chunks of these files can be believed; chunks whose bytes do not match are forgotten. */
  check(session: TUploadSessionRow, files: readonly TUploadFileRow[]): Promise<void>;
  forget(fileId: string): void;
}

/** Files remembered as checked; beyond, the oldest is checked again on its next use (a read, never a loss). */
const MAX_TRUSTED_FILES = 10_000;

export function createStoredChunkCheck(deps: Pick<TPublishingDeps, 'db' | 'storage' | 'log'>): TStoredChunkCheck {
  const { db, storage, log } = deps;
  /** File id → its check (resolved once done); a file in here is not checked again. */
  const checked = new Map<string, Promise<void>>();
  const done = Promise.resolve();

  function remember(fileId: string, check: Promise<void>): void {
    checked.set(fileId, check);
    if (checked.size > MAX_TRUSTED_FILES) checked.delete(checked.keys().next().value!);
  }

  async function checkFiles(session: TUploadSessionRow, files: readonly TUploadFileRow[]): Promise<void> {
    const rowsByFile = await findChunksBySession(db, session.id);
    for (const file of files) {
      const rows = (rowsByFile.get(file.id) ?? []).filter((r) => r.size > 0);
      if (rows.length === 0 || file.assembled_at !== null || !file.multipart_upload_id || !storage.readPart) continue;
      const upload = multipartOf(session, file, storage);
      let parts: Map<number, TPartInfo>;
      try {
        parts = new Map((await storage.listParts(upload)).map((p) => [p.partNumber, p]));
      } catch (error) {
        if (!(error instanceof MultipartUploadNotFoundError)) throw error;
        parts = new Map();
      }
      const lost: number[] = [];
      for (const row of rows) {
        const part = parts.get(row.chunk_index + 1);
        const size = expectedChunkSize(file, row.chunk_index);
        if (!part || part.etag !== row.etag || part.size !== size || !(await holdsBytes(upload, row.chunk_index, size, row.checksum))) lost.push(row.chunk_index);
      }
      if (lost.length > 0) {
        await deleteChunks(db, file.id, lost);
        log.warn({ sessionId: session.id, fileId: file.id, chunks: lost }, 'recorded chunks did not survive an earlier stop; they will be sent again');
      }
    }
  }

  async function holdsBytes(upload: ReturnType<typeof multipartOf>, index: number, size: number, recorded: string): Promise<boolean> {
    const checksum = createChunkChecksum(recordedChecksumKind(recorded));
    try {
      for await (const piece of storage.readPart!(upload, index + 1, size)) checksum.update(piece);
    } catch {
      // Shorter than recorded, or unreadable: not the chunk that was acknowledged.
      return false;
    }
    return checksum.digest() === recorded;
  }

  return {
    trust(fileIds) {
      for (const id of fileIds) remember(id, done);
    },

    async check(session, files) {
      const pending = files.filter((f) => !checked.has(f.id));
      if (pending.length > 0) {
        const running = checkFiles(session, pending);
        for (const file of pending) remember(file.id, running);
        // A failed check is tried again by the next caller rather than trusted.
        running.catch(() => {
          for (const file of pending) if (checked.get(file.id) === running) checked.delete(file.id);
        });
      }
      await Promise.all(files.map((f) => checked.get(f.id) ?? done));
    },

    forget(fileId) {
      checked.delete(fileId);
    },
  };
}
