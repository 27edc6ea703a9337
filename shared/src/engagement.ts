/**
 * Engagement, access and the anonymous creator's loop: zod schemas of every payload and reply
 * (spec 'visitor-site-and-publishing' 3, 4, 5, 7.1, 7.2; companion spec 'analytics' call 3),
 * the constants they use, and the pure rules both sides share. The server parses requests and
 * shapes replies with these; the islands and the dashboard parse the replies with them.
 *
 * Identity is never taken from a payload: the server knows a visitor by its HttpOnly visitor
 * cookie and an anonymous creator by its HttpOnly token. The `userEmail`, `userName` and
 * `anonymousSessionId` fields the spec sends are accepted for compatibility and ignored.
 */
import { z } from 'zod';
import { ID_PATTERN } from './slug.ts';
import {
  ACTIVITY_TYPES,
  APPROVAL_STATUSES,
  EMAIL_TRIGGERS,
  NOTIFICATION_TYPES,
  PRODUCT_EVENT_NAMES,
  URGENCY_LEVELS,
  VISITOR_NAME_MAX_CHARS,
  findVisitorNameProblem,
  isValidEmailAddress,
  isValidVisitorEmail,
} from './engagement-rules.ts';

export * from './engagement-rules.ts';

// ---- enums as schemas

export const ZApprovalStatusSchema = z.enum(APPROVAL_STATUSES);
export const ZActivityTypeSchema = z.enum(ACTIVITY_TYPES);
export const ZEmailTriggerSchema = z.enum(EMAIL_TRIGGERS);
export const ZProductEventNameSchema = z.enum(PRODUCT_EVENT_NAMES);
export const ZNotificationTypeSchema = z.enum(NOTIFICATION_TYPES);
export const ZUrgencyLevelSchema = z.enum(URGENCY_LEVELS);

// ---- shared pieces

/** A server-issued id (projects, files, comments). Anything else is refused before any lookup. */
export const ZEntityIdSchema = z.string().regex(ID_PATTERN, 'is not a valid id');
/** An ISO 8601 date-time as the server sends it (`Date.prototype.toISOString`). */
export const ZIsoDateTimeSchema = z.string();

/** The identity fields the spec's payloads carry: accepted, ignored (the cookie decides). */
const ZIgnoredIdentity = {
  userEmail: z.string().max(320).nullish(),
  userName: z.string().max(200).nullish(),
};

export const ZEngagementTargetSchema = z.object({
  projectId: ZEntityIdSchema,
  fileId: ZEntityIdSchema,
  ...ZIgnoredIdentity,
});
export type TEngagementTarget = z.input<typeof ZEngagementTargetSchema>;

const success = { success: z.literal(true) };

// ---- favourites: POST / DELETE /api/favorites

/** @alias A favourite names its target and nothing else. */
export const ZFavoriteRequestSchema = ZEngagementTargetSchema;
export type TFavoriteRequest = z.input<typeof ZFavoriteRequestSchema>;
export const ZFavoriteResponseSchema = z.object({
  ...success,
  fileId: z.string(),
  /** The visitor's state after the call. */
  isFavorite: z.boolean(),
  /** How many visitors favourited this file. */
  favoritesCount: z.number().int().nonnegative(),
});
export type TFavoriteResponse = z.infer<typeof ZFavoriteResponseSchema>;

// ---- approvals: POST /api/approvals

export const ZApprovalRequestSchema = ZEngagementTargetSchema.extend({ status: ZApprovalStatusSchema });
export type TApprovalRequest = z.input<typeof ZApprovalRequestSchema>;
export const ZApprovalResponseSchema = z.object({
  ...success,
  fileId: z.string(),
  status: ZApprovalStatusSchema,
  updatedAt: ZIsoDateTimeSchema,
});
export type TApprovalResponse = z.infer<typeof ZApprovalResponseSchema>;

// ---- comments: GET / POST /api/comments

export const ZCommentsQuerySchema = z.object({ projectId: ZEntityIdSchema, fileId: ZEntityIdSchema });
export type TCommentsQuery = z.infer<typeof ZCommentsQuerySchema>;

/** One comment as the server sends it. `commentText` is plain text: show it as text, never as HTML. */
export const ZCommentReplySchema = z.object({
  id: z.string(),
  fileId: z.string(),
  /** The thread's first comment for a reply, null for a top-level comment. */
  parentId: z.string().nullable(),
  /** The name the author gave when writing it; 'User' and the last 4 characters of their visitor id when they gave none. */
  userName: z.string(),
  commentText: z.string(),
  createdAt: ZIsoDateTimeSchema,
  /** True when the visitor asking wrote it. */
  isOwn: z.boolean(),
  /** A reply of the site's creator (from the dashboard); its userName is the site's author name, or 'Creator'. */
  isCreator: z.boolean(),
});
export type TCommentReply = z.infer<typeof ZCommentReplySchema>;
export const ZCommentSchema = ZCommentReplySchema.extend({
  /** Replies, oldest first (empty for replies themselves). */
  replies: z.array(ZCommentReplySchema),
});
export type TComment = z.infer<typeof ZCommentSchema>;

export const ZCommentsResponseSchema = z.object({
  ...success,
  /** Top-level comments, oldest first, each with its replies. */
  comments: z.array(ZCommentSchema),
  /** All comments on the file, replies included. */
  total: z.number().int().nonnegative(),
});
export type TCommentsResponse = z.infer<typeof ZCommentsResponseSchema>;

export const ZCreateCommentRequestSchema = ZEngagementTargetSchema.extend({
  /** Checked by findCommentTextProblem on the server: blank 400, too long 413, NUL 400. */
  commentText: z.string(),
  /** The comment answered (any comment of the thread); null or absent for a new thread. */
  threadId: ZEntityIdSchema.nullish(),
  parentId: ZEntityIdSchema.nullish(),
});
export type TCreateCommentRequest = z.input<typeof ZCreateCommentRequestSchema>;
export const ZCreateCommentResponseSchema = z.object({ ...success, comment: ZCommentSchema });
export type TCreateCommentResponse = z.infer<typeof ZCreateCommentResponseSchema>;

// ---- the returning visitor's own state: GET /api/engagement/state?projectId=

export const ZEngagementStateQuerySchema = z.object({ projectId: ZEntityIdSchema });
/** The visitor as the site knows them: the name they gave (else 'User 9fQk'), and whether they gave one. */
export const ZVisitorProfileSchema = z.object({
  name: z.string(),
  /** False until the visitor gives a name: the site asks for one before their first favourite, comment or review. */
  hasName: z.boolean(),
  /** The address they chose to show the creator, or null. */
  email: z.string().nullable(),
});
export type TVisitorProfile = z.infer<typeof ZVisitorProfileSchema>;

export const ZEngagementStateResponseSchema = z.object({
  ...success,
  visitor: ZVisitorProfileSchema,
  /** The site's switches, as the server enforces them. */
  features: z.object({ favorites: z.boolean(), comments: z.boolean(), approvals: z.boolean(), analytics: z.boolean() }),
  /** File ids the visitor favourited. */
  favorites: z.array(z.string()),
  /** The visitor's approval per file (files without one are absent: pending). */
  approvals: z.array(z.object({ fileId: z.string(), status: ZApprovalStatusSchema })),
  /** Comments per file id (files without comments are absent). */
  commentCounts: z.record(z.string(), z.number().int().nonnegative()),
});
export type TEngagementStateResponse = z.infer<typeof ZEngagementStateResponseSchema>;

// ---- the visitor's name: PUT /api/visitor/profile

const VISITOR_NAME_MESSAGES = {
  blank: 'Please enter your name',
  too_long: `Names can be at most ${VISITOR_NAME_MAX_CHARS} characters`,
  invalid: 'The name contains characters that cannot be used',
} as const;

/** A name (trimmed, 1 to VISITOR_NAME_MAX_CHARS characters, no control characters) and an optional address ('' or absent: none). */
export const ZVisitorProfileRequestSchema = z.object({
  name: z
    .string()
    .max(1000)
    .trim()
    .superRefine((name, ctx) => {
      const problem = findVisitorNameProblem(name);
      if (problem) ctx.addIssue({ code: 'custom', message: VISITOR_NAME_MESSAGES[problem] });
    }),
  email: z
    .string()
    .max(1000)
    .trim()
    .refine((email) => email === '' || isValidVisitorEmail(email), 'Please enter a valid email address')
    .nullish()
    .transform((email) => email || null),
});
export type TVisitorProfileRequest = z.input<typeof ZVisitorProfileRequestSchema>;
export const ZVisitorProfileResponseSchema = z.object({ ...success, visitor: ZVisitorProfileSchema });
export type TVisitorProfileResponse = z.infer<typeof ZVisitorProfileResponseSchema>;

// ---- analytics

/** POST /api/analytics/view: the page (no fileId) or one file was viewed. */
export const ZViewBeaconRequestSchema = z.object({ projectId: ZEntityIdSchema, fileId: ZEntityIdSchema.nullish() });
export type TViewBeaconRequest = z.input<typeof ZViewBeaconRequestSchema>;
export const ZViewBeaconResponseSchema = z.object({
  ...success,
  /** False when the same visitor's view was already counted within the dedupe window. */
  counted: z.boolean(),
});

/** POST /api/analytics/events: the email modal's analytics events (spec 9). */
export const ZProductEventRequestSchema = z.object({
  event: ZProductEventNameSchema,
  trigger: ZEmailTriggerSchema.nullish(),
  projectId: ZEntityIdSchema.nullish(),
  anonymousSessionId: z.string().max(200).nullish(),
  timestamp: z.union([z.number(), z.string().max(64)]).nullish(),
});
export type TProductEventRequest = z.input<typeof ZProductEventRequestSchema>;

/** GET /api/analytics?projectId=&detailed=true[&fileId=] (companion spec call 3). */
export const ZAnalyticsQuerySchema = z.object({
  projectId: ZEntityIdSchema,
  fileId: ZEntityIdSchema.optional(),
  detailed: z.enum(['true', 'false']).optional(),
});
export const ZActivitySchema = z.object({
  type: ZActivityTypeSchema,
  details: z.string(),
  timestamp: ZIsoDateTimeSchema,
  fileId: z.string().nullable(),
});
export type TActivity = z.infer<typeof ZActivitySchema>;
/**
 * Approval decisions. `approved` and `rejected` count decisions (one per client per file);
 * `pending` counts FILES no one has decided on yet (neither approved nor asked changes of): a
 * site's pending is its files without a decision, a single file's is 1 or 0.
 */
export const ZApprovalCountsSchema = z.object({
  approved: z.number().int().nonnegative(),
  /** Shown as 'Changes requested'. */
  rejected: z.number().int().nonnegative(),
  /** Files not reviewed by anyone. */
  pending: z.number().int().nonnegative(),
});
export const ZAnalyticsSchema = z.object({
  /** Project: page views; file: views of that file. Deduplicated per visitor per window. */
  views: z.number().int().nonnegative(),
  /** Completed downloads (project: every file and the ZIP of all). */
  downloads: z.number().int().nonnegative(),
  favorites: z.number().int().nonnegative(),
  comments: z.number().int().nonnegative(),
  approvals: ZApprovalCountsSchema,
  uniqueVisitors: z.number().int().nonnegative(),
  /** Newest first, at most RECENT_ACTIVITY_LIMIT (empty unless detailed=true). */
  recentActivity: z.array(ZActivitySchema),
});
export type TAnalytics = z.infer<typeof ZAnalyticsSchema>;
export const ZAnalyticsResponseSchema = z.object({
  ...success,
  projectId: z.string(),
  fileId: z.string().nullable(),
  analytics: ZAnalyticsSchema,
});
export type TAnalyticsResponse = z.infer<typeof ZAnalyticsResponseSchema>;

// ---- password-protected sites: POST /api/sites/{slug}/unlock (JSON or form)

export const ZUnlockRequestSchema = z.object({ password: z.string().min(1, 'Please enter the password').max(200) });
export const ZUnlockResponseSchema = z.object({ ...success, redirectTo: z.string() });

// ---- the anonymous creator (spec 7.2)

/** GET /api/creators/anonymous/session: the caller's own anonymous session (never its secret). */
export const ZAnonymousSessionResponseSchema = z.object({
  ...success,
  sessionId: z.string(),
  createdAt: ZIsoDateTimeSchema,
  expiresAt: ZIsoDateTimeSchema,
});
export type TAnonymousSessionResponse = z.infer<typeof ZAnonymousSessionResponseSchema>;

/** One project in GET /api/projects/anonymous/{sessionId} (companion spec 'Project' plus what a card needs). */
export const ZAnonymousProjectSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  slug: z.string(),
  url: z.string(),
  status: z.enum(['building', 'live', 'failed']),
  created_at: ZIsoDateTimeSchema,
  expires_at: ZIsoDateTimeSchema.nullable(),
  has_password: z.boolean(),
  settings: z.object({ enable_favorites: z.boolean(), enable_comments: z.boolean(), enable_approvals: z.boolean() }),
  favorites_count: z.number().int().nonnegative(),
  comments_count: z.number().int().nonnegative(),
  approvals_count: z.number().int().nonnegative(),
  views_count: z.number().int().nonnegative(),
});
export type TAnonymousProject = z.infer<typeof ZAnonymousProjectSchema>;
export const ZAnonymousProjectsResponseSchema = z.object({ ...success, projects: z.array(ZAnonymousProjectSchema) });
export type TAnonymousProjectsResponse = z.infer<typeof ZAnonymousProjectsResponseSchema>;

/** Spec 3 'Engagement summary'. */
export const ZEngagementSummarySchema = z.object({
  /** Favourites, comments and approvals on all of the session's sites. */
  total_interactions: z.number().int().nonnegative(),
  has_comments: z.boolean(),
  has_favorites: z.boolean(),
  has_approvals: z.boolean(),
  /** Whole days left of the 7-day window, rounded up; 0 once expired. */
  days_remaining: z.number().int().nonnegative(),
  expired: z.boolean(),
});
export type TEngagementSummary = z.infer<typeof ZEngagementSummarySchema>;
/** GET /api/engagement/anonymous/{sessionId}: the summary's fields at the top level. */
export const ZEngagementSummaryResponseSchema = ZEngagementSummarySchema.extend(success);
export type TEngagementSummaryResponse = z.infer<typeof ZEngagementSummaryResponseSchema>;

/** Spec 3 'Engagement update', with an id to de-duplicate across polls and its times. */
export const ZEngagementUpdateSchema = z.object({
  id: z.string(),
  type: ZNotificationTypeSchema,
  project_id: z.string().nullable(),
  message: z.string(),
  cta_text: z.string(),
  urgency_level: ZUrgencyLevelSchema,
  created_at: ZIsoDateTimeSchema,
  /** Set on expiration warnings: drop the entry after this. */
  expires_at: ZIsoDateTimeSchema.nullable(),
});
export type TEngagementUpdate = z.infer<typeof ZEngagementUpdateSchema>;
/** `since` (ISO date-time or epoch ms) limits the answer to updates created after it. */
export const ZEngagementUpdatesQuerySchema = z.object({ since: z.string().max(64).optional() });
/** GET /api/engagement/anonymous/{sessionId}/updates: newest first, at most NOTIFICATIONS_KEPT. */
export const ZEngagementUpdatesResponseSchema = z.object({ ...success, updates: z.array(ZEngagementUpdateSchema) });
export type TEngagementUpdatesResponse = z.infer<typeof ZEngagementUpdatesResponseSchema>;

/** Spec 3 'Local notification': what the bell keeps in browser storage. */
export const ZLocalNotificationSchema = z.object({
  id: z.string(),
  type: ZNotificationTypeSchema,
  message: z.string(),
  ctaText: z.string(),
  /** Epoch ms. */
  timestamp: z.number(),
  isRead: z.boolean(),
  urgencyLevel: ZUrgencyLevelSchema,
  /** Epoch ms, or null for entries that do not expire. */
  expiresAt: z.number().nullable(),
});
export type TLocalNotification = z.infer<typeof ZLocalNotificationSchema>;

// ---- POST /api/email-collection (spec 7.2)

export const ZEmailCollectionRequestSchema = z.object({
  email: z.string().trim().refine(isValidEmailAddress, 'Please enter a valid email address'),
  trigger: ZEmailTriggerSchema,
  projectId: ZEntityIdSchema.nullish(),
  anonymousSessionId: z.string().max(200).nullish(),
  timestamp: z.union([z.number(), z.string().max(64)]).nullish(),
});
export type TEmailCollectionRequest = z.input<typeof ZEmailCollectionRequestSchema>;
/**
 * What was mailed: `sign_in_link` (a link that signs in, and adds this browser's sites when the
 * address was confirmed for them), `confirmation` (the address is confirmed first; the sign-in link
 * that adds the sites follows the confirmation), or nothing (`none`, already signed in).
 */
export const ZEmailCollectionResponseSchema = z.object({ ...success, sent: z.enum(['sign_in_link', 'confirmation', 'none']) });
export type TEmailCollectionResponse = z.infer<typeof ZEmailCollectionResponseSchema>;

/** The plain `{ success: true }` of calls whose answer carries nothing else. */
export const ZOkResponseSchema = z.object(success);
