/**
 * The visitor's engagement calls (spec 7.1, docs/api.md), typed with the schemas' types from
 * @dropsite/shared and checked by reply-readers.ts. The server knows the visitor by the HttpOnly
 * cookie it issued; the userEmail and userName sent are informational. Every function resolves
 * with the server's answer or throws `ApiRequestError`; nothing is retried here (the
 * controls offer Retry).
 */
import { ApiRequestError, callApi } from '@dropsite/shared/browser/api-client';
import type { TApprovalRequest, TApprovalStatus, TCreateCommentRequest, TFavoriteRequest, TVisitorProfile, TVisitorProfileRequest } from '@dropsite/shared';
import { toShownComment, type TShownComment } from './comment-model.ts';
import { fetchInOrder } from './first-call.ts';
import {
  ReplyShapeError,
  readApprovalResponse,
  readCommentsResponse,
  readCreatedComment,
  readEngagementState,
  readFavoriteResponse,
  readVisitorProfileResponse,
} from './reply-readers.ts';

export type { TApprovalStatus, TVisitorProfile };

function request(method: string, path: string, body?: unknown): Promise<unknown> {
  return callApi(path, { method, body }, fetchInOrder);
}

/** Reads a reply; a reply of the wrong shape is a failed request like any other. */
function parseReply<T>(read: (json: unknown) => T, json: unknown): T {
  try {
    return read(json);
  } catch (err) {
    if (err instanceof ReplyShapeError) throw new ApiRequestError(err.message, 502);
    throw err;
  }
}

export interface TEngagementTarget {
  projectId: string;
  fileId: string;
}

export interface TVisitorEngagement {
  /** The name the visitor gave (else 'User' and the last 4 characters of their id), as the server names them. */
  visitor: TVisitorProfile;
  favorites: Set<string>;
  approvals: Map<string, TApprovalStatus>;
  commentCounts: Map<string, number>;
}

/** GET /api/engagement/state: the visitor's own favourites and approvals, so a returning visitor sees them. */
export async function fetchVisitorEngagement(projectId: string): Promise<TVisitorEngagement> {
  const json = await request('GET', `/api/engagement/state?projectId=${encodeURIComponent(projectId)}`);
  const reply = parseReply(readEngagementState, json);
  return {
    visitor: reply.visitor,
    favorites: new Set(reply.favorites),
    approvals: new Map(reply.approvals.map((a) => [a.fileId, a.status])),
    commentCounts: new Map(Object.entries(reply.commentCounts)),
  };
}

/** PUT /api/visitor/profile: the visitor's name and optional address (empty: none); answers how the site now names them. */
export async function saveVisitorProfile(name: string, email: string): Promise<TVisitorProfile> {
  const body: TVisitorProfileRequest = { name: name.trim(), email: email.trim() };
  const json = await request('PUT', '/api/visitor/profile', body);
  return parseReply(readVisitorProfileResponse, json).visitor;
}

/** POST (on) or DELETE (off) /api/favorites; answers the visitor's state after the call. */
export async function saveFavorite(target: TEngagementTarget, isFavorite: boolean): Promise<boolean> {
  const body: TFavoriteRequest = { ...target, userEmail: '', userName: '' };
  const json = await request(isFavorite ? 'POST' : 'DELETE', '/api/favorites', body);
  return parseReply(readFavoriteResponse, json).isFavorite;
}

/** POST /api/approvals; answers the status the server stored. */
export async function saveApproval(target: TEngagementTarget, status: TApprovalStatus): Promise<TApprovalStatus> {
  const body: TApprovalRequest = { ...target, userEmail: '', userName: '', status };
  const json = await request('POST', '/api/approvals', body);
  return parseReply(readApprovalResponse, json).status;
}

/** GET /api/comments: every comment on the file, flattened (replies carry their thread's id). */
export async function fetchComments(target: TEngagementTarget): Promise<TShownComment[]> {
  const query = new URLSearchParams({ projectId: target.projectId, fileId: target.fileId });
  const json = await request('GET', `/api/comments?${query}`);
  const reply = parseReply(readCommentsResponse, json);
  return reply.comments
    .flatMap((c) => [c, ...c.replies])
    .map((c) =>
      toShownComment({
        id: c.id,
        parentId: c.parentId,
        userName: c.userName,
        userKey: '',
        content: c.commentText,
        timestamp: Date.parse(c.createdAt) || 0,
        isOwn: c.isOwn,
        isCreator: c.isCreator,
      }),
    );
}

/** POST /api/comments; `threadId` is the comment answered, null for a new thread. */
export async function postComment(target: TEngagementTarget, commentText: string, threadId: string | null): Promise<void> {
  const body: TCreateCommentRequest = { ...target, threadId, userEmail: '', userName: '', commentText };
  const json = await request('POST', '/api/comments', body);
  parseReply(readCreatedComment, json);
}
