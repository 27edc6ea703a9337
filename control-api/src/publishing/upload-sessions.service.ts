/**
 * The one upload-session core behind the chunked and direct-chunked protocols:
 * init (declare files, reserve the link) → chunks (each stored as a part of the file's multipart
 * upload, in any order, resumable) → complete (assemble, verify SHA-256, then the same publish path
 * as the regular upload). Nothing is published before complete succeeds.
 *
 * Three parts, each its own module: session lifecycle (init, status, abort), chunk receipt (checksums,
 * in-flight chunks, part URLs) and assembly (lease, verification, publish). They share each file's
 * running hash (running-file-hash.ts) and the check of chunks an earlier run acknowledged
 * (stored-chunk-check.ts); the rules they agree on are in session-rules.ts.
 *
 * Storage: every file with bytes is a multipart upload into its final key uploads/{projectId}/{fileId};
 * chunk i is part i+1. Disk writes parts in place (completing is an fsync and a rename), S3 keeps parts
 * until CompleteMultipartUpload. Direct-chunked sessions on S3 hand out presigned part URLs, so those
 * bytes never pass through the API; the bucket's ListParts says which arrived.
 */
import type { TPublishingDeps } from './publishing.deps.ts';
import { createAssembly } from './assembly.ts';
import { createChunkReceipt } from './chunk-receipt.ts';
import { createRunningFileHashes } from './running-file-hash.ts';
import { createSessionLifecycle } from './session-lifecycle.ts';
import { createStoredChunkCheck } from './stored-chunk-check.ts';

export type { TInitInput, TSessionView } from './session-lifecycle.ts';
export { chunkUploadPath } from './session-rules.ts';

export type TUploadSessionService = ReturnType<typeof createUploadSessionService>;

export function createUploadSessionService(deps: TPublishingDeps) {
  /** Each file's SHA-256, computed while its chunks arrive, so complete need not read the file again. */
  const runningHashes = createRunningFileHashes({
    onError: (err) => deps.log.warn({ err }, 'could not read a chunk back to hash its file; the file is hashed at complete'),
  });
  const storedChunks = createStoredChunkCheck(deps);
  const receipt = createChunkReceipt(deps, { runningHashes, storedChunks });
  const lifecycle = createSessionLifecycle(deps, { runningHashes, storedChunks, cancelInFlight: receipt.cancelInFlight });
  const assembly = createAssembly(deps, { runningHashes, storedChunks });
  return {
    init: lifecycle.init,
    isRetry: lifecycle.isRetry,
    describe: lifecycle.describe,
    abort: lifecycle.abort,
    receiveChunk: receipt.receiveChunk,
    createPartUrls: receipt.createPartUrls,
    inFlightCount: receipt.inFlightCount,
    complete: assembly.complete,
  };
}
