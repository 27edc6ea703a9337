/**
 * The owner's management calls on a published site (issue 11, 'Managing a published site'): read
 * its settings, edit it, add, replace and remove files, follow the build, delete it. Every call
 * proves the signed-in owner first (401 / 404 'Project not found'), before a byte of an upload is read.
 */
import type { Request, RequestHandler, Response } from 'express';
import multer from 'multer';
import type { TTransferSiteResponse } from '@dropsite/shared';
import {
  SITE_MANAGEMENT_MESSAGES,
  UPLOAD_LIMITS,
  ZDeleteProjectSchema,
  ZProjectUpdateSchema,
  ZTransferSiteRequestSchema,
  type TBuildProgressResponse,
  type TManagedProjectResponse,
  type TWorkspacePermission,
} from '@dropsite/shared';
import type { TSiteManagementDeps } from './site-management.deps.ts';
import type { TFileRow, TSiteRow } from '../db/tables.ts';
import { readRefusedBody } from '../http/slow-clients.ts';
import { AppError } from '../http/app-error.ts';
import { principalOf } from '../access/principal.ts';
import { clientAddress, limitByAddress } from '../access/request-limits.ts';
import { createStreamingStorageEngine, setUploadTarget, type TStoredUpload } from '../publishing/streaming-storage-engine.ts';
import { declaredRequestBytes } from '../publishing/publish-limits.ts';
import {
  addFiles,
  assertRoomForFiles,
  deleteManagedSite,
  describeManagedSite,
  featuresTurnedOn,
  latestBuildOf,
  openManagedFile,
  openManagedSite,
  removeFile,
  replaceFile,
  transferSite,
  updateManagedSite,
} from './site-management.service.ts';
import type { TStoredFile } from '../site-records/stored-files.ts';
import { assertChangesAllowed, assertFeaturesAllowed, assertUploadAllowed, largestDeliveryLimit } from '../billing/plan-limits.ts';
import { planUploadTarget, type TPlanUploadTarget } from '../publishing/plan-upload-target.ts';
import { refreshUsageSoon } from '../billing/usage.service.ts';
import { createApiRouters, type TApiRouters } from '../http/api-routers.ts';
import type { TAuditActor } from '../workspaces/site-audit.ts';

const PRIVATE = 'private, no-store';

type TMulterStoredFile = Express.Multer.File & TStoredUpload;

/** The owner's site, proven once by the middleware, for the handler after the upload. */
function siteOf(res: Response): TSiteRow {
  const site = res.locals.managedSite as TSiteRow | undefined;
  if (!site) throw new Error('Managed project missing');
  return site;
}

/** Who is changing the site (the audit log's actor), proven with the site. */
function actorOf(res: Response): TAuditActor {
  const by = res.locals.auditActor as TAuditActor | undefined;
  if (!by) throw new Error('Audit actor missing');
  return by;
}

/** The bytes of the file a replacement will free (0 when adding files). */
function replacedBytesOf(res: Response): number {
  const file = res.locals.managedFile as TFileRow | undefined;
  return file ? Number(file.size) : 0;
}

function bytesOf(files: readonly TStoredUpload[]): number {
  return files.reduce((sum, f) => sum + f.size, 0);
}

function toStoredFile(f: TMulterStoredFile): TStoredFile {
  return { fileId: f.fileId, storageKey: f.storageKey, size: f.size, sha256: f.sha256, originalName: f.originalname, clientType: f.mimetype };
}

export function createSiteManagementRoutes(deps: TSiteManagementDeps): TApiRouters {
  const routes = createApiRouters();
  const limits = deps.limits.requests;
  const limitReads = limitByAddress(limits.reads);
  const limitWrites = limitByAddress(limits.writes);
  // Multer's own cap is the largest any plan allows; each request is cut at its owner's plan (receive).
  const maxDeliveryBytes = largestDeliveryLimit(deps);
  const multipartLimits = {
    fileSize: maxDeliveryBytes,
    fields: UPLOAD_LIMITS.maxFields,
    fieldSize: UPLOAD_LIMITS.maxFieldBytes,
    fieldNameSize: 100,
    headerPairs: 200,
  };
  const storageEngine = createStreamingStorageEngine(deps.storage);
  const parseAdded = multer({ storage: storageEngine, defParamCharset: 'utf8', limits: { ...multipartLimits, files: UPLOAD_LIMITS.maxFilesPerSite } }).array(
    'files',
    UPLOAD_LIMITS.maxFilesPerSite,
  );
  const parseReplacement = multer({ storage: storageEngine, defParamCharset: 'utf8', limits: { ...multipartLimits, files: 1 } }).single('file');

  /** The site, when the caller's role in its workspace has the permission (401 / 404 / 403 otherwise). */
  const ownSite =
    (permission: TWorkspacePermission): RequestHandler =>
    async (req, res, next) => {
      const { site, by } = await openManagedSite(deps, principalOf(res), String(req.params.id), permission);
      res.locals.managedSite = site;
      res.locals.auditActor = by;
      next();
    };

  /** The bytes of a refused request go; earlier files of the site stay (the upload folder is shared with them). */
  const discard = async (files: readonly TStoredUpload[]) => {
    for (const f of files) {
      await deps.storage.delete(f.storageKey).catch((err: unknown) => deps.log.error({ err, storageKey: f.storageKey }, 'could not remove the bytes of a refused upload'));
    }
  };

  /**
   * The plan's limits (over them: no changes; the delivery size and storage left), publish limits and
   * free space (as at publishing) from the declared size, then the multipart body streamed into storage.
   */
  const receive =
    (parse: RequestHandler): RequestHandler =>
    async (req, res, next) => {
      if (!req.is('multipart/form-data')) throw new AppError('bad_request', 'Expected a multipart/form-data upload');
      const workspaceId = siteOf(res).workspace_id;
      let target: TPlanUploadTarget;
      try {
        await assertChangesAllowed(deps, workspaceId);
        target = await planUploadTarget(deps, req, { workspaceId, newSite: false, freesBytes: replacedBytesOf(res) });
        await deps.limits.publish.admitPublish(principalOf(res), { declaredBytes: declaredRequestBytes(req, target.delivery), opensSession: false });
      } catch (err) {
        // The client is still sending: a bounded part of the body is read after the refusal, so it reads the answer.
        readRefusedBody(req, res);
        throw err;
      }
      setUploadTarget(req, { siteId: siteOf(res).id, remainingBytes: target.remainingBytes, refusal: target.refusal });
      parse(req, res, (err?: unknown) => next(err));
    };

  const storedFiles = (req: Request): TMulterStoredFile[] => {
    if (Array.isArray(req.files)) return req.files as TMulterStoredFile[];
    return req.file ? [req.file as TMulterStoredFile] : [];
  };

  routes.at('/api/projects').get('/:id/settings', limitReads, ownSite('sites.read'), async (_req, res) => {
    const site = await describeManagedSite(deps, siteOf(res));
    res.set('Cache-Control', PRIVATE).json({ success: true, project: site } satisfies TManagedProjectResponse);
  });

  routes.at('/api/projects').get('/:id/build', limitReads, ownSite('sites.read'), async (_req, res) => {
    const build = await latestBuildOf(deps, siteOf(res).id);
    res.set('Cache-Control', PRIVATE).json({ success: true, build } satisfies TBuildProgressResponse);
  });

  routes.at('/api/projects').patch('/:id', limitWrites, ownSite('sites.edit'), async (req, res) => {
    const input = ZProjectUpdateSchema.parse(req.body ?? {});
    const workspaceId = siteOf(res).workspace_id;
    await assertChangesAllowed(deps, workspaceId);
    await assertFeaturesAllowed(deps, workspaceId, featuresTurnedOn(siteOf(res), input.settings));
    const site = await updateManagedSite(deps, siteOf(res), input, { clientAddress: clientAddress(req), by: actorOf(res) });
    res.set('Cache-Control', PRIVATE).json({ success: true, project: site } satisfies TManagedProjectResponse);
  });

  routes.at('/api/projects').delete('/:id', limitWrites, ownSite('sites.delete'), async (req, res) => {
    await deleteManagedSite(deps, siteOf(res), ZDeleteProjectSchema.parse(req.body ?? {}), actorOf(res));
    refreshUsageSoon(deps, siteOf(res).workspace_id);
    res.set('Cache-Control', PRIVATE).json({ success: true });
  });

  routes.at('/api/projects').post(
    '/:id/files',
    limitWrites,
    ownSite('sites.edit'),
    async (_req, res, next) => {
      // A site already at its file limit takes no more bytes at all.
      await assertRoomForFiles(deps, siteOf(res).id, 1);
      next();
    },
    receive(parseAdded),
    async (req, res) => {
      const files = storedFiles(req);
      try {
        await assertUploadAllowed(deps, { workspaceId: siteOf(res).workspace_id, bytes: bytesOf(files), newSite: false });
        const site = await addFiles(deps, siteOf(res), files.map(toStoredFile), actorOf(res));
        refreshUsageSoon(deps, siteOf(res).workspace_id);
        res
          .status(201)
          .set('Cache-Control', PRIVATE)
          .json({ success: true, project: site } satisfies TManagedProjectResponse);
      } catch (err) {
        await discard(files);
        throw err;
      }
    },
  );

  routes.at('/api/projects').put(
    '/:id/files/:fileId',
    limitWrites,
    ownSite('sites.edit'),
    async (req, res, next) => {
      res.locals.managedFile = await openManagedFile(deps, siteOf(res), String(req.params.fileId));
      next();
    },
    receive(parseReplacement),
    async (req, res) => {
      const files = storedFiles(req);
      try {
        const stored = files[0];
        if (!stored) throw new AppError('validation_failed', SITE_MANAGEMENT_MESSAGES.noFile);
        await assertUploadAllowed(deps, { workspaceId: siteOf(res).workspace_id, bytes: stored.size, newSite: false, freesBytes: replacedBytesOf(res) });
        const site = await replaceFile(deps, siteOf(res), res.locals.managedFile as TFileRow, toStoredFile(stored), actorOf(res));
        refreshUsageSoon(deps, siteOf(res).workspace_id);
        res.set('Cache-Control', PRIVATE).json({ success: true, project: site } satisfies TManagedProjectResponse);
      } catch (err) {
        await discard(files);
        throw err;
      }
    },
  );

  routes.at('/api/projects').delete('/:id/files/:fileId', limitWrites, ownSite('sites.edit'), async (req, res) => {
    const site = siteOf(res);
    const file = await openManagedFile(deps, site, String(req.params.fileId));
    const managed = await removeFile(deps, site, file, actorOf(res));
    refreshUsageSoon(deps, site.workspace_id);
    res.set('Cache-Control', PRIVATE).json({ success: true, project: managed } satisfies TManagedProjectResponse);
  });

  // Moves a site to another workspace of the caller (owner or admin of both); its usage goes with it.
  routes.at('/api/sites').post('/:id/transfer', limitWrites, async (req, res) => {
    const input = ZTransferSiteRequestSchema.parse(req.body ?? {});
    const moved = await transferSite(deps, principalOf(res), String(req.params.id), input.workspaceId);
    refreshUsageSoon(deps, moved.from);
    refreshUsageSoon(deps, moved.to);
    res.set('Cache-Control', PRIVATE).json({ success: true, projectId: String(req.params.id), workspaceId: moved.to } satisfies TTransferSiteResponse);
  });

  return routes.routers;
}
