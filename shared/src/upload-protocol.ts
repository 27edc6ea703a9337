/**
 * zod schemas of the resumable publish protocols (spec 7.3 'Chunked', 'Direct', 'Direct chunked',
 * and the upload-session status). The server parses requests and builds replies with these;
 * the wizard's upload client parses replies with them.
 */
import { z } from 'zod';
import { UPLOAD_LIMITS } from './constants.ts';
import {
  DEFAULT_SITE_SETTINGS,
  ZSitePasswordSchema,
  ZSiteSettingsSchema,
  ZTemplateIdSchema,
  ZThemeStyleSchema,
  ZColorModeSchema,
  ZHeroLayoutSchema,
  lookFields,
} from './schemas.ts';
import { EMPTY_CONTACT_INFO, ZContactInfoInputSchema } from './contact-info.ts';
import { crc32FromBase64 } from './crc32.ts';
import { ZFileGroupSchema } from './file-group.ts';

/** Request header carrying the hex SHA-256 of one chunk's bytes (older clients: the server then hashes the chunk a second time). */
export const CHUNK_SHA256_HEADER = 'X-Chunk-Sha256';
/** Request header carrying the CRC-32 of one chunk's bytes, base64 of its 4 big-endian bytes (as S3's x-amz-checksum-crc32). */
export const CHUNK_CRC32_HEADER = 'X-Chunk-Crc32';

/** Lower-case hex SHA-256, as sent per chunk and per whole file. */
export const ZSha256HexSchema = z.string().regex(/^[0-9a-f]{64}$/, 'must be a lower-case hex SHA-256');

/** CRC-32 of a chunk as sent: base64 of its 4 big-endian bytes (crc32ToBase64). */
export const ZCrc32Base64Schema = z.string().refine((text) => crc32FromBase64(text) !== undefined, 'must be the base64 of a CRC-32 (4 bytes)');

/**
 * Per-chunk checksum a direct-chunked client promises to declare for every part it asks a URL for:
 * 'crc32' (the wizard), or 'sha256' (sessions opened by older clients).
 */
export const DIRECT_CHUNK_CHECKSUMS = ['sha256', 'crc32'] as const;
export type TDirectChunkChecksum = (typeof DIRECT_CHUNK_CHECKSUMS)[number];

const blankToUndefined = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);

/** One file announced at init: what the browser knows before sending a byte. */
export const ZUploadFileDescriptorSchema = z.object({
  name: z.string().min(1).max(1024),
  size: z.number().int().nonnegative(),
  type: z.string().max(255).default(''),
  /** Whole-file hash when the client already knows it; otherwise it is sent at complete. */
  sha256: ZSha256HexSchema.optional(),
  /** The folder the file was dropped in (see ZFileGroupSchema); absent, null or blank for none. */
  group: ZFileGroupSchema.optional(),
});
export type TUploadFileDescriptor = z.infer<typeof ZUploadFileDescriptorSchema>;

/** The site's form fields, as JSON (the multipart call sends the same fields as text). */
export const ZUploadMetadataSchema = z.object({
  title: z.string().trim().min(1, 'Site Title is required').max(UPLOAD_LIMITS.maxTitleLength),
  description: z.string().trim().max(UPLOAD_LIMITS.maxDescriptionLength).default(''),
  template: z.preprocess(blankToUndefined, ZTemplateIdSchema.default('universal')),
  authorName: z.string().trim().max(UPLOAD_LIMITS.maxAuthorNameLength).default(''),
  password: z.preprocess(blankToUndefined, ZSitePasswordSchema.optional()),
  /** ISO date-time; the server refuses one in the past. */
  expiryDate: z.preprocess(blankToUndefined, z.coerce.date().optional()),
  settings: ZSiteSettingsSchema.default(() => ({ ...DEFAULT_SITE_SETTINGS })),
  /** The creator's public contact details for the footer; links come out as https URLs. */
  contactInfo: ZContactInfoInputSchema.default(EMPTY_CONTACT_INFO),
  anonymousSessionId: z.string().max(200).optional(),
  /** The creator's look (style, colorMode, heroLayout, visitorModeToggle; or the older theme): the template's where left out. */
  ...lookFields(blankToUndefined),
});
export type TUploadMetadata = z.infer<typeof ZUploadMetadataSchema>;
/** What the browser sends (before defaults and coercion). */
export type TUploadMetadataInput = z.input<typeof ZUploadMetadataSchema>;

const ZUploadFilesSchema = z.array(ZUploadFileDescriptorSchema).min(1, 'Choose at least one file').max(UPLOAD_LIMITS.maxFilesPerSite);

// ---- Chunked: POST /api/chunked-upload/init, POST {uploadUrl}?chunk=&last=, POST /api/chunked-upload/complete

export const ZChunkedInitRequestSchema = ZUploadMetadataSchema.extend({ files: ZUploadFilesSchema });
export type TChunkedInitRequest = z.input<typeof ZChunkedInitRequestSchema>;

export const ZChunkedUploadTargetSchema = z.object({
  fileId: z.string().min(1),
  chunkSize: z.number().int().positive(),
  totalChunks: z.number().int().nonnegative(),
  /** Where the chunks of this file go, relative to the backend: POST {uploadUrl}?chunk={i}&last={bool}. */
  uploadUrl: z.string().min(1),
});
export type TChunkedUploadTarget = z.infer<typeof ZChunkedUploadTargetSchema>;

export const ZChunkedInitResponseSchema = z.object({
  success: z.literal(true),
  sessionId: z.string().min(1),
  projectSlug: z.string().min(1),
  uploadUrls: z.array(ZChunkedUploadTargetSchema),
});
export type TChunkedInitResponse = z.infer<typeof ZChunkedInitResponseSchema>;

/** Query of one chunk POST. `chunk` is the 0-based index. */
export const ZChunkQuerySchema = z.object({
  chunk: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,8})$/, 'chunk must be a non-negative integer')
    .transform(Number),
  last: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .default(false),
});

export const ZChunkUploadResponseSchema = z.object({ success: z.literal(true) });

export const ZCompletedFileSchema = z.object({ fileId: z.string().min(1), sha256: ZSha256HexSchema });
export type TCompletedFile = z.infer<typeof ZCompletedFileSchema>;

export const ZCompleteUploadRequestSchema = z.object({
  sessionId: z.string().min(1).max(200),
  /** Whole-file SHA-256s; optional when they were given at init (the server hashes every file either way). */
  files: z.array(ZCompletedFileSchema).max(UPLOAD_LIMITS.maxFilesPerSite).optional(),
});
export type TCompleteUploadRequest = z.infer<typeof ZCompleteUploadRequestSchema>;

export const ZCompleteUploadResponseSchema = z.object({
  success: z.literal(true),
  url: z.string().min(1),
  slug: z.string().min(1),
  sessionId: z.string().optional(),
});
export type TCompleteUploadResponse = z.infer<typeof ZCompleteUploadResponseSchema>;

// ---- Upload session status: GET /api/upload-session/status?sessionId=

export const UPLOAD_PROTOCOLS = ['chunked', 'direct-chunked'] as const;
/** The session states the contract names; an expired or unknown session answers 410/404 instead of a status. */
export const UPLOAD_SESSION_STATUSES = ['open', 'completing', 'completed', 'aborted'] as const;

export const ZUploadSessionFileSchema = z.object({
  fileId: z.string(),
  name: z.string(),
  size: z.number().int().nonnegative(),
  chunkSize: z.number().int().positive(),
  totalChunks: z.number().int().nonnegative(),
  /** 0-based indices of the chunks the server holds durably. */
  receivedChunks: z.array(z.number().int().nonnegative()),
});
export type TUploadSessionFile = z.infer<typeof ZUploadSessionFileSchema>;

export const ZUploadSessionSchema = z.object({
  sessionId: z.string(),
  projectSlug: z.string(),
  protocol: z.enum(UPLOAD_PROTOCOLS),
  status: z.enum(UPLOAD_SESSION_STATUSES),
  expiresAt: z.string(),
  files: z.array(ZUploadSessionFileSchema),
});
export type TUploadSession = z.infer<typeof ZUploadSessionSchema>;

export const ZUploadSessionStatusResponseSchema = z.object({ success: z.literal(true), session: ZUploadSessionSchema });
export type TUploadSessionStatusResponse = z.infer<typeof ZUploadSessionStatusResponseSchema>;

/** A browser's record of an unfinished chunked upload (kept in localStorage to resume after a reload). */
export const ZFileFingerprintSchema = z.object({ name: z.string(), size: z.number(), lastModified: z.number() });
export type TFileFingerprint = z.infer<typeof ZFileFingerprintSchema>;

export const ZResumableUploadSchema = z.object({
  protocol: z.enum(UPLOAD_PROTOCOLS),
  sessionId: z.string().min(1),
  projectSlug: z.string(),
  files: z.array(
    ZFileFingerprintSchema.extend({
      fileId: z.string().min(1),
      chunkSize: z.number().int().positive(),
      totalChunks: z.number().int().nonnegative(),
      /** Chunked protocol only: where this file's chunks go. */
      uploadUrl: z.string().optional(),
    }),
  ),
  /** SHA-256 of the site's form as sent at init: a changed form starts a new upload. */
  draftHash: z.string(),
  /** Direct chunked: the session was opened with this chunk checksum, so each URL asked needs the chunk's checksum. */
  chunkChecksum: z.enum(DIRECT_CHUNK_CHECKSUMS).optional(),
  createdAt: z.number(),
});
export type TResumableUpload = z.infer<typeof ZResumableUploadSchema>;

/**
 * The wizard's form kept beside a resumable upload, so a reload can fill it in again and the
 * upload continues (its session is only taken up again for the same form). Never the password:
 * only whether there was one, so the creator is asked to type it again.
 */
export const ZUploadDraftSchema = z.object({
  files: z.array(ZFileFingerprintSchema).max(UPLOAD_LIMITS.maxFilesPerSite),
  form: z.object({
    title: z.string().max(1000),
    description: z.string().max(10_000),
    authorName: z.string().max(1000),
    /** datetime-local text, as the field holds it. */
    expiryDate: z.string().max(40),
    template: ZTemplateIdSchema,
    settings: ZSiteSettingsSchema,
    /** The look chosen (drafts saved before the wizard asked have none: the template's). */
    look: z.object({ style: ZThemeStyleSchema, colorMode: ZColorModeSchema, heroLayout: ZHeroLayoutSchema, visitorModeToggle: z.boolean(), edited: z.boolean() }).optional(),
    /** As the fields hold it (drafts saved before contact fields existed have none). */
    contactInfo: z
      .object({
        email: z.string().max(1000),
        website: z.string().max(2048),
        // Drafts saved before the Instagram field existed have none.
        instagram: z.string().max(2048).default(''),
        twitter: z.string().max(2048),
        linkedin: z.string().max(2048),
        github: z.string().max(2048),
      })
      .optional(),
  }),
  hadPassword: z.boolean(),
  savedAt: z.number(),
});
export type TUploadDraft = z.infer<typeof ZUploadDraftSchema>;

// ---- Direct: POST /api/direct-upload (multipart, same fields as /api/upload), GET /api/direct-upload/status/{slug}

export const ZDirectUploadResponseSchema = z.object({ success: z.literal(true), url: z.string().min(1), slug: z.string().min(1) });
export type TDirectUploadResponse = z.infer<typeof ZDirectUploadResponseSchema>;

export const ZDirectUploadStatusResponseSchema = z.object({
  success: z.literal(true),
  project: z.object({
    /** 0-100. */
    optimizationProgress: z.number().min(0).max(100),
    optimizationComplete: z.boolean(),
  }),
});
export type TDirectUploadStatusResponse = z.infer<typeof ZDirectUploadStatusResponseSchema>;

// ---- Direct chunked: POST /api/direct-upload/init, /urls, /complete

export const ZDirectChunkedInitRequestSchema = z.object({
  files: ZUploadFilesSchema,
  metadata: ZUploadMetadataSchema,
  /**
   * 'crc32' ('sha256'): every urls call of this session gives each chunk's CRC-32 (SHA-256), and a
   * presigned part URL then takes only those bytes. Without it, URLs bind the chunk's size only (as before).
   */
  chunkChecksum: z.enum(DIRECT_CHUNK_CHECKSUMS).optional(),
});
export type TDirectChunkedInitRequest = z.input<typeof ZDirectChunkedInitRequestSchema>;

export const ZDirectChunkedFileSchema = z.object({
  fileId: z.string().min(1),
  chunkCount: z.number().int().nonnegative(),
  chunkSize: z.number().int().positive(),
});
export type TDirectChunkedFile = z.infer<typeof ZDirectChunkedFileSchema>;

export const ZDirectChunkedInitResponseSchema = z.object({
  success: z.literal(true),
  sessionId: z.string().min(1),
  projectSlug: z.string().min(1),
  files: z.array(ZDirectChunkedFileSchema),
  /** Echoed when the session requires each chunk's checksum in the urls call. */
  chunkChecksum: z.enum(DIRECT_CHUNK_CHECKSUMS).optional(),
});
export type TDirectChunkedInitResponse = z.infer<typeof ZDirectChunkedInitResponseSchema>;

export const ZDirectUploadUrlsRequestSchema = z
  .object({
    sessionId: z.string().min(1).max(200),
    fileId: z.string().min(1).max(200),
    chunkIndices: z.array(z.number().int().nonnegative()).min(1).max(1000),
    /** Lower-case hex SHA-256 of each chunk asked, in the order of chunkIndices (required by sessions opened with chunkChecksum 'sha256'). */
    chunkSha256: z.array(ZSha256HexSchema).max(1000).optional(),
    /** Base64 CRC-32 of each chunk asked, in the order of chunkIndices (required by sessions opened with chunkChecksum 'crc32'). */
    chunkCrc32: z.array(ZCrc32Base64Schema).max(1000).optional(),
  })
  .refine((r) => r.chunkSha256 === undefined || r.chunkSha256.length === r.chunkIndices.length, {
    message: 'chunkSha256 must give one SHA-256 per chunk index',
    path: ['chunkSha256'],
  })
  .refine((r) => r.chunkCrc32 === undefined || r.chunkCrc32.length === r.chunkIndices.length, {
    message: 'chunkCrc32 must give one CRC-32 per chunk index',
    path: ['chunkCrc32'],
  });
export type TDirectUploadUrlsRequest = z.infer<typeof ZDirectUploadUrlsRequestSchema>;

export const ZChunkUploadUrlSchema = z.object({
  chunkIndex: z.number().int().nonnegative(),
  /** PUT: a presigned, absolute storage URL. POST: a path relative to the backend. */
  uploadUrl: z.string().min(1),
  method: z.enum(['POST', 'PUT']),
  headers: z.record(z.string(), z.string()).optional(),
});
export type TChunkUploadUrl = z.infer<typeof ZChunkUploadUrlSchema>;

export const ZDirectUploadUrlsResponseSchema = z.object({ success: z.literal(true), uploadUrls: z.array(ZChunkUploadUrlSchema) });
export type TDirectUploadUrlsResponse = z.infer<typeof ZDirectUploadUrlsResponseSchema>;

/**
 * Complete of direct chunked: same body as the chunked complete; the reply also echoes the sessionId.
 * @alias
 */
export const ZDirectChunkedCompleteRequestSchema = ZCompleteUploadRequestSchema;
/** @alias */
export const ZDirectChunkedCompleteResponseSchema = ZCompleteUploadResponseSchema;

// ---- Preview of a draft site: POST /api/preview

/** One chosen file as the wizard describes it before upload; `clientId` names it in the preview HTML. */
export const ZPreviewFileSchema = z.object({
  clientId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'clientId must be 1-64 letters, digits, - or _'),
  name: z.string().min(1).max(1024),
  type: z.string().max(255).default(''),
  size: z.number().int().nonnegative(),
  width: z.number().int().positive().max(100_000).optional(),
  height: z.number().int().positive().max(100_000).optional(),
  /** The folder the file was dropped in, as at publishing. */
  group: ZFileGroupSchema.optional(),
});
export type TPreviewFile = z.infer<typeof ZPreviewFileSchema>;

export const ZPreviewRequestSchema = z.object({
  title: z.string().trim().max(UPLOAD_LIMITS.maxTitleLength).default(''),
  description: z.string().trim().max(UPLOAD_LIMITS.maxDescriptionLength).default(''),
  authorName: z.string().trim().max(UPLOAD_LIMITS.maxAuthorNameLength).default(''),
  template: z.preprocess(blankToUndefined, ZTemplateIdSchema.default('universal')),
  settings: ZSiteSettingsSchema.default(() => ({ ...DEFAULT_SITE_SETTINGS })),
  contactInfo: ZContactInfoInputSchema.default(EMPTY_CONTACT_INFO),
  /** The look the creator chose, as at publishing. */
  ...lookFields(blankToUndefined),
  files: z.array(ZPreviewFileSchema).max(UPLOAD_LIMITS.maxFilesPerSite),
});
export type TPreviewRequest = z.input<typeof ZPreviewRequestSchema>;
/** A parsed preview request, defaults applied. */
export type TPreviewDraft = z.output<typeof ZPreviewRequestSchema>;

/** Placeholder URL of a chosen file in preview HTML; the wizard swaps it for the file's object URL. */
export function previewFileUrl(clientId: string): string {
  return `/api/preview-file/${clientId}`;
}
