/** Which chunks still have to be sent, from what the server says it holds (GET /api/upload-session/status). */
import type { TUploadSession } from '@dropsite/shared';

export interface TFileChunkPlan {
  fileId: string;
  chunkSize: number;
  totalChunks: number;
  /** 0-based indices still to send, ascending. */
  missing: number[];
}

/** How many chunks a file of `size` bytes has; an empty file still sends one empty chunk. */
export function countChunks(size: number, chunkSize: number): number {
  return Math.max(1, Math.ceil(size / chunkSize));
}

/** Every chunk of every file: a fresh upload. */
export function planFreshUpload(targets: readonly { fileId: string; chunkSize: number; totalChunks: number }[]): TFileChunkPlan[] {
  return targets.map((t) => ({ ...t, missing: Array.from({ length: t.totalChunks }, (_, i) => i) }));
}

/**
 * The chunks the server lacks, per file, in the order of our files. Null when the session no
 * longer describes these files (another file set, other chunking), so resuming must not be tried.
 */
export function planResume(session: Pick<TUploadSession, 'files' | 'status'>, files: readonly { fileId: string; size: number }[]): TFileChunkPlan[] | null {
  if (session.status !== 'open') return null;
  const byId = new Map(session.files.map((f) => [f.fileId, f]));
  const plans: TFileChunkPlan[] = [];
  for (const file of files) {
    const remote = byId.get(file.fileId);
    if (!remote || remote.size !== file.size) return null;
    const expected = Math.ceil(file.size / remote.chunkSize);
    if (remote.totalChunks !== expected && remote.totalChunks !== Math.max(1, expected)) return null;
    const received = new Set(remote.receivedChunks.filter((i) => Number.isInteger(i) && i >= 0 && i < remote.totalChunks));
    const missing: number[] = [];
    for (let i = 0; i < remote.totalChunks; i++) if (!received.has(i)) missing.push(i);
    plans.push({ fileId: remote.fileId, chunkSize: remote.chunkSize, totalChunks: remote.totalChunks, missing });
  }
  return plans;
}
