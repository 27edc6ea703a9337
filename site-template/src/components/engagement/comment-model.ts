/**
 * Comments as the panel shows them (spec 3 'Comment as shown'): pure functions, no I/O, so the
 * rules are tested without a browser. Everything here ends up as React text, never as HTML.
 */
import { formatVisitorName } from './reply-readers.ts';

export interface TShownComment {
  id: string;
  /** The comment this one answers (its thread), or null for a top-level comment. */
  parentId: string | null;
  author: string;
  /** First two letters of the author's name, or 'U'. */
  avatar: string;
  content: string;
  /** Epoch milliseconds. */
  timestamp: number;
  /** Written by the visitor looking at it. */
  isOwn: boolean;
  /** The site's creator's reply (labelled so, under the site's author name when there is one). */
  isCreator: boolean;
}

export interface TCommentThread {
  comment: TShownComment;
  replies: TShownComment[];
}

/** What the panel needs from a comment the server sent, whatever its field spelling. */
export interface TCommentSource {
  id: string;
  parentId: string | null;
  userName: string;
  /** The visitor id the spec sends as `userEmail`; only its last four characters are ever shown. */
  userKey: string;
  content: string;
  timestamp: number;
  isOwn: boolean;
  isCreator: boolean;
}

const GENERATED_NAME = /^User\s?[\w-]{0,4}$/;

/** The name shown for a comment's author: their name, else 'User' and the last 4 characters of their id. */
export function resolveAuthorName(userName: string, userKey: string): string {
  const name = userName.replace(/\s+/g, ' ').trim();
  return name || formatVisitorName(userKey.trim());
}

/**
 * The avatar letters: the first two letters of a chosen name, upper-cased; 'U' when the visitor
 * has no name of their own (a generated 'User 1a2b' name says nothing about the person).
 */
export function resolveAvatar(author: string): string {
  const name = author.trim();
  if (!name || GENERATED_NAME.test(name)) return 'U';
  const letters = Array.from(name.replace(/[^\p{L}\p{N}]/gu, ''));
  const initials = letters.slice(0, 2).join('');
  return initials ? initials.toLocaleUpperCase() : 'U';
}

export function toShownComment(source: TCommentSource): TShownComment {
  const author = resolveAuthorName(source.userName, source.userKey);
  return {
    id: source.id,
    parentId: source.parentId,
    author,
    avatar: resolveAvatar(author),
    content: source.content,
    timestamp: source.timestamp,
    isOwn: source.isOwn,
    isCreator: source.isCreator,
  };
}

/**
 * Groups comments into threads, oldest first, replies under their thread's first comment.
 * A reply to a reply joins the thread of its root; a reply whose parent is gone stands alone.
 */
export function buildThreads(comments: readonly TShownComment[]): TCommentThread[] {
  const sorted = [...comments].sort((a, b) => a.timestamp - b.timestamp || a.id.localeCompare(b.id));
  const byId = new Map(sorted.map((c) => [c.id, c]));
  const rootOf = (comment: TShownComment): string => {
    const seen = new Set<string>();
    let current = comment;
    while (current.parentId && byId.has(current.parentId) && !seen.has(current.id)) {
      seen.add(current.id);
      current = byId.get(current.parentId)!;
    }
    return current.id;
  };
  const threads = new Map<string, TCommentThread>();
  for (const comment of sorted) {
    const root = rootOf(comment);
    if (root === comment.id) threads.set(comment.id, { comment, replies: [] });
  }
  for (const comment of sorted) {
    const root = rootOf(comment);
    if (root !== comment.id) threads.get(root)?.replies.push(comment);
  }
  return [...threads.values()];
}
