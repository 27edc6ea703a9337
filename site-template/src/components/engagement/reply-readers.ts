/**
 * Readers for the engagement replies, typed with the schemas' types from @dropsite/shared.
 *
 * Why not the zod schemas themselves: importing anything at runtime from @dropsite/shared puts
 * zod and every schema of the product into a visitor's phone download (about 25 KB gzip, three
 * times these controls). The types are imported for free, so a field the schemas add or rename
 * breaks this file's compilation; engagement-logic.test.ts checks these readers against the
 * schemas on real-shaped replies. Constants and rules needed at runtime are mirrored below and
 * the same test holds them equal to shared's.
 */
import type {
  TApprovalResponse,
  TApprovalStatus,
  TCommentReply,
  TCommentsResponse,
  TEngagementStateResponse,
  TFavoriteResponse,
  TVisitorProfile,
  TVisitorProfileResponse,
} from '@dropsite/shared';

/** shared COMMENT_LIST_HEIGHT_PX (spec 9). */
export const COMMENT_LIST_HEIGHT = 240;
/** shared COMMENT_MAX_CHARS. */
export const COMMENT_MAX_LENGTH = 5000;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** shared findCommentTextProblem(text) === null: non-blank after trimming, no NUL or lone surrogate, at most 5,000 characters. */
export function isCommentTextSendable(text: string): boolean {
  if (text.trim() === '' || text.includes('\u0000') || LONE_SURROGATE.test(text)) return false;
  let count = 0;
  for (const _ of text) if (++count > COMMENT_MAX_LENGTH) return false;
  return true;
}

/** shared VISITOR_NAME_MAX_CHARS. */
export const VISITOR_NAME_MAX_LENGTH = 60;

/** What shared findVisitorNameProblem refuses besides length: control characters and invisible direction marks. */
const UNSAFE_IN_NAME = /[\p{Cc}\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/u;

/** shared findVisitorNameProblem(name.trim()), as the words the name prompt shows; null when the name may be sent. */
export function visitorNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'Please enter your name.';
  if (UNSAFE_IN_NAME.test(trimmed) || LONE_SURROGATE.test(trimmed)) return 'The name contains characters that cannot be used.';
  if ([...trimmed].length > VISITOR_NAME_MAX_LENGTH) return `Names can be at most ${VISITOR_NAME_MAX_LENGTH} characters.`;
  return null;
}

/** shared isValidVisitorEmail(email.trim()), or an empty address (none given). */
export function isVisitorEmailSendable(email: string): boolean {
  const trimmed = email.trim();
  if (trimmed === '') return true;
  return trimmed.length <= 320 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed) && !UNSAFE_IN_NAME.test(trimmed) && !LONE_SURROGATE.test(trimmed);
}

/** shared visitorDisplayName: 'User' and the last 4 characters of a visitor id. */
export function formatVisitorName(visitorKey: string): string {
  const tail = visitorKey.slice(-4);
  return tail ? `User ${tail}` : 'User';
}

export class ReplyShapeError extends Error {
  constructor(where: string) {
    super(`Unexpected reply from the server (${where})`);
    this.name = 'ReplyShapeError';
  }
}

type TRecord = Record<string, unknown>;

function record(value: unknown, where: string): TRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ReplyShapeError(where);
  return value as TRecord;
}

function text(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new ReplyShapeError(where);
  return value;
}

function flag(value: unknown, where: string): boolean {
  if (typeof value !== 'boolean') throw new ReplyShapeError(where);
  return value;
}

function count(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new ReplyShapeError(where);
  return value;
}

function list(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw new ReplyShapeError(where);
  return value;
}

function succeeded(value: unknown, where: string): TRecord {
  const reply = record(value, where);
  if (reply.success !== true) throw new ReplyShapeError(where);
  return reply;
}

const STATUSES: readonly TApprovalStatus[] = ['pending', 'approved', 'rejected'];

function approvalStatus(value: unknown, where: string): TApprovalStatus {
  const status = STATUSES.find((s) => s === value);
  if (!status) throw new ReplyShapeError(where);
  return status;
}

function readComment(value: unknown): TCommentReply {
  const c = record(value, 'comment');
  return {
    id: text(c.id, 'comment.id'),
    fileId: text(c.fileId, 'comment.fileId'),
    parentId: c.parentId === null ? null : text(c.parentId, 'comment.parentId'),
    userName: text(c.userName, 'comment.userName'),
    commentText: text(c.commentText, 'comment.commentText'),
    createdAt: text(c.createdAt, 'comment.createdAt'),
    isOwn: flag(c.isOwn, 'comment.isOwn'),
    isCreator: flag(c.isCreator, 'comment.isCreator'),
  };
}

export function readCommentsResponse(json: unknown): TCommentsResponse {
  const reply = succeeded(json, 'comments');
  return {
    success: true,
    total: count(reply.total, 'comments.total'),
    comments: list(reply.comments, 'comments.comments').map((value) => ({
      ...readComment(value),
      replies: list(record(value, 'comment').replies, 'comment.replies').map(readComment),
    })),
  };
}

export function readEngagementState(json: unknown): TEngagementStateResponse {
  const reply = succeeded(json, 'state');
  const visitor = record(reply.visitor, 'state.visitor');
  const features = record(reply.features, 'state.features');
  const counts = record(reply.commentCounts, 'state.commentCounts');
  return {
    success: true,
    visitor: readVisitor(visitor, 'state.visitor'),
    features: {
      favorites: flag(features.favorites, 'features.favorites'),
      comments: flag(features.comments, 'features.comments'),
      approvals: flag(features.approvals, 'features.approvals'),
      analytics: flag(features.analytics, 'features.analytics'),
    },
    favorites: list(reply.favorites, 'state.favorites').map((id) => text(id, 'state.favorites[]')),
    approvals: list(reply.approvals, 'state.approvals').map((value) => {
      const a = record(value, 'state.approvals[]');
      return { fileId: text(a.fileId, 'approval.fileId'), status: approvalStatus(a.status, 'approval.status') };
    }),
    commentCounts: Object.fromEntries(Object.entries(counts).map(([fileId, n]) => [fileId, count(n, 'state.commentCounts[]')])),
  };
}

function readVisitor(visitor: TRecord, where: string): TVisitorProfile {
  return {
    name: text(visitor.name, `${where}.name`),
    hasName: flag(visitor.hasName, `${where}.hasName`),
    email: visitor.email === null ? null : text(visitor.email, `${where}.email`),
  };
}

/** PUT /api/visitor/profile's answer: the visitor as the site now names them. */
export function readVisitorProfileResponse(json: unknown): TVisitorProfileResponse {
  const reply = succeeded(json, 'profile');
  return { success: true, visitor: readVisitor(record(reply.visitor, 'profile.visitor'), 'profile.visitor') };
}

export function readFavoriteResponse(json: unknown): TFavoriteResponse {
  const reply = succeeded(json, 'favorite');
  return {
    success: true,
    fileId: text(reply.fileId, 'favorite.fileId'),
    isFavorite: flag(reply.isFavorite, 'favorite.isFavorite'),
    favoritesCount: count(reply.favoritesCount, 'favorite.favoritesCount'),
  };
}

export function readApprovalResponse(json: unknown): TApprovalResponse {
  const reply = succeeded(json, 'approval');
  return {
    success: true,
    fileId: text(reply.fileId, 'approval.fileId'),
    status: approvalStatus(reply.status, 'approval.status'),
    updatedAt: text(reply.updatedAt, 'approval.updatedAt'),
  };
}

/** The created comment of POST /api/comments (its reply carries `{ success, comment }`). */
export function readCreatedComment(json: unknown): TCommentReply {
  const reply = succeeded(json, 'created comment');
  return readComment(reply.comment);
}
