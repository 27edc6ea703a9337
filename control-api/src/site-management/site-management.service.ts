/**
 * Managing a published site (issue 11): the owner edits its texts, look, switches, contact links,
 * password and expiry, adds, replaces and removes files, and deletes it. Only the signed-in creator
 * who owns the site may (signed out 401; anyone else's site, a deleted one and an unknown id the same
 * 404). The link never changes, and every change is a new version built through the queue, so the
 * site a visitor sees flips from one complete build to the next.
 */
import {
  confirmsTitle,
  DEFAULT_SITE_SETTINGS,
  resolveSiteLook,
  storedSiteLook,
  themeOfLook,
  SITE_MANAGEMENT_MESSAGES,
  UPLOAD_LIMITS,
  derivedPrefix,
  detectFileKind,
  sanitizeFileName,
  proFeaturesTurnedOn,
  toManagedSiteSettings,
  toPublicContactInfo,
  type TBuildProgress,
  type TManagedFile,
  type TManagedProject,
  type TProFeatureSetting,
  type TSiteSettings,
  type ZDeleteProjectSchema,
  type ZProjectUpdateSchema,
} from '@dropsite/shared';
import type { z } from 'zod';
import type { TSiteManagementDeps } from './site-management.deps.ts';
import type { TFileRow, TProjectRow, TProjectUpdate as TProjectRowUpdate } from '../db/tables.ts';
import { AppError } from '../http/app-error.ts';
import type { TPrincipal } from '../access/principal.ts';
import { sweepExpiredSites } from '../access/expired-sites.ts';
import { changeSiteAccess } from '../edge/public-page.ts';
import { changeSitePassword } from '../sites/site-password.service.ts';
import { openOwnProject, ownersThumbnailOf } from '../dashboard-api/creator-dashboard.service.ts';
import { findLatestBuildForProject } from '../builds/builds.repository.ts';
import { enqueueProjectBuild } from '../builds/builds.service.ts';
import {
  admitNotificationRecipient,
  assertNotificationRecipient,
  confirmedAccountEmailOf,
  notificationAddressOf,
  ownerKeyOf,
  requestEmailConfirmation,
} from '../notifications/email-confirmation.service.ts';
import {
  bumpProjectVersion,
  deleteFileOfProject,
  fileCountAndNextPosition,
  findFileOfProjectById,
  findProjectById,
  insertFiles,
  isStoredObjectInUse,
  listFilesByProject,
  markProjectDeleted,
  parseContactInfo,
  parseSiteSettings,
  parseTemplateId,
  replaceFileBytes,
  updateProject,
} from '../site-records/site-records.repository.ts';
import { fileBasicsOf, storedFileRow, type TStoredFile } from '../site-records/stored-files.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/** The signed-in owner's site, or the 401 / 404 every management call answers otherwise. */
export async function openManagedProject(deps: TSiteManagementDeps, principal: TPrincipal, projectId: string): Promise<TProjectRow> {
  return (await openOwnProject(deps, principal, projectId)).project;
}

/** The Pro switches a settings change turns on (those already on stay as they are: a downgrade deletes nothing). */
export function featuresTurnedOn(project: TProjectRow, patch: z.input<typeof ZProjectUpdateSchema>['settings']): Partial<Record<TProFeatureSetting, boolean>> | undefined {
  return patch ? proFeaturesTurnedOn(parseSiteSettings(project.settings), patch) : undefined;
}

/** What the owner's settings forms and files manager start from. */
export async function describeManagedProject(deps: TSiteManagementDeps, project: TProjectRow): Promise<TManagedProject> {
  const [files, build, accountNotificationEmail] = await Promise.all([
    listFilesByProject(deps.db, project.id),
    latestBuildOf(deps, project.id),
    confirmedAccountEmailOf(deps.db, project.owner_creator_id),
  ]);
  const look = storedSiteLook(project);
  return {
    id: project.id,
    slug: project.slug,
    url: `${deps.config.publicUrl}/${project.slug}`,
    status: project.status,
    title: project.title,
    description: project.description,
    authorName: project.author_name,
    template: parseTemplateId(project.template),
    theme: themeOfLook(look),
    style: look.style,
    colorMode: look.colorMode,
    heroLayout: look.heroLayout,
    visitorModeToggle: look.visitorModeToggle,
    settings: toManagedSiteSettings(parseSiteSettings(project.settings)),
    accountNotificationEmail,
    contactInfo: toPublicContactInfo(parseContactInfo(project.contact_info)),
    hasPassword: project.password_hash !== null,
    expiresAt: project.expires_at === null ? null : iso(project.expires_at),
    files: files.map((f) => toManagedFile(deps, project, f)),
    build,
  };
}

function toManagedFile(deps: Pick<TSiteManagementDeps, 'clock'>, project: TProjectRow, file: TFileRow): TManagedFile {
  return {
    ...fileBasicsOf(file),
    position: file.position,
    version: file.version,
    uploadedAt: iso(file.created_at),
    replacedAt: file.replaced_at === null ? null : iso(file.replaced_at),
    // A locked or expired site's thumbnails come through the owner's own route.
    thumbnailUrl: ownersThumbnailOf(deps, project, file),
  };
}

/** How far the site's newest build has come (the dashboard polls it after each change). */
export async function latestBuildOf(deps: Pick<TSiteManagementDeps, 'db'>, projectId: string): Promise<TBuildProgress | null> {
  const build = await findLatestBuildForProject(deps.db, projectId);
  return build ? { version: build.version, state: build.status, progress: build.progress, stage: build.stage } : null;
}

/** A new version of the site, queued for building; the HTML visitors get flips when it is done. */
async function rebuild(deps: TSiteManagementDeps, projectId: string): Promise<void> {
  const version = await bumpProjectVersion(deps.db, projectId, deps.clock.now());
  await enqueueProjectBuild(deps, projectId, version);
}

/**
 * Applies an edit. The notification address is the owner's alone: it is kept in the settings, never
 * in the contact details a page shows, and a new one gets a confirmation link before any message.
 * A password change bumps the password version, which revokes every unlock issued before.
 */
export async function updateManagedProject(
  deps: TSiteManagementDeps,
  project: TProjectRow,
  input: z.output<typeof ZProjectUpdateSchema>,
  requester: { clientAddress: string },
): Promise<TManagedProject> {
  const now = deps.clock.now();
  const patch: Omit<TProjectRowUpdate, 'id'> = {};
  if (input.title !== undefined) patch.title = input.title;
  if (input.description !== undefined) {
    patch.description = input.description;
    patch.sub_line = input.description;
  }
  if (input.authorName !== undefined) {
    patch.author_name = input.authorName;
    patch.tag_line = input.authorName ? `By ${input.authorName}` : '';
  }
  if (input.template !== undefined) patch.template = input.template;
  // The look: what is not sent stays as it is (`theme` names a style and a pinned mode; `style` and `colorMode` win over it).
  if (input.theme !== undefined || input.style !== undefined || input.colorMode !== undefined || input.visitorModeToggle !== undefined) {
    const look = resolveSiteLook(storedSiteLook(project), { theme: input.theme, style: input.style, colorMode: input.colorMode, visitorModeToggle: input.visitorModeToggle });
    patch.theme = themeOfLook(look);
    patch.color_mode = look.colorMode;
    patch.visitor_mode_toggle = look.visitorModeToggle ? 1 : 0;
  }
  if (input.heroLayout !== undefined) patch.hero_layout = input.heroLayout;
  if (input.contactInfo !== undefined) patch.contact_info = JSON.stringify(input.contactInfo);
  if (input.expiresAt !== undefined) {
    const expiresAt = input.expiresAt === null ? null : Date.parse(input.expiresAt);
    if (expiresAt !== null && expiresAt <= now) throw new AppError('validation_failed', SITE_MANAGEMENT_MESSAGES.expiryInPast);
    patch.expires_at = expiresAt;
  }
  let newNotifyAddress: string | null = null;
  if (input.settings !== undefined) {
    const before = parseSiteSettings(project.settings);
    const settings: TSiteSettings = { ...DEFAULT_SITE_SETTINGS, ...before, ...stripUndefined(input.settings) };
    // Turning notifications on, or changing where they go, needs someone to receive them (400 otherwise).
    if (input.settings.enableNotifications !== undefined || input.settings.notificationEmail !== undefined) {
      await assertNotificationRecipient(deps, settings, project.owner_creator_id);
    }
    const address = notificationAddressOf(settings);
    if (address !== null && address !== notificationAddressOf(before)) {
      // Each client may name only so many notification addresses a day (429 past that), as at publishing.
      await admitNotificationRecipient(deps, requester.clientAddress, address);
      newNotifyAddress = address;
    }
    patch.settings = JSON.stringify(settings);
  }
  const applyAccess = async () => {
    if (Object.keys(patch).length > 0) await updateProject(deps.db, project.id, { ...patch, updated_at: now });
    if (input.password !== undefined) await changeSitePassword(deps, project.id, input.password);
  };
  // A password or an expiry takes the site off the edge before this answers; removing one republishes it through the rebuild.
  const restrictsAccess = (typeof input.password === 'string' && input.password !== '') || (input.expiresAt !== undefined && input.expiresAt !== null);
  if (restrictsAccess) await changeSiteAccess(deps, [project.slug], applyAccess);
  else await applyAccess();
  await rebuild(deps, project.id);
  if (newNotifyAddress !== null) await requestEmailConfirmation(deps, { email: newNotifyAddress, ownerKey: ownerKeyOf(project) });
  deps.log.info({ projectId: project.id, fields: Object.keys(input) }, 'site edited');
  return describeManagedProject(deps, await reloadProject(deps, project.id));
}

function stripUndefined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

async function reloadProject(deps: TSiteManagementDeps, projectId: string): Promise<TProjectRow> {
  const project = await findProjectById(deps.db, projectId);
  if (!project) throw new AppError('not_found', 'Project not found');
  return project;
}

/** Refuses, before a byte is read, an addition that would take the site past the files a site may have. */
export async function assertRoomForFiles(deps: Pick<TSiteManagementDeps, 'db'>, projectId: string, adding: number): Promise<void> {
  const { count } = await fileCountAndNextPosition(deps.db, projectId);
  if (count + adding > UPLOAD_LIMITS.maxFilesPerSite) throw new AppError('validation_failed', SITE_MANAGEMENT_MESSAGES.tooManyFiles);
}

/** Adds stored files at the end of the site (same names and kinds as at publishing), then rebuilds. */
export async function addFiles(deps: TSiteManagementDeps, project: TProjectRow, stored: readonly TStoredFile[]): Promise<TManagedProject> {
  if (stored.length === 0) throw new AppError('validation_failed', 'Please choose at least one file to upload');
  await assertRoomForFiles(deps, project.id, stored.length);
  const { nextPosition } = await fileCountAndNextPosition(deps.db, project.id);
  const now = deps.clock.now();
  await insertFiles(
    deps.db,
    stored.map((f, i) => storedFileRow(project.id, f, nextPosition + i, now)),
  );
  await rebuild(deps, project.id);
  deps.log.info({ projectId: project.id, files: stored.length }, 'files added to a site');
  return describeManagedProject(deps, await reloadProject(deps, project.id));
}

/** 404 for a file id that is not one of this site's. */
export async function openManagedFile(deps: Pick<TSiteManagementDeps, 'db'>, project: TProjectRow, fileId: string): Promise<TFileRow> {
  const file = await findFileOfProjectById(deps.db, project.id, fileId);
  if (!file) throw new AppError('not_found', 'File not found');
  return file;
}

/**
 * New bytes for a file: same id and place on the page, its favourites, comments and approvals
 * kept and marked with the version they were made on. The bytes it replaced are removed once no
 * row points at them.
 */
export async function replaceFile(deps: TSiteManagementDeps, project: TProjectRow, file: TFileRow, stored: TStoredFile): Promise<TManagedProject> {
  const name = sanitizeFileName(stored.originalName);
  const replaced = await replaceFileBytes(deps.db, file, {
    name,
    type: stored.clientType.slice(0, 255),
    size: stored.size,
    storageKey: stored.storageKey,
    sha256: stored.sha256,
    kind: detectFileKind(name, stored.clientType),
    now: deps.clock.now(),
  });
  if (!replaced) throw new AppError('not_found', 'File not found');
  if (replaced === 'conflict') throw new AppError('conflict', 'This file was replaced meanwhile. Reload and try again.');
  await rebuild(deps, project.id);
  await removeUnusedBytes(deps, replaced.previous);
  deps.log.info({ projectId: project.id, fileId: file.id, version: replaced.version }, 'file replaced');
  return describeManagedProject(deps, await reloadProject(deps, project.id));
}

/** Removes a file (a site keeps at least one) with its engagement, then its bytes, and rebuilds. */
export async function removeFile(deps: TSiteManagementDeps, project: TProjectRow, file: TFileRow): Promise<TManagedProject> {
  const { count } = await fileCountAndNextPosition(deps.db, project.id);
  if (count <= 1) throw new AppError('validation_failed', SITE_MANAGEMENT_MESSAGES.lastFile);
  if (!(await deleteFileOfProject(deps.db, project.id, file.id))) throw new AppError('not_found', 'File not found');
  await rebuild(deps, project.id);
  await removeUnusedBytes(deps, file);
  deps.log.info({ projectId: project.id, fileId: file.id }, 'file removed from a site');
  return describeManagedProject(deps, await reloadProject(deps, project.id));
}

/** The original and, when no file anywhere has the same content, its derived images. Failures are only logged: the sweep of a deleted site catches up. */
async function removeUnusedBytes(deps: TSiteManagementDeps, previous: Pick<TFileRow, 'storage_key' | 'sha256'>): Promise<void> {
  try {
    if (!(await isStoredObjectInUse(deps.db, { storageKey: previous.storage_key }))) await deps.storage.delete(previous.storage_key);
    const hash = previous.sha256.toLowerCase();
    if (/^[0-9a-f]{64}$/.test(hash) && !(await isStoredObjectInUse(deps.db, { sha256: previous.sha256 }))) await deps.storage.deletePrefix(derivedPrefix(hash));
  } catch (err) {
    deps.log.error({ err, storageKey: previous.storage_key }, 'could not remove the bytes of a replaced or removed file');
  }
}

/**
 * Deletes the site once the owner typed its title: it answers 404 at once everywhere (page, files,
 * engagement), and is given an expiry long enough ago that the sweeper removes its files, derived
 * images and rows; the sweep starts now, in the background (as for a deleted account).
 */
export async function deleteManagedProject(deps: TSiteManagementDeps, project: TProjectRow, input: z.output<typeof ZDeleteProjectSchema>): Promise<void> {
  if (!confirmsTitle(input.confirmTitle, project.title)) throw new AppError('bad_request', SITE_MANAGEMENT_MESSAGES.confirmTitle);
  const now = deps.clock.now();
  const purgeFrom = now - deps.config.expiredSiteGraceDays * 86_400_000 - 1;
  const deleted = await changeSiteAccess(deps, [project.slug], () => markProjectDeleted(deps.db, project.id, { deletedAt: now, purgeFrom }));
  if (!deleted) throw new AppError('not_found', 'Project not found');
  deps.log.info({ projectId: project.id, slug: project.slug }, 'site deleted by its owner');
  void sweepExpiredSites(deps).catch((err: unknown) => deps.log.error({ err }, 'sweeping a deleted site failed'));
}
