/**
 * Removing what unfinished uploads left behind: the bytes of cancelled sessions, abandoned
 * sessions (no activity for UPLOAD_SESSION_TTL_HOURS), and multipart uploads no session owns.
 * `sweepUploadSessions` is run on an interval by the API process and can be called by ops scripts.
 */
import { projectUploadsPrefix, UPLOADS_PREFIX, uploadKey } from '@dropsite/shared';
import type { TPublishingDeps } from './publishing.deps.ts';
import { findSiteById } from '../site-records/site-records.repository.ts';
import {
  deleteChunks,
  deleteFinishedUploadSessions,
  findAbandonedUploadSessions,
  findLiveMultipartUploadIds,
  findUploadFiles,
  markUploadSessionAborted,
  type TUploadSessionRow,
} from './upload-sessions.repository.ts';
import { runPeriodically, type TPeriodicTask } from '../periodic-task.ts';

const SWEEP_BATCH = 100;
/** How often the API process sweeps; abandonment is measured in hours, so minutes are plenty. */
export const UPLOAD_SWEEP_INTERVAL_MS = 10 * 60_000;

export interface TSweepResult {
  /** Sessions abandoned and discarded in this run. */
  expiredSessions: number;
  /** Multipart uploads no open session owned, aborted. */
  orphanUploads: number;
  /** Finished session rows forgotten. */
  deletedSessions: number;
}

/** Discards a session's stored bytes: its multipart uploads, and assembled files of a site never created. */
export async function discardSessionBytes(deps: Pick<TPublishingDeps, 'db' | 'storage' | 'log'>, session: TUploadSessionRow): Promise<void> {
  const files = await findUploadFiles(deps.db, session.id);
  for (const file of files) {
    if (file.multipart_upload_id) {
      await deps.storage.abortMultipartUpload({ key: uploadKey(session.project_id, file.id), uploadId: file.multipart_upload_id });
    }
    await deleteChunks(deps.db, file.id);
  }
  // Files assembled by a completion that never published belong to no site.
  if (!(await findSiteById(deps.db, session.project_id, { includeDeleted: true }))) {
    await deps.storage.deletePrefix(projectUploadsPrefix(session.project_id));
  }
}

/** One sweep: abandoned sessions, then orphaned multipart uploads, then old finished rows. */
export async function sweepUploadSessions(deps: Pick<TPublishingDeps, 'db' | 'storage' | 'log' | 'clock' | 'config'>): Promise<TSweepResult> {
  const now = deps.clock.now();
  const ttl = deps.config.uploadSessionTtlMs;
  const result: TSweepResult = { expiredSessions: 0, orphanUploads: 0, deletedSessions: 0 };

  for (;;) {
    const batch = await findAbandonedUploadSessions(deps.db, now, SWEEP_BATCH);
    for (const session of batch) {
      // Another sweeper, or the completer coming back to life, may have got there first.
      if (!(await markUploadSessionAborted(deps.db, session.id, now))) continue;
      try {
        await discardSessionBytes(deps, session);
        result.expiredSessions += 1;
      } catch (err) {
        deps.log.error({ err, sessionId: session.id }, 'could not discard the bytes of an abandoned upload');
      }
    }
    if (batch.length < SWEEP_BATCH) break;
  }

  // Multipart uploads created just before a crash, or whose abort failed, belong to no session.
  const live = await findLiveMultipartUploadIds(deps.db);
  const orphans = [];
  for await (const upload of deps.storage.listMultipartUploads(UPLOADS_PREFIX)) {
    if (!live.has(upload.uploadId) && upload.initiatedAt <= now - ttl) orphans.push(upload);
  }
  for (const upload of orphans) {
    try {
      await deps.storage.abortMultipartUpload(upload);
      result.orphanUploads += 1;
    } catch (err) {
      deps.log.error({ err, key: upload.key }, 'could not abort an orphaned multipart upload');
    }
  }

  result.deletedSessions = await deleteFinishedUploadSessions(deps.db, now - ttl);
  if (result.expiredSessions + result.orphanUploads + result.deletedSessions > 0) deps.log.info({ ...result }, 'upload sessions swept');
  return result;
}

/** Runs the sweep every `intervalMs` in this process; stop() waits for a running sweep. */
export function startUploadSessionSweeper(
  deps: Pick<TPublishingDeps, 'db' | 'storage' | 'log' | 'clock' | 'config'>,
  intervalMs: number = UPLOAD_SWEEP_INTERVAL_MS,
): TPeriodicTask {
  return runPeriodically(() => sweepUploadSessions(deps), { everyMs: intervalMs, onError: (err) => deps.log.error({ err }, 'upload session sweep failed') });
}
