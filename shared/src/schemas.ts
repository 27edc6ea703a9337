/** zod schemas of API payloads and entities; the one source of API types. */
import { z } from 'zod';
import { FILE_KINDS } from './file-types.ts';
import { ZPublicFileDetailsSchema } from './derived.ts';
import { UPLOAD_LIMITS } from './constants.ts';
import { ZContactInfoInputSchema, ZPublicContactInfoSchema } from './contact-info.ts';
import { TEMPLATE_IDS } from './templates.ts';
import { ZFileGroupSchema } from './file-group.ts';
import { HERO_LAYOUTS, SITE_PASSWORD_LIMITS, SITE_PASSWORD_MESSAGES, THEME_MODES, THEME_STYLES } from './site-rules.ts';
import { ZPublicSiteSettingsSchema, ZSiteSettingsSchema } from './site-settings.ts';
import { COLOR_MODES } from './site-look.ts';
import { ZErrorCodeSchema } from './errors.ts';

export * from './site-rules.ts';
export * from './site-settings.ts';

export const ZTemplateIdSchema = z.enum(TEMPLATE_IDS);

/** Every theme a site can be given: each style in light and dark (the older way of naming a style and a pinned mode). */
export const SITE_THEME_IDS = THEME_STYLES.flatMap((style) => THEME_MODES.map((mode) => `${style}-${mode}` as const));
export const ZSiteThemeSchema = z.enum(SITE_THEME_IDS as [(typeof SITE_THEME_IDS)[number], ...(typeof SITE_THEME_IDS)[number][]]);
export type TSiteTheme = z.infer<typeof ZSiteThemeSchema>;
export const ZThemeStyleSchema = z.enum(THEME_STYLES);
export const ZColorModeSchema = z.enum(COLOR_MODES);
export const ZHeroLayoutSchema = z.enum(HERO_LAYOUTS);

export const ZContactInfoSchema = z.object({
  email: z.string().max(320).default(''),
  website: z.string().max(2048).default(''),
  instagram: z.string().max(2048).default(''),
  twitter: z.string().max(2048).default(''),
  linkedin: z.string().max(2048).default(''),
  github: z.string().max(2048).default(''),
});
export type TContactInfo = z.infer<typeof ZContactInfoSchema>;

/** One entry of the multipart call's filesMetadata: entry i describes the i-th file part. */
export const ZFileMetadataEntrySchema = z.object({
  name: z.string().max(1024),
  type: z.string().max(255).default(''),
  size: z.number().int().nonnegative(),
  /** The folder the file was dropped in (see ZFileGroupSchema); absent, null or blank for none. */
  group: ZFileGroupSchema.optional(),
});

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** Parses a JSON text field of a multipart form, answering a readable error when it is not JSON. */
const jsonText = <T extends z.ZodType>(schema: T) =>
  z
    .string()
    .max(UPLOAD_LIMITS.maxFieldBytes)
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be valid JSON' });
        return z.NEVER;
      }
    })
    .pipe(schema);

const booleanText = (v: unknown) => (v === 'true' ? true : v === 'false' ? false : v);

/**
 * The creator's look choices as publish fields (see site-look.ts), each optional: what is left out is
 * the template's. `theme` ('nature-dark') is the older way of naming a style and a pinned mode.
 */
export function lookFields(blank: (v: unknown) => unknown) {
  return {
    style: z.preprocess(blank, ZThemeStyleSchema.optional()),
    colorMode: z.preprocess(blank, ZColorModeSchema.optional()),
    heroLayout: z.preprocess(blank, ZHeroLayoutSchema.optional()),
    /** Whether visitors get a light/dark toggle ('true' / 'false' as multipart text). */
    visitorModeToggle: z.preprocess((v) => booleanText(blank(v)), z.boolean().optional()),
    theme: z.preprocess(blank, ZSiteThemeSchema.optional()),
  };
}

export const ZSitePasswordSchema = z
  .string()
  .min(SITE_PASSWORD_LIMITS.minLength, SITE_PASSWORD_MESSAGES.tooShort)
  .max(SITE_PASSWORD_LIMITS.maxLength, SITE_PASSWORD_MESSAGES.tooLong);

/** The text fields of the regular multipart publish call (spec 7.3 'Regular'). */
export const ZUploadFormSchema = z.object({
  title: z.string().trim().min(1, 'Site Title is required').max(UPLOAD_LIMITS.maxTitleLength),
  description: z.string().trim().max(UPLOAD_LIMITS.maxDescriptionLength).default(''),
  template: z.preprocess(blankToUndefined, ZTemplateIdSchema.default('universal')),
  authorName: z.string().trim().max(UPLOAD_LIMITS.maxAuthorNameLength).default(''),
  anonymousSessionId: z.string().max(200).optional(),
  settings: z.preprocess(blankToUndefined, jsonText(ZSiteSettingsSchema).optional()),
  /** JSON text of the creator's public contact details (email, website, instagram, twitter, linkedin, github). */
  contactInfo: z.preprocess(blankToUndefined, jsonText(ZContactInfoInputSchema).optional()),
  filesMetadata: z.preprocess(blankToUndefined, jsonText(z.array(ZFileMetadataEntrySchema).max(UPLOAD_LIMITS.maxFilesPerSite)).optional()),
  password: z.preprocess(blankToUndefined, ZSitePasswordSchema.optional()),
  expiryDate: z.preprocess(blankToUndefined, z.coerce.date().optional()),
  ...lookFields(blankToUndefined),
});
export type TUploadForm = z.infer<typeof ZUploadFormSchema>;

export const ZUploadResponseSchema = z.union([
  z.object({ success: z.literal(true), url: z.string(), slug: z.string() }),
  z.object({ success: z.literal(false), error: z.string(), code: z.string().optional() }),
]);
export type TUploadResponse = z.infer<typeof ZUploadResponseSchema>;

/** Every error answer of the API; the code is one of the catalogue's (errors.ts). */
export const ZErrorResponseSchema = z.object({ success: z.literal(false), error: z.string(), code: ZErrorCodeSchema });
export type TErrorResponse = z.infer<typeof ZErrorResponseSchema>;

export const ZFileQuerySchema = z.object({
  mode: z.enum(['preview', 'download']).default('preview'),
  size: z.coerce
    .number()
    .int()
    .refine((n) => n === 300, 'size must be 300')
    .optional(),
});

/** One file as the site template renders it. URLs are relative to the site's origin. */
export const ZSiteFileSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  size: z.number().int().nonnegative(),
  kind: z.enum(FILE_KINDS),
  url: z.string(),
  downloadUrl: z.string(),
  thumbnailUrl: z.string().nullable(),
  width: z.number().int().positive().nullable(),
  height: z.number().int().positive().nullable(),
  thumbnailWidth: z.number().int().positive().nullable(),
  thumbnailHeight: z.number().int().positive().nullable(),
  format: z.string().nullable(),
  uploadedAt: z.string(),
  /**
   * The folder the creator dropped the file in (its last folder name), or null. Templates use it
   * as the gallery's categories and the product showcase's colour variants.
   */
  group: z.string().nullable(),
  /** What a viewer shows beyond the basics (pages, duration, archive tree, first lines…). */
  details: ZPublicFileDetailsSchema.default({}),
});
export type TSiteFile = z.infer<typeof ZSiteFileSchema>;

/**
 * Everything the site template needs to render one published site, all of it public: it ends up in
 * the page and in its islands' props. No owner data, no secrets (no notification address, webhook,
 * password, owner or anonymous-creator id, storage key). Strict, so an added field fails the build
 * instead of slipping into the page.
 */
export const ZSiteRenderModelSchema = z.strictObject({
  projectId: z.string(),
  slug: z.string(),
  title: z.string(),
  subLine: z.string(),
  tagLine: z.string(),
  description: z.string(),
  authorName: z.string(),
  template: ZTemplateIdSchema,
  /** `{style}-{light|dark}`: the style, in the variant shown when the site is pinned or the visitor has no preference. */
  theme: z.string(),
  /** 'auto' follows the visitor's prefers-color-scheme; 'light' / 'dark' pin the theme's variant. Absent: pinned as `theme` says. */
  colorMode: ZColorModeSchema.optional(),
  /** Whether the page offers visitors a light/dark toggle. Absent: no toggle. */
  visitorModeToggle: z.boolean().optional(),
  /** The owner's hero layout. Absent or null: the template's default. */
  heroLayout: z.enum(HERO_LAYOUTS).nullable().optional(),
  settings: ZPublicSiteSettingsSchema,
  contactInfo: ZPublicContactInfoSchema,
  files: z.array(ZSiteFileSchema),
  publishedAt: z.string(),
  /** When the site's link stops working (ISO, UTC), when the creator set an expiry: the page tells its visitors. */
  expiresAt: z.iso.datetime().nullable().optional(),
  /** Absolute origin of the public site, for Open Graph tags. */
  siteOrigin: z.string(),
  /** Absolute URL of the site's Open Graph picture (`{siteOrigin}/{slug}/og.png`), when the builder made one. */
  ogImageUrl: z.string().nullable().optional(),
});
export type TSiteRenderModel = z.infer<typeof ZSiteRenderModelSchema>;

export const BUILD_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export const ZBuildStatusSchema = z.object({
  status: z.enum(BUILD_STATUSES),
  progress: z.number().min(0).max(100),
  stage: z.string(),
});
export type TBuildStatus = z.infer<typeof ZBuildStatusSchema>;

export const ZSiteStatusResponseSchema = z.object({
  success: z.literal(true),
  slug: z.string(),
  status: z.enum(['building', 'live', 'failed']),
  progress: z.number(),
  stage: z.string(),
});
export type TSiteStatusResponse = z.infer<typeof ZSiteStatusResponseSchema>;
