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
  type TWorkspacePermission,
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
import { recordSiteEvent, type TAuditActor } from '../workspaces/site-audit.ts';
import { requireWorkspacePermission } from '../workspaces/workspace-access.ts';
import { assertSiteRoomIn } from '../billing/plan-limits.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/** A site of the caller's workspace their role may act on so, and who they are (for the audit log); the 401 / 404 / 403 every management call answers otherwise. */
export async function openManagedSite(
  deps: TSiteManagementDeps,
  principal: TPrincipal,
  siteId: string,
  permission: TWorkspacePermission,
): Promise<{ site: TSiteRow; by: TAuditActor }> {
  const { creator, site } = await openOwnSite(deps, principal, siteId, permission);
  return { site, by: { creator: { id: creator.id, name: creator.name }, address: principal.address } };
}

/** The fields an edit names, in the audit log's words (the password and the expiry have their own events; no value is written). */
const EDITED_FIELD_NAMES: Partial<Record<keyof z.output<typeof ZProjectUpdateSchema>, string>> = {
  title: 'title',
  description: 'description',
  authorName: 'author name',
  template: 'template',
  theme: 'theme',
  style: 'style',
  colorMode: 'colour mode',
  visitorModeToggle: 'visitor mode toggle',
  heroLayout: 'hero layout',
  contactInfo: 'contact details',
  settings: 'settings',
};

async function recordEditEvents(deps: TSiteManagementDeps, site: TSiteRow, input: z.output<typeof ZProjectUpdateSchema>, by: TAuditActor | null, at: number): Promise<void> {
  const fields = Object.entries(EDITED_FIELD_NAMES)
    .filter(([key]) => input[key as keyof typeof input] !== undefined)
    .map(([, name]) => name);
  if (fields.length > 0) await recordSiteEvent(deps.db, site, by, { type: 'site.edited', details: `Changed ${fields.join(', ')}`, at });
  if (input.password !== undefined) {
    const details = input.password === null || input.password === '' ? 'Password removed' : site.password_hash === null ? 'Password set' : 'Password changed';
    await recordSiteEvent(deps.db, site, by, { type: 'site.password_changed', details, at });
  }
  if (input.expiresAt !== undefined) {
    const details = input.expiresAt === null ? 'Expiry removed' : `Expires ${new Date(Date.parse(input.expiresAt)).toISOString()}`;
    await recordSiteEvent(deps.db, site, by, { type: 'site.expiry_changed', details, at });
  }
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
  requester: { clientAddress: string; by?: TAuditActor | null },
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
  await recordEditEvents(deps, site, input, requester.by ?? null, now);
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
export async function addFiles(deps: TSiteManagementDeps, site: TSiteRow, stored: readonly TStoredFile[], by: TAuditActor | null = null): Promise<TManagedProject> {
  if (stored.length === 0) throw new AppError('validation_failed', 'Please choose at least one file to upload');
  await assertRoomForFiles(deps, site.id, stored.length);
  const { nextPosition } = await fileCountAndNextPosition(deps.db, site.id);
  const now = deps.clock.now();
  await insertFiles(
    deps.db,
    stored.map((f, i) => storedFileRow(site.id, f, nextPosition + i, now)),
  );
  await rebuild(deps, site.id);
  const names = stored.map((f) => sanitizeFileName(f.originalName));
  await recordSiteEvent(deps.db, site, by, { type: 'site.files_added', details: `${names.length === 1 ? 'Added' : `Added ${names.length} files:`} ${names.join(', ')}`, at: now });
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
export async function replaceFile(deps: TSiteManagementDeps, site: TSiteRow, file: TFileRow, stored: TStoredFile, by: TAuditActor | null = null): Promise<TManagedProject> {
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
  await recordSiteEvent(deps.db, site, by, { type: 'site.file_replaced', details: `Replaced ${file.name} with ${name} (version ${replaced.version})`, at: deps.clock.now() });
  await removeUnusedBytes(deps, replaced.previous);
  deps.log.info({ projectId: site.id, fileId: file.id, version: replaced.version }, 'file replaced');
  return describeManagedSite(deps, await reloadSite(deps, site.id));
}

/** Removes a file (a site keeps at least one) with its engagement, then its bytes, and rebuilds. */
export async function removeFile(deps: TSiteManagementDeps, site: TSiteRow, file: TFileRow, by: TAuditActor | null = null): Promise<TManagedProject> {
  const { count } = await fileCountAndNextPosition(deps.db, site.id);
  if (count <= 1) throw new AppError('validation_failed', SITE_MANAGEMENT_MESSAGES.lastFile);
  if (!(await deleteFileOfSite(deps.db, site.id, file.id))) throw new AppError('not_found', 'File not found');
  await rebuild(deps, site.id);
  await recordSiteEvent(deps.db, site, by, { type: 'site.file_removed', details: `Removed ${file.name}`, at: deps.clock.now() });
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
export async function deleteManagedSite(deps: TSiteManagementDeps, site: TSiteRow, input: z.output<typeof ZDeleteProjectSchema>, by: TAuditActor | null = null): Promise<void> {
  if (!confirmsTitle(input.confirmTitle, site.title)) throw new AppError('bad_request', SITE_MANAGEMENT_MESSAGES.confirmTitle);
  await deleteSite(deps, site, by, 'Deleted');
}

const SITE_ALREADY_IN_WORKSPACE = 'The site is already in this workspace';

/**
 * Moves a site to another workspace: the caller must be an owner or admin of both (sites.transfer;
 * not a member of the target: 404). The target's plan must have room for one more active site (Free
 * counted per person); the site keeps its link, files and engagement, its usage moves with it, and
 * both workspaces' audit logs record the move.
 */
export async function transferSite(deps: TSiteManagementDeps, principal: TPrincipal, siteId: string, targetWorkspaceId: string): Promise<{ from: string; to: string }> {
  const { site, by } = await openManagedSite(deps, principal, siteId, 'sites.transfer');
  const from = site.workspace_id;
  if (from === null) throw new AppError('not_found', 'Project not found');
  await requireWorkspacePermission(deps.db, principal, targetWorkspaceId, 'sites.transfer');
  if (from === targetWorkspaceId) throw new AppError('bad_request', SITE_ALREADY_IN_WORKSPACE);
  const [fromWorkspace, toWorkspace] = await Promise.all([findWorkspaceName(deps.db, from), findWorkspaceName(deps.db, targetWorkspaceId)]);
  const now = deps.clock.now();
  const active = site.deleted_at === null && site.taken_down_at === null && (site.expires_at === null || site.expires_at > now);
  await deps.db.transaction().execute(async (trx) => {
    await assertSiteRoomIn(deps, trx, targetWorkspaceId, active ? 1 : 0);
    const moved = await trx
      .updateTable('projects')
      .set({ workspace_id: targetWorkspaceId, updated_at: now })
      .where('id', '=', site.id)
      .where('workspace_id', '=', from)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) throw new AppError('conflict', 'The site was moved meanwhile. Reload and try again.');
    await recordSiteEvent(trx, site, by, { type: 'site.transferred', details: `Moved to “${toWorkspace}”`, at: now, workspaceId: from });
    await recordSiteEvent(trx, site, by, { type: 'site.transferred', details: `Moved here from “${fromWorkspace}”`, at: now, workspaceId: targetWorkspaceId });
  });
  deps.log.info({ projectId: site.id, from, to: targetWorkspaceId }, 'site transferred');
  return { from, to: targetWorkspaceId };
}

async function findWorkspaceName(db: TSiteManagementDeps['db'], id: string): Promise<string> {
  return (await db.selectFrom('workspaces').select('name').where('id', '=', id).executeTakeFirst())?.name ?? 'another workspace';
}

/** One site of a workspace being deleted: deleted as its owner's deletion does it (already gone: nothing to do). */
export async function deleteWorkspaceSite(deps: TSiteManagementDeps, siteId: string): Promise<void> {
  const site = await findSiteById(deps.db, siteId);
  if (!site) return;
  await deleteSite(deps, site, null, 'Deleted with its workspace');
}

/**
 * Deletes a site (a confirmed deletion, or one of a deleted workspace's sites): off the edge at once,
 * marked deleted with its audit event in one transaction, its storage and rows removed by the sweep.
 */
async function deleteSite(deps: TSiteManagementDeps, site: TSiteRow, by: TAuditActor | null, details: string): Promise<void> {
  const now = deps.clock.now();
  const purgeFrom = now - deps.config.expiredSiteGraceDays * 86_400_000 - 1;
  const deleted = await changeSiteAccess(deps, [site.slug], () =>
    deps.db.transaction().execute(async (trx) => {
      const done = await markSiteDeleted(trx, site.id, { deletedAt: now, purgeFrom });
      if (done) await recordSiteEvent(trx, site, by, { type: 'site.deleted', details, at: now });
      return done;
    }),
  );
  if (!deleted) throw new AppError('not_found', 'Project not found');
  deps.log.info({ projectId: site.id, slug: site.slug }, 'site deleted');
  void sweepExpiredSites(deps).catch((err: unknown) => deps.log.error({ err }, 'sweeping a deleted site failed'));
}
