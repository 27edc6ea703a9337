/** POST /api/upload and POST /api/direct-upload: the one-request publishes (spec 7.3 "Regular" and "Direct"), and the direct status poll. */
import type { RequestHandler } from 'express';
import multer from 'multer';
import { UPLOAD_LIMITS, ZUploadFormSchema, isValidSlug, projectUploadsPrefix, type TDirectUploadStatusResponse, type TUploadResponse } from '@dropsite/shared';
import { readRefusedBody } from '../http/slow-clients.ts';
import { AppError } from '../http/app-error.ts';
import { buildProgressOf, openSiteBySlug } from '../sites/sites.service.ts';
import { principalOf } from '../access/principal.ts';
import type { TPublishingDeps } from './publishing.deps.ts';
import { newId } from '../db/ids.ts';
import { createStreamingStorageEngine, getUploadTarget, setUploadTarget, type TStoredUpload } from './streaming-storage-engine.ts';
import { publishSite } from './upload.service.ts';
import { declaredRequestBytes } from './publish-limits.ts';
import { largestDeliveryLimit } from '../billing/plan-limits.ts';
import { planUploadTarget, type TPlanUploadTarget } from './plan-upload-target.ts';
import { issuePendingAnonymousSession, publishOwnerOf } from '../creators/anonymous-creator.ts';
import { clientAddress } from '../access/request-limits.ts';
import { admitNotificationRecipient, assertNotificationRecipient, notificationAddressOf } from '../notifications/email-confirmation.service.ts';
import { createApiRouters, type TApiRouters } from '../http/api-routers.ts';

type TMulterStoredFile = Express.Multer.File & TStoredUpload;

export function createUploadRoutes(deps: TPublishingDeps): TApiRouters {
  const routes = createApiRouters();
  // Multer's own cap is the largest any plan allows; each request is cut at its owner's plan (receiveFiles).
  const maxDeliveryBytes = largestDeliveryLimit(deps);
  const publishGate = deps.limits.publish;
  const parseMultipart = multer({
    storage: createStreamingStorageEngine(deps.storage),
    // Browsers send file names as UTF-8 without saying so.
    defParamCharset: 'utf8',
    limits: {
      fileSize: maxDeliveryBytes,
      files: UPLOAD_LIMITS.maxFilesPerSite,
      fields: UPLOAD_LIMITS.maxFields,
      fieldSize: UPLOAD_LIMITS.maxFieldBytes,
      fieldNameSize: 100,
      parts: UPLOAD_LIMITS.maxFilesPerSite + UPLOAD_LIMITS.maxFields,
      headerPairs: 200,
    },
  }).array('files', UPLOAD_LIMITS.maxFilesPerSite);

  /** Removes every byte this request stored; a refused upload leaves nothing behind. */
  const discardStoredBytes = async (siteId: string) => {
    try {
      await deps.storage.deletePrefix(projectUploadsPrefix(siteId));
    } catch (err) {
      deps.log.error({ err, projectId: siteId }, 'could not remove the bytes of a refused upload');
    }
  };

  const receiveFiles: RequestHandler = async (req, res, next) => {
    if (!req.is('multipart/form-data')) throw new AppError('bad_request', 'Expected a multipart/form-data upload');
    // Publish limits, the plan's (sites, storage left) and free space, from the declared size, before a
    // byte of the body is read. The allowance stays spent whatever the outcome: the bytes were sent.
    const { workspaceId } = publishOwnerOf(res);
    let target: TPlanUploadTarget;
    try {
      target = await planUploadTarget(deps, req, { workspaceId, newSite: true });
      await publishGate.admitPublish(principalOf(res), { declaredBytes: declaredRequestBytes(req, target.delivery), opensSession: false, owner: publishOwnerOf(res) });
    } catch (err) {
      // The client is still sending: a bounded part of the body is read after the refusal, so it reads the answer.
      readRefusedBody(req, res);
      throw err;
    }
    const siteId = newId();
    setUploadTarget(req, { siteId, remainingBytes: target.remainingBytes, refusal: target.refusal });
    parseMultipart(req, res, (err?: unknown) => {
      if (err) {
        void discardStoredBytes(siteId).then(() => next(err));
        return;
      }
      next();
    });
  };

  // 'Direct' (spec 7.3) is the same one-request publish: it answers once the bytes are stored and the
  // build is queued; the wizard then follows the build with GET /api/direct-upload/status/{slug}.
  const publish: RequestHandler = async (req, res) => {
    const target = getUploadTarget(req);
    if (!target) throw new Error('Upload target missing');
    try {
      const form = ZUploadFormSchema.parse(req.body ?? {});
      // Notifications on need someone to receive them; each client may name only so many notification addresses a day (429 past that).
      await assertNotificationRecipient(deps, form.settings, publishOwnerOf(res).ownerCreatorId);
      const notifyAddress = notificationAddressOf(form.settings);
      if (notifyAddress) await admitNotificationRecipient(deps, clientAddress(req), notifyAddress);
      const stored = (req.files ?? []) as TMulterStoredFile[];
      const result = await publishSite(deps, {
        siteId: target.siteId,
        form,
        ...publishOwnerOf(res),
        address: principalOf(res).address,
        // filesMetadata's entry i describes the i-th file part: its group is the folder it was dropped in.
        files: stored.map((f, i) => ({
          fileId: f.fileId,
          storageKey: f.storageKey,
          size: f.size,
          sha256: f.sha256,
          originalName: f.originalname,
          clientType: f.mimetype,
          group: form.filesMetadata?.[i]?.group ?? null,
        })),
      });
      // The creator's session (row and cookie) exists only once a publish worked.
      await issuePendingAnonymousSession(deps, res).catch((err: unknown) => deps.log.error({ err, projectId: result.siteId }, 'could not issue the anonymous creator session'));
      deps.log.info({ projectId: result.siteId, slug: result.slug, files: stored.length }, 'site published');
      res.status(201).json({ success: true, url: result.url, slug: result.slug } satisfies TUploadResponse);
    } catch (err) {
      await discardStoredBytes(target.siteId);
      throw err;
    }
  };
  routes.at('/api/upload').post('/', receiveFiles, publish);
  routes.at('/api/direct-upload').post('/', receiveFiles, publish);

  routes.at('/api/direct-upload').get('/status/:slug', async (req, res) => {
    const slug = req.params.slug;
    if (!isValidSlug(slug)) throw new AppError('not_found', 'Site not found');
    const { site, access } = await openSiteBySlug(deps, principalOf(res), slug);
    if (!site || access === 'missing') throw new AppError('not_found', 'Site not found');
    const build = await buildProgressOf(deps, site.id);
    const isLive = site.status === 'live';
    res.set('Cache-Control', 'no-store').json({
      success: true,
      project: { optimizationProgress: isLive ? 100 : Math.max(0, Math.min(100, build?.progress ?? 0)), optimizationComplete: isLive },
    } satisfies TDirectUploadStatusResponse);
  });

  return routes.routers;
}
