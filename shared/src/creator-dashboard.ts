/**
 * The signed-in creator's dashboard reads (issue 11's contract; spec 'pages-dashboard-billing' 2,
 * 3 and 7.2-7.4): the project list, a project's details, the daily chart, the live activity and the
 * creator's reply to a comment. The server shapes its replies with these; the dashboard parses them.
 */
import { z } from 'zod';
import { ZCreatorPublicSchema } from './accounts.ts';
import { ZActivitySchema, ZAnonymousProjectSchema, ZApprovalCountsSchema, ZApprovalStatusSchema, ZIsoDateTimeSchema } from './engagement.ts';

const success = { success: z.literal(true) };
const ZCountSchema = z.number().int().nonnegative();

/** The chart's ranges, in days. */
export const DAILY_RANGES = ['7', '30', '90'] as const;
/** Comment threads a project's details carry per file, newest; the file's `totals.comments` counts them all. */
export const DETAILS_COMMENT_THREADS_PER_FILE = 10;
/** Favourites and approvals a project's details carry per file, newest; `totals` counts them all. */
export const DETAILS_ENTRIES_PER_FILE = 20;
/** Activities one live-update poll answers at most, newest first. */
export const ACTIVITY_POLL_LIMIT = 50;
/** How often the dashboard asks for new activity. */
export const ACTIVITY_POLL_MS = 15_000;

// ---- GET /api/creators/me/projects, GET /api/creators/projects/{creatorId}

/** A project card: the anonymous project's fields plus what the signed-in creator sees of it. */
export const ZCreatorProjectSchema = ZAnonymousProjectSchema.extend({
  template: z.string(),
  /** The first file's 300 px thumbnail on our origin, or null (none derived, or the site is locked or expired). */
  thumbnail_url: z.string().nullable(),
  downloads_count: ZCountSchema,
  file_count: ZCountSchema,
  /** Approvals given (a request for changes is not one). */
  approved_count: ZCountSchema,
  /** Requests for changes. */
  changes_requested_count: ZCountSchema,
  /** Files no one has approved or asked changes of yet. */
  unreviewed_files_count: ZCountSchema,
  /** Who in the workspace published it; null when the account is gone (or it was published before signing in and claimed by no one named). */
  publishedBy: z.object({ name: z.string() }).nullable().default(null),
});
export type TCreatorProject = z.infer<typeof ZCreatorProjectSchema>;
/** Newest first. */
export const ZCreatorProjectsResponseSchema = z.object({ ...success, creator: ZCreatorPublicSchema, projects: z.array(ZCreatorProjectSchema) });
export type TCreatorProjectsResponse = z.infer<typeof ZCreatorProjectsResponseSchema>;

// ---- GET /api/projects/{id}/details (spec 3 'Project details')

export const ZDetailsFavoriteSchema = z.object({
  id: z.string(),
  /** The name the visitor gave then; 'User' and the last 4 characters of their id when they gave none. */
  userName: z.string(),
  /** The address the visitor chose to show the creator then; empty when they gave none. */
  userEmail: z.string(),
  createdAt: ZIsoDateTimeSchema,
});
const ZDetailsCommentBaseSchema = z.object({
  id: z.string(),
  userName: z.string(),
  /** As for favourites (always empty on the creator's replies). */
  userEmail: z.string(),
  /** Plain text: shown as text, never as HTML. */
  commentText: z.string(),
  createdAt: ZIsoDateTimeSchema,
  /** A reply the site's creator wrote from the dashboard. */
  isCreator: z.boolean(),
});
export const ZDetailsCommentReplySchema = ZDetailsCommentBaseSchema.extend({ replies: z.array(z.never()) });
export type TDetailsCommentReply = z.infer<typeof ZDetailsCommentReplySchema>;
/** A thread: its first comment and every reply, oldest first. */
export const ZDetailsCommentSchema = ZDetailsCommentBaseSchema.extend({ replies: z.array(ZDetailsCommentReplySchema) });
export type TDetailsComment = z.infer<typeof ZDetailsCommentSchema>;
export const ZDetailsApprovalSchema = z.object({
  id: z.string(),
  status: ZApprovalStatusSchema,
  userName: z.string(),
  /** As for favourites; absent from older answers. */
  userEmail: z.string().optional(),
  createdAt: ZIsoDateTimeSchema,
});

export const ZProjectFileDetailsSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  kind: z.string(),
  size: ZCountSchema,
  uploadedAt: ZIsoDateTimeSchema,
  thumbnailUrl: z.string().nullable(),
  /** The folder the creator dropped the file in; null (or absent) for none. */
  group: z.string().nullable().optional(),
  /** The newest DETAILS_ENTRIES_PER_FILE, newest first. */
  favorites: z.array(ZDetailsFavoriteSchema),
  /** The newest DETAILS_COMMENT_THREADS_PER_FILE threads, oldest first, each with all its replies. */
  comments: z.array(ZDetailsCommentSchema),
  /** The newest DETAILS_ENTRIES_PER_FILE, newest first. */
  approvals: z.array(ZDetailsApprovalSchema),
  /** Everything on the file, whatever the lists above carry. */
  totals: z.object({ favorites: ZCountSchema, comments: ZCountSchema, approvals: ZApprovalCountsSchema }),
  analytics: z.object({ views: ZCountSchema, downloads: ZCountSchema }),
});
export type TProjectFileDetails = z.infer<typeof ZProjectFileDetailsSchema>;

export const ZProjectDetailsSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  created_at: ZIsoDateTimeSchema,
  slug: z.string(),
  url: z.string(),
  totals: z.object({
    totalFiles: ZCountSchema,
    uniqueUsers: ZCountSchema,
    totalFavorites: ZCountSchema,
    totalComments: ZCountSchema,
    totalViews: ZCountSchema,
    totalDownloads: ZCountSchema,
    totalApprovals: ZApprovalCountsSchema,
  }),
  files: z.array(ZProjectFileDetailsSchema),
});
export type TProjectDetails = z.infer<typeof ZProjectDetailsSchema>;
export const ZProjectDetailsResponseSchema = z.object({ ...success, project: ZProjectDetailsSchema });
export type TProjectDetailsResponse = z.infer<typeof ZProjectDetailsResponseSchema>;

// ---- GET /api/projects/{id}/files/{fileId}/comments[?before=<thread id>]: the threads details leave out

export const ZFileCommentsQuerySchema = z.object({ before: z.string().max(64).optional() });
export const ZFileCommentsResponseSchema = z.object({
  ...success,
  /** DETAILS_COMMENT_THREADS_PER_FILE threads older than `before` (the newest without it), oldest first, each with all its replies. */
  comments: z.array(ZDetailsCommentSchema),
  /** Whether older threads remain: ask again with the first thread's id as `before`. */
  hasMore: z.boolean(),
});
export type TFileCommentsResponse = z.infer<typeof ZFileCommentsResponseSchema>;

// ---- GET /api/projects/{id}/analytics/daily?days=7|30|90[&fileId=]

export const ZDailyAnalyticsQuerySchema = z.object({
  days: z.enum(DAILY_RANGES).default('30'),
  fileId: z.string().max(64).optional(),
});
export const ZDailyPointSchema = z.object({
  /** A UTC day, YYYY-MM-DD. */
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  views: ZCountSchema,
  uniqueVisitors: ZCountSchema,
  downloads: ZCountSchema,
});
export type TDailyPoint = z.infer<typeof ZDailyPointSchema>;
export const ZDailyAnalyticsResponseSchema = z.object({
  ...success,
  /** Every day of the range, oldest first, today (UTC) last; days without traffic are zeros. */
  days: z.array(ZDailyPointSchema),
  /** The range as a whole: its views, downloads and distinct visitors (not the sum of each day's). */
  totals: z.object({ views: ZCountSchema, uniqueVisitors: ZCountSchema, downloads: ZCountSchema }),
});
export type TDailyAnalyticsResponse = z.infer<typeof ZDailyAnalyticsResponseSchema>;

// ---- GET /api/projects/{id}/activity?since=<ISO>

export const ZActivityQuerySchema = z.object({ since: z.string().max(64).optional() });
export const ZActivityResponseSchema = z.object({
  ...success,
  /** Newer than `since`, newest first, at most ACTIVITY_POLL_LIMIT. */
  activity: z.array(ZActivitySchema),
  /** The server's time of this answer: the next poll's `since`. */
  now: ZIsoDateTimeSchema,
});
export type TActivityResponse = z.infer<typeof ZActivityResponseSchema>;

// ---- POST /api/projects/{id}/comments/{commentId}/replies

/** The text is checked as a visitor's comment is (blank 400, more than COMMENT_MAX_CHARS characters 413). */
export const ZCreatorReplyRequestSchema = z.object({ text: z.string() });
export const ZCreatorReplyResponseSchema = z.object({ ...success, comment: ZDetailsCommentReplySchema });
export type TCreatorReplyResponse = z.infer<typeof ZCreatorReplyResponseSchema>;
