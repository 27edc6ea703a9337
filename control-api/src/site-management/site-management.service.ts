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
import type { TFileRow, TSiteRow, TSiteUpdate as TSiteRowUpdate } from '../db/tables.ts';
import { AppError } from '../http/app-error.ts';
import type { TPrincipal } from '../access/principal.ts';
import { sweepExpiredSites } from '../access/expired-sites.ts';
import { changeSiteAccess } from '../edge/public-page.ts';
import { changeSitePassword } from '../sites/site-password.service.ts';
import { openOwnSite, ownersThumbnailOf } from '../dashboard-api/creator-dashboard.service.ts';
import { findLatestBuildForSite } from '../builds/builds.repository.ts';
import { enqueueSiteBuild } from '../builds/builds.service.ts';
import {
  admitNotificationRecipient,
  assertNotificationRecipient,
  confirmedAccountEmailOf,
  notificationAddressOf,
  ownerKeyOf,
  requestEmailConfirmation,
} from '../notifications/email-confirmation.service.ts';
import {
  bumpSiteVersion,
  deleteFileOfSite,
  fileCountAndNextPosition,
  findFileOfSiteById,
  findSiteById,
  insertFiles,
  isStoredObjectInUse,
  listFilesBySite,
  markSiteDeleted,
  parseContactInfo,
  parseSiteSettings,
  parseTemplateId,
  replaceFileBytes,
  updateSite,
} from '../site-records/site-records.repository.ts';
import { fileBasicsOf, storedFileRow, type TStoredFile } from '../site-records/stored-files.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/** The signed-in owner's site, or the 401 / 404 every management call answers otherwise. */
export async function openManagedSite(deps: TSiteManagementDeps, principal: TPrincipal, siteId: string): Promise<TSiteRow> {
  return (await openOwnSite(deps, principal, siteId)).site;
}

/** The Pro switches a settings change turns on (those already on stay as they are: a downgrade deletes nothing). */
export function featuresTurnedOn(site: TSiteRow, patch: z.input<typeof ZProjectUpdateSchema>['settings']): Partial<Record<TProFeatureSetting, boolean>> | undefined {
  return patch ? proFeaturesTurnedOn(parseSiteSettings(site.settings), patch) : undefined;
}

/** What the owner's settings forms and files manager start from. */
export async function describeManagedSite(deps: TSiteManagementDeps, site: TSiteRow): Promise<TManagedProject> {
  const [files, build, accountNotificationEmail] = await Promise.all([
    listFilesBySite(deps.db, site.id),
    latestBuildOf(deps, site.id),
    confirmedAccountEmailOf(deps.db, site.owner_creator_id),
  ]);
  const look = storedSiteLook(site);
  return {
    id: site.id,
    slug: site.slug,
    url: `${deps.config.publicUrl}/${site.slug}`,
    status: site.status,
    title: site.title,
    description: site.description,
    authorName: site.author_name,
    template: parseTemplateId(site.template),
    theme: themeOfLook(look),
    style: look.style,
    colorMode: look.colorMode,
    heroLayout: look.heroLayout,
    visitorModeToggle: look.visitorModeToggle,
    settings: toManagedSiteSettings(parseSiteSettings(site.settings)),
    accountNotificationEmail,
    contactInfo: toPublicContactInfo(parseContactInfo(site.contact_info)),
    hasPassword: site.password_hash !== null,
    expiresAt: site.expires_at === null ? null : iso(site.expires_at),
    files: files.map((f) => toManagedFile(deps, site, f)),
    build,
  };
}

function toManagedFile(deps: Pick<TSiteManagementDeps, 'clock'>, site: TSiteRow, file: TFileRow): TManagedFile {
  return {
    ...fileBasicsOf(file),
    position: file.position,
    version: file.version,
    uploadedAt: iso(file.created_at),
    replacedAt: file.replaced_at === null ? null : iso(file.replaced_at),
    // A locked or expired site's thumbnails come through the owner's own route.
    thumbnailUrl: ownersThumbnailOf(deps, site, file),
  };
}

/** How far the site's newest build has come (the dashboard polls it after each change). */
export async function latestBuildOf(deps: Pick<TSiteManagementDeps, 'db'>, siteId: string): Promise<TBuildProgress | null> {
  const build = await findLatestBuildForSite(deps.db, siteId);
  return build ? { version: build.version, state: build.status, progress: build.progress, stage: build.stage } : null;
}

/** A new version of the site, queued for building; the HTML visitors get flips when it is done. */
async function rebuild(deps: TSiteManagementDeps, siteId: string): Promise<void> {
  const version = await bumpSiteVersion(deps.db, siteId, deps.clock.now());
  await enqueueSiteBuild(deps, siteId, version);
}

/**
 * Applies an edit. The notification address is the owner's alone: it is kept in the settings, never
 * in the contact details a page shows, and a new one gets a confirmation link before any message.
 * A password change bumps the password version, which revokes every unlock issued before.
 */
export async function updateManagedSite(
  deps: TSiteManagementDeps,
  site: TSiteRow,
  input: z.output<typeof ZProjectUpdateSchema>,
  requester: { clientAddress: string },
): Promise<TManagedProject> {
  const now = deps.clock.now();
  const patch: Omit<TSiteRowUpdate, 'id'> = {};
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
    const look = resolveSiteLook(storedSiteLook(site), { theme: input.theme, style: input.style, colorMode: input.colorMode, visitorModeToggle: input.visitorModeToggle });
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
    const before = parseSiteSettings(site.settings);
    const settings: TSiteSettings = { ...DEFAULT_SITE_SETTINGS, ...before, ...stripUndefined(input.settings) };
    // Turning notifications on, or changing where they go, needs someone to receive them (400 otherwise).
    if (input.settings.enableNotifications !== undefined || input.settings.notificationEmail !== undefined) {
      await assertNotificationRecipient(deps, settings, site.owner_creator_id);
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
    if (Object.keys(patch).length > 0) await updateSite(deps.db, site.id, { ...patch, updated_at: now });
    if (input.password !== undefined) await changeSitePassword(deps, site.id, input.password);
  };
  // A password or an expiry takes the site off the edge before this answers; removing one republishes it through the rebuild.
  const restrictsAccess = (typeof input.password === 'string' && input.password !== '') || (input.expiresAt !== undefined && input.expiresAt !== null);
  if (restrictsAccess) await changeSiteAccess(deps, [site.slug], applyAccess);
  else await applyAccess();
  await rebuild(deps, site.id);
  if (newNotifyAddress !== null) await requestEmailConfirmation(deps, { email: newNotifyAddress, ownerKey: ownerKeyOf(site) });
  deps.log.info({ projectId: site.id, fields: Object.keys(input) }, 'site edited');
  return describeManagedSite(deps, await reloadSite(deps, site.id));
}

function stripUndefined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

async function reloadSite(deps: TSiteManagementDeps, siteId: string): Promise<TSiteRow> {
  const site = await findSiteById(deps.db, siteId);
  if (!site) throw new AppError('not_found', 'Project not found');
  return site;
}

/** Refuses, before a byte is read, an addition that would take the site past the files a site may have. */
export async function assertRoomForFiles(deps: Pick<TSiteManagementDeps, 'db'>, siteId: string, adding: number): Promise<void> {
  const { count } = await fileCountAndNextPosition(deps.db, siteId);
  if (count + adding > UPLOAD_LIMITS.maxFilesPerSite) throw new AppError('validation_failed', SITE_MANAGEMENT_MESSAGES.tooManyFiles);
}

/** Adds stored files at the end of the site (same names and kinds as at publishing), then rebuilds. */
export async function addFiles(deps: TSiteManagementDeps, site: TSiteRow, stored: readonly TStoredFile[]): Promise<TManagedProject> {
  if (stored.length === 0) throw new AppError('validation_failed', 'Please choose at least one file to upload');
  await assertRoomForFiles(deps, site.id, stored.length);
  const { nextPosition } = await fileCountAndNextPosition(deps.db, site.id);
  const now = deps.clock.now();
  await insertFiles(
    deps.db,
    stored.map((f, i) => storedFileRow(site.id, f, nextPosition + i, now)),
  );
  await rebuild(deps, site.id);
  deps.log.info({ projectId: site.id, files: stored.length }, 'files added to a site');
  return describeManagedSite(deps, await reloadSite(deps, site.id));
}

/** 404 for a file id that is not one of this site's. */
export async function openManagedFile(deps: Pick<TSiteManagementDeps, 'db'>, site: TSiteRow, fileId: string): Promise<TFileRow> {
  const file = await findFileOfSiteById(deps.db, site.id, fileId);
  if (!file) throw new AppError('not_found', 'File not found');
  return file;
}

/**
 * New bytes for a file: same id and place on the page, its favourites, comments and approvals
 * kept and marked with the version they were made on. The bytes it replaced are removed once no
 * row points at them.
 */
export async function replaceFile(deps: TSiteManagementDeps, site: TSiteRow, file: TFileRow, stored: TStoredFile): Promise<TManagedProject> {
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
  await rebuild(deps, site.id);
  await removeUnusedBytes(deps, replaced.previous);
  deps.log.info({ projectId: site.id, fileId: file.id, version: replaced.version }, 'file replaced');
  return describeManagedSite(deps, await reloadSite(deps, site.id));
}

/** Removes a file (a site keeps at least one) with its engagement, then its bytes, and rebuilds. */
export async function removeFile(deps: TSiteManagementDeps, site: TSiteRow, file: TFileRow): Promise<TManagedProject> {
  const { count } = await fileCountAndNextPosition(deps.db, site.id);
  if (count <= 1) throw new AppError('validation_failed', SITE_MANAGEMENT_MESSAGES.lastFile);
  if (!(await deleteFileOfSite(deps.db, site.id, file.id))) throw new AppError('not_found', 'File not found');
  await rebuild(deps, site.id);
  await removeUnusedBytes(deps, file);
  deps.log.info({ projectId: site.id, fileId: file.id }, 'file removed from a site');
  return describeManagedSite(deps, await reloadSite(deps, site.id));
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
export async function deleteManagedSite(deps: TSiteManagementDeps, site: TSiteRow, input: z.output<typeof ZDeleteProjectSchema>): Promise<void> {
  if (!confirmsTitle(input.confirmTitle, site.title)) throw new AppError('bad_request', SITE_MANAGEMENT_MESSAGES.confirmTitle);
  const now = deps.clock.now();
  const purgeFrom = now - deps.config.expiredSiteGraceDays * 86_400_000 - 1;
  const deleted = await changeSiteAccess(deps, [site.slug], () => markSiteDeleted(deps.db, site.id, { deletedAt: now, purgeFrom }));
  if (!deleted) throw new AppError('not_found', 'Project not found');
  deps.log.info({ projectId: site.id, slug: site.slug }, 'site deleted by its owner');
  void sweepExpiredSites(deps).catch((err: unknown) => deps.log.error({ err }, 'sweeping a deleted site failed'));
}
