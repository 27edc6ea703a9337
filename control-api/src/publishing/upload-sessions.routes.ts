/**
 * The resumable publishing calls (spec 7.3 'Chunked' and 'Direct chunked'), on one upload-session core.
 * Their JSON bodies are parsed by createUploadSessionBodyParser, mounted before the app's 64 KB
 * parser: an init announcing 500 files needs more room.
 */
import express, { Router, type Request, type Response } from 'express';
import {
  CHUNK_SIZE,
  crc32FromBase64,
  ZChunkQuerySchema,
  ZChunkedInitRequestSchema,
  ZCompleteUploadRequestSchema,
  ZDirectChunkedInitRequestSchema,
  ZDirectUploadUrlsRequestSchema,
  type TChunkedInitResponse,
  type TCompleteUploadResponse,
  type TDirectChunkedInitResponse,
  type TDirectUploadUrlsRequest,
  type TDirectUploadUrlsResponse,
  type TUploadSessionStatusResponse,
} from '@dropsite/shared';
import type { TPublishingDeps } from './publishing.deps.ts';
import type { TSiteSettings } from '@dropsite/shared';
import { clientAddress } from '../access/request-limits.ts';
import { principalOf } from '../access/principal.ts';
import { admitNotificationRecipient, assertNotificationRecipient, notificationAddressOf } from '../notifications/email-confirmation.service.ts';
import { AppError } from '../http/app-error.ts';
import { rejectInvalidUtf8 } from '../http/json-body.ts';
import { chunkUploadPath, createUploadSessionService, type TInitInput, type TSessionView, type TUploadSessionService } from './upload-sessions.service.ts';
import { issuePendingAnonymousSession, publishOwnerOf } from '../creators/anonymous-creator.ts';
import { assertUploadAllowed } from '../billing/plan-limits.ts';
import { createChunksInFlight } from './chunks-in-flight.ts';
import type { TDeclaredPartChecksums } from './chunk-receipt.ts';
import { createApiRouters, type TApiRouters } from '../http/api-routers.ts';

/** Session and file ids are 128 random bits in base64url; anything else is refused before any lookup. */
const UPLOAD_ID = /^[A-Za-z0-9_-]{22}$/;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
/** Room for 500 declared files with long names. */
const INIT_BODY_LIMIT = '1mb';

/** The calls with JSON bodies larger than the app's default allows. */
export const UPLOAD_SESSION_JSON_PATHS = [
  '/api/chunked-upload/init',
  '/api/direct-upload/init',
  '/api/chunked-upload/complete',
  '/api/direct-upload/complete',
  '/api/direct-upload/urls',
];

/** Parses those bodies with a larger limit; mount before the app's general JSON parser (which then skips them). */
export function createUploadSessionBodyParser(): Router {
  const router = Router();
  router.post(UPLOAD_SESSION_JSON_PATHS, express.json({ limit: INIT_BODY_LIMIT, verify: rejectInvalidUtf8 }));
  return router;
}

export function createUploadSessionRoutes(deps: TPublishingDeps, service: TUploadSessionService = createUploadSessionService(deps)): TApiRouters {
  const routes = createApiRouters();
  // A no-op when createUploadSessionBodyParser already ran; keeps the router usable on its own.
  const json = express.json({ limit: INIT_BODY_LIMIT, verify: rejectInvalidUtf8 });

  /**
   * Notifications on need someone to receive them (400 otherwise), and each client may name only so
   * many notification addresses a day (429 past that); both checked before anything is stored.
   */
  const admitNotificationAddressOf = async (req: Request, res: Response, settings: TSiteSettings) => {
    await assertNotificationRecipient(deps, settings, publishOwnerOf(res).ownerCreatorId);
    const address = notificationAddressOf(settings);
    if (address) await admitNotificationRecipient(deps, clientAddress(req), address);
  };

  const publishGate = deps.limits.publish;
  const chunksInFlight = createChunksInFlight(deps.config.http);
  /**
   * An init is a publish: past the limits (declared size, open sessions, free space) it is refused
   * before anything is stored. A retry of an init already made (same Idempotency-Key) is not counted
   * again; a refused init gives its allowance back (nothing was sent). The creator's session is issued
   * once the upload session is open.
   */
  const openSession = async (_req: Request, res: Response, input: TInitInput): Promise<TSessionView> => {
    const declaredBytes = input.files.reduce((sum, f) => sum + f.size, 0);
    // The plan's delivery size, storage left, active sites and features, before a byte is sent.
    await assertUploadAllowed(deps, { workspaceId: input.workspaceId, bytes: declaredBytes, newSite: true, settings: input.details.settings });
    const isRetry = await service.isRetry(input.idempotencyKey);
    const admission = isRetry ? undefined : await publishGate.admitPublish(principalOf(res), { declaredBytes, opensSession: true, owner: publishOwnerOf(res) });
    let view: TSessionView;
    try {
      view = await service.init(input);
    } catch (err) {
      admission?.cancel({ refund: true });
      throw err;
    }
    if (view.replayed) {
      admission?.cancel({ refund: true });
      return view;
    }
    admission?.sessionOpened(view.session.id);
    await issuePendingAnonymousSession(deps, res);
    return view;
  };

  routes.at('/api/chunked-upload').post('/init', json, async (req, res) => {
    const body = ZChunkedInitRequestSchema.parse(req.body ?? {});
    const { files, anonymousSessionId: _ignored, ...details } = body;
    await admitNotificationAddressOf(req, res, details.settings);
    const view = await openSession(req, res, { protocol: 'chunked', files, details, idempotencyKey: readIdempotencyKey(req), ...publishOwnerOf(res) });
    res.status(view.replayed ? 200 : 201).json({
      success: true,
      sessionId: view.session.id,
      projectSlug: requireSlug(view.session.project_slug),
      uploadUrls: view.files.map((f) => ({
        fileId: f.id,
        chunkSize: f.chunk_size,
        totalChunks: f.total_chunks,
        uploadUrl: chunkUploadPath(view.session.id, f.id),
      })),
    } satisfies TChunkedInitResponse);
  });

  routes.at('/api/direct-upload').post('/init', json, async (req, res) => {
    const body = ZDirectChunkedInitRequestSchema.parse(req.body ?? {});
    const { anonymousSessionId: _ignored, ...details } = body.metadata;
    await admitNotificationAddressOf(req, res, details.settings);
    const view = await openSession(req, res, {
      protocol: 'direct-chunked',
      files: body.files,
      details,
      idempotencyKey: readIdempotencyKey(req),
      ...publishOwnerOf(res),
      chunkChecksum: body.chunkChecksum,
    });
    res.status(view.replayed ? 200 : 201).json({
      success: true,
      sessionId: view.session.id,
      projectSlug: requireSlug(view.session.project_slug),
      files: view.files.map((f) => ({ fileId: f.id, chunkCount: f.total_chunks, chunkSize: f.chunk_size })),
      // A replay matched the same request, so this is the session's own setting.
      ...(body.chunkChecksum ? { chunkChecksum: body.chunkChecksum } : {}),
    } satisfies TDirectChunkedInitResponse);
  });

  routes.at('/api/upload-chunk').post('/:sessionId/:fileId', async (req, res) => {
    const { sessionId, fileId } = req.params;
    if (!UPLOAD_ID.test(sessionId) || !UPLOAD_ID.test(fileId)) throw new AppError('not_found', 'Upload session not found');
    const query = ZChunkQuerySchema.safeParse(req.query);
    if (!query.success) throw new AppError('bad_request', 'chunk must be a whole number from 0');
    const isLast = req.query.last === undefined ? undefined : query.data.last;
    const declaredSha256 = req.get('x-chunk-sha256')?.trim().toLowerCase();
    if (declaredSha256 !== undefined && !SHA256_HEX.test(declaredSha256)) throw new AppError('bad_request', 'X-Chunk-Sha256 must be a hex SHA-256');
    const declaredCrc32 = req.get('x-chunk-crc32')?.trim();
    if (declaredCrc32 !== undefined && crc32FromBase64(declaredCrc32) === undefined) {
      throw new AppError('bad_request', 'X-Chunk-Crc32 must be the base64 of a CRC-32 (4 big-endian bytes)');
    }
    const lengthHeader = req.get('content-length');
    const contentLength = lengthHeader !== undefined && /^\d{1,15}$/.test(lengthHeader) ? Number(lengthHeader) : undefined;

    // A stalled sender cannot hold its chunk's lock: the app cuts an upload body after
    // UPLOAD_IDLE_TIMEOUT_SECONDS without a byte (http/slow-clients.ts). No socket timeout here: one
    // cleared at the response's end would also clear Node's keep-alive timeout, leaving idle connections open.
    // Node drains an unread body after a refusal so the client can read it; a body larger than any
    // chunk (or of unknown length) is not worth draining, so that connection is closed instead.
    res.once('finish', () => {
      if (!req.complete && res.statusCode >= 400 && (contentLength === undefined || contentLength > 2 * CHUNK_SIZE)) req.socket.destroySoon();
    });
    // At most so many chunks of one session, and of one address, at once (429 past that, before any lookup).
    const release = chunksInFlight.admit(sessionId, clientAddress(req));
    res.once('close', release);

    const result = await service.receiveChunk({
      sessionId,
      fileId,
      index: query.data.chunk,
      isLast,
      contentLength,
      declaredSha256,
      declaredCrc32,
      body: req,
      cancel: () => req.destroy(new Error('Upload cancelled')),
    });
    res.status(200).json({ success: true, duplicate: result.duplicate });
  });

  // Either call completes either kind of session: the session knows how its bytes arrived.
  const complete = async (req: Request, res: Response) => {
    const body = ZCompleteUploadRequestSchema.parse(req.body ?? {});
    requireUploadId(body.sessionId);
    const result = await service.complete(body.sessionId, body.files);
    res.status(200).json({ success: true, url: result.url, slug: result.slug, sessionId: body.sessionId } satisfies TCompleteUploadResponse);
  };
  routes.at('/api/chunked-upload').post('/complete', json, complete);
  routes.at('/api/direct-upload').post('/complete', json, complete);

  routes.at('/api/direct-upload').post('/urls', json, async (req, res) => {
    const body = ZDirectUploadUrlsRequestSchema.parse(req.body ?? {});
    requireUploadId(body.sessionId);
    requireUploadId(body.fileId);
    const indices = [...new Set(body.chunkIndices)];
    if (body.chunkSha256 && body.chunkCrc32) throw new AppError('bad_request', 'Give either chunkCrc32 or chunkSha256, not both');
    const urls = await service.createPartUrls(body.sessionId, body.fileId, indices, declaredPartChecksums(body));
    res.set('Cache-Control', 'no-store').json({ success: true, uploadUrls: urls } satisfies TDirectUploadUrlsResponse);
  });

  routes.at('/api/upload-session').get('/status', async (req, res) => {
    const sessionId = req.query.sessionId;
    if (typeof sessionId !== 'string' || sessionId === '') throw new AppError('bad_request', 'sessionId is required');
    requireUploadId(sessionId);
    const { session, files } = await service.describe(sessionId);
    res.set('Cache-Control', 'no-store').json({
      success: true,
      session: {
        sessionId: session.id,
        projectSlug: requireSlug(session.project_slug),
        protocol: session.protocol === 'direct-chunked' ? 'direct-chunked' : 'chunked',
        status: session.status,
        expiresAt: new Date(session.expires_at).toISOString(),
        files: files.map(({ file, receivedChunks }) => ({
          fileId: file.id,
          name: file.name,
          size: file.size,
          chunkSize: file.chunk_size,
          totalChunks: file.total_chunks,
          receivedChunks,
        })),
      },
    } satisfies TUploadSessionStatusResponse);
  });

  routes.at('/api/upload-session').delete('/:sessionId', async (req, res) => {
    requireUploadId(req.params.sessionId);
    await service.abort(req.params.sessionId);
    res.status(204).end();
  });

  return routes.routers;
}

/** The checksum given for each chunk index of a urls call (its form checked by the request schema; an index given twice must be given the same). */
function declaredPartChecksums(body: TDirectUploadUrlsRequest): TDeclaredPartChecksums | undefined {
  const kind = body.chunkCrc32 ? 'crc32' : body.chunkSha256 ? 'sha256' : undefined;
  const values = body.chunkCrc32 ?? body.chunkSha256;
  if (!kind || !values) return undefined;
  const byIndex = new Map<number, string>();
  for (const [i, index] of body.chunkIndices.entries()) {
    const value = values[i]!;
    if ((byIndex.get(index) ?? value) !== value) throw new AppError('bad_request', `Chunk ${index} is given two different ${kind === 'crc32' ? 'CRC-32s' : 'SHA-256s'}`);
    byIndex.set(index, value);
  }
  return { kind, byIndex };
}

function requireUploadId(id: string): void {
  if (!UPLOAD_ID.test(id)) throw new AppError('not_found', 'Upload session not found');
}

function requireSlug(slug: string | null): string {
  if (!slug) throw new Error('Upload session has no reserved slug');
  return slug;
}

function readIdempotencyKey(req: Request): string | undefined {
  const key = req.get('idempotency-key');
  if (key === undefined) return undefined;
  if (!IDEMPOTENCY_KEY.test(key)) throw new AppError('bad_request', 'Idempotency-Key must be 1-255 visible ASCII characters');
  return key;
}
