/**
 * Managing a published site from the dashboard (issue 11, 'Managing a published site'): the
 * owner's view of a site's settings and files, the edit call and the build that follows each change.
 * Field rules are the publishing rules of schemas.ts and contact-info.ts, so a site can be edited
 * into exactly what could have been published.
 */
import { z } from 'zod';
import { UPLOAD_LIMITS } from './constants.ts';
import {
  HERO_LAYOUTS,
  ZColorModeSchema,
  ZManagedSiteSettingsSchema,
  ZSitePasswordSchema,
  ZSiteSettingsPatchSchema,
  ZSiteThemeSchema,
  ZTemplateIdSchema,
  ZThemeStyleSchema,
} from './schemas.ts';
import { ZContactInfoInputSchema, ZPublicContactInfoSchema } from './contact-info.ts';

export const SITE_MANAGEMENT_MESSAGES = {
  expiryInPast: 'Expiry date must be in the future',
  lastFile: 'A site needs at least one file. Add another file before removing this one.',
  tooManyFiles: `A site can have at most ${UPLOAD_LIMITS.maxFilesPerSite} files`,
  noFile: 'Please choose a file',
  confirmTitle: 'Type the site title to confirm.',
  /** Notifications switched on with nowhere to send them (no address for the site, no confirmed account email). */
  notificationsNeedRecipient: 'Notifications need an email address: enter one for this site, or confirm your account’s email first.',
} as const;

/** A title as a person types it: Unicode compatibility forms folded, every dash a hyphen, each run of spaces one space, trimmed. */
export function normalizeTypedTitle(title: string): string {
  return title
    .normalize('NFKC')
    .replace(/[\p{Pd}\u2212]/gu, '-')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** Whether what the owner typed confirms deleting the site titled `title` ('Smith–Jones' typed as 'Smith-Jones' does). */
export function confirmsTitle(typed: string, title: string): boolean {
  return normalizeTypedTitle(typed) === normalizeTypedTitle(title);
}

/** PATCH /api/projects/{id}: any subset of the fields; `password: null` removes it, `expiresAt: null` removes the expiry. */
export const ZProjectUpdateSchema = z.strictObject({
  title: z.string().trim().min(1, 'Site Title is required').max(UPLOAD_LIMITS.maxTitleLength).optional(),
  description: z.string().trim().max(UPLOAD_LIMITS.maxDescriptionLength).optional(),
  authorName: z.string().trim().max(UPLOAD_LIMITS.maxAuthorNameLength).optional(),
  template: ZTemplateIdSchema.optional(),
  /** The older way of naming style and pinned mode ('nature-dark'); `style` / `colorMode` sent alongside win. */
  theme: ZSiteThemeSchema.optional(),
  style: ZThemeStyleSchema.optional(),
  /** 'auto' follows each visitor's light/dark preference; 'light' / 'dark' pin one. */
  colorMode: ZColorModeSchema.optional(),
  /** The hero's layout; null for the template's default. */
  heroLayout: z.enum(HERO_LAYOUTS).nullable().optional(),
  /** Whether visitors get a light/dark toggle. */
  visitorModeToggle: z.boolean().optional(),
  settings: ZSiteSettingsPatchSchema.optional(),
  contactInfo: ZContactInfoInputSchema.optional(),
  password: ZSitePasswordSchema.nullable().optional(),
  expiresAt: z.iso.datetime({ offset: true }).nullable().optional(),
});
export type TProjectUpdate = z.input<typeof ZProjectUpdateSchema>;

export const ZManagedFileSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  kind: z.string(),
  size: z.number(),
  position: z.number(),
  /** 1 for the bytes first published, bumped on each replacement. */
  version: z.number(),
  uploadedAt: z.string(),
  replacedAt: z.string().nullable(),
  thumbnailUrl: z.string().nullable(),
});
export type TManagedFile = z.infer<typeof ZManagedFileSchema>;

export const ZBuildProgressSchema = z.object({
  version: z.number(),
  state: z.enum(['queued', 'running', 'succeeded', 'failed']),
  progress: z.number(),
  stage: z.string(),
});
export type TBuildProgress = z.infer<typeof ZBuildProgressSchema>;

/** What the owner's settings forms start from. */
export const ZManagedProjectSchema = z.object({
  id: z.string(),
  slug: z.string(),
  url: z.string(),
  status: z.enum(['building', 'live', 'failed']),
  title: z.string(),
  description: z.string(),
  authorName: z.string(),
  template: ZTemplateIdSchema,
  /** `{style}-{light|dark}`, kept for older clients: the style with its pinned variant (light for automatic). */
  theme: z.string(),
  style: ZThemeStyleSchema,
  colorMode: ZColorModeSchema,
  heroLayout: z.enum(HERO_LAYOUTS),
  visitorModeToggle: z.boolean(),
  settings: ZManagedSiteSettingsSchema,
  /**
   * The owner account's confirmed email, where notifications go when the site names no address of
   * its own; null while the account's email is unconfirmed.
   */
  accountNotificationEmail: z.string().nullable(),
  contactInfo: ZPublicContactInfoSchema,
  hasPassword: z.boolean(),
  expiresAt: z.string().nullable(),
  files: z.array(ZManagedFileSchema),
  build: ZBuildProgressSchema.nullable(),
});
export type TManagedProject = z.infer<typeof ZManagedProjectSchema>;

export const ZManagedProjectResponseSchema = z.object({ success: z.literal(true), project: ZManagedProjectSchema });
export type TManagedProjectResponse = z.infer<typeof ZManagedProjectResponseSchema>;

export const ZBuildProgressResponseSchema = z.object({ success: z.literal(true), build: ZBuildProgressSchema.nullable() });
export type TBuildProgressResponse = z.infer<typeof ZBuildProgressResponseSchema>;

/** DELETE /api/projects/{id}: the title typed to confirm. */
export const ZDeleteProjectSchema = z.object({ confirmTitle: z.string().max(UPLOAD_LIMITS.maxTitleLength + 10) });
