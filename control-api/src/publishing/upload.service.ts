/** Publishing: turns stored uploads and the creator's form into a site, its files and a queued build. */
import { randomBytes } from 'node:crypto';
import { DEFAULT_SITE_SETTINGS, generateSlug, isValidSlug, EMPTY_CONTACT_INFO, resolveSiteLook, templateLook, themeOfLook, type TUploadForm } from '@dropsite/shared';
import type { TPublishingDeps } from './publishing.deps.ts';
import type { TNewFile, TNewSite } from '../db/tables.ts';
import { AppError } from '../http/app-error.ts';
import { createSiteWithFiles, deleteSiteById } from '../site-records/site-records.repository.ts';
import { storedFileRow, type TStoredFile } from '../site-records/stored-files.ts';
import { enqueueSiteBuild } from '../builds/builds.service.ts';
import { notificationAddressOf, ownerKeyOf, requestEmailConfirmation } from '../notifications/email-confirmation.service.ts';
import { hashPassword } from '../sites/password-hash.ts';
import { isSlugInUse } from './slugs.repository.ts';
import { assertUploadAllowedIn } from '../billing/plan-limits.ts';
import { refreshUsageSoon } from '../billing/usage.service.ts';
import { recordSiteEvent } from '../workspaces/site-audit.ts';

export interface TPublishResult {
  siteId: string;
  slug: string;
  url: string;
}

const SLUG_ATTEMPTS = 8;

/** A fresh slug no site has and no upload session has reserved. */
export async function allocateSlug(deps: Pick<TPublishingDeps, 'db'>): Promise<string> {
  for (let i = 0; i < SLUG_ATTEMPTS; i++) {
    const slug = generateSlug((n) => randomBytes(n));
    if (isValidSlug(slug) && !(await isSlugInUse(deps.db, slug))) return slug;
  }
  throw new AppError('internal', 'Could not allocate a link for this site. Please try again.');
}

/** Creates the site and its file rows in one transaction, then queues its first build. */
export async function publishSite(
  deps: TPublishingDeps,
  input: {
    siteId: string;
    form: TUploadForm;
    files: TStoredFile[];
    /** The anonymous creator session proven by its cookie (never the id a client sends); null when an account publishes. */
    anonymousSessionId: string | null;
    /** The signed-in creator's account the site belongs to, or null for an anonymous publish. */
    ownerCreatorId: string | null;
    /** The workspace the site goes into (the publisher's current one); null for an anonymous publish. */
    workspaceId: string | null;
    /** The client address of the request that published it, for the audit log (absent: not known, e.g. a session completed later). */
    address?: string;
    /** A slug reserved earlier (resumable uploads promise the link at init); else a fresh one. */
    slug?: string;
    /** The password already hashed (upload sessions never keep the password itself); else form.password is hashed. */
    passwordHash?: string | null;
  },
): Promise<TPublishResult> {
  const { form, files, siteId } = input;
  if (files.length === 0) throw new AppError('validation_failed', 'Please choose at least one file to upload');
  const now = deps.clock.now();
  if (form.expiryDate && form.expiryDate.getTime() <= now) throw new AppError('validation_failed', 'Expiry date must be in the future');

  // The plan's limits again, now with the bytes received (the publish call checked what was declared),
  // in the transaction that creates the site, so parallel publishes at the limit pass one at a time.
  // A site published by an account goes into the workspace named (else the account's personal one).
  const workspaceId = input.ownerCreatorId ? (input.workspaceId ?? input.ownerCreatorId) : null;
  const planCheck = { workspaceId, bytes: files.reduce((sum, f) => sum + f.size, 0), newSite: true, settings: form.settings };
  const slug = input.slug ?? (await allocateSlug(deps));
  const passwordHash = input.passwordHash !== undefined ? input.passwordHash : form.password ? await hashPassword(form.password) : null;
  const settings = { ...DEFAULT_SITE_SETTINGS, ...(form.settings ?? {}) };
  // What the creator left out is the template's look (its demo's).
  const look = resolveSiteLook(templateLook(form.template), form);
  const site: TNewSite = {
    id: siteId,
    slug,
    title: form.title,
    description: form.description,
    sub_line: form.description,
    tag_line: form.authorName ? `By ${form.authorName}` : '',
    author_name: form.authorName,
    template: form.template,
    theme: themeOfLook(look),
    color_mode: look.colorMode,
    hero_layout: look.heroLayout,
    visitor_mode_toggle: look.visitorModeToggle ? 1 : 0,
    settings: JSON.stringify(settings),
    // The creator's public contact details only; the notification address stays in the owner's settings.
    contact_info: JSON.stringify(form.contactInfo ?? EMPTY_CONTACT_INFO),
    password_hash: passwordHash,
    password_version: 1,
    expires_at: form.expiryDate ? form.expiryDate.getTime() : null,
    owner_creator_id: input.ownerCreatorId,
    workspace_id: workspaceId,
    anonymous_session_id: input.ownerCreatorId ? null : input.anonymousSessionId,
    status: 'building',
    version: 1,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  const rows: TNewFile[] = files.map((f, position) => storedFileRow(siteId, f, position, now));
  const publisher = input.ownerCreatorId ? await deps.db.selectFrom('creators').select(['id', 'name']).where('id', '=', input.ownerCreatorId).executeTakeFirst() : undefined;
  await createSiteWithFiles(deps.db, site, rows, async (trx) => {
    const room = await assertUploadAllowedIn(deps, trx, planCheck);
    const by = publisher ? { creator: publisher, address: input.address ?? null } : null;
    await recordSiteEvent(trx, { workspace_id: workspaceId, title: site.title }, by, {
      type: 'site.published',
      details: `Published with ${files.length} ${files.length === 1 ? 'file' : 'files'} at /${slug}`,
      at: now,
    });
    return room;
  });
  try {
    await enqueueSiteBuild(deps, siteId, 1);
  } catch (err) {
    // A site that can never be built must not linger: the caller also removes the bytes.
    await deleteSiteById(deps.db, siteId);
    throw err;
  }
  refreshUsageSoon(deps, workspaceId);
  // A notification address gets one confirmation link; nothing else is sent to it until it is confirmed.
  const notifyAddress = notificationAddressOf(settings);
  if (notifyAddress) await requestEmailConfirmation(deps, { email: notifyAddress, ownerKey: ownerKeyOf(site) });
  return { siteId, slug, url: `${deps.config.publicUrl}/${slug}` };
}
