/**
 * The comments panel as a state machine (pure): the list (loaded when the panel opens; a failed
 * load is an error with Retry, never sample comments) and the draft in the text box (a post that
 * failed stays in the box marked 'not sent' until it is retried or edited; nothing is lost).
 */
import type { TShownComment } from './comment-model.ts';
import { isCommentTextSendable } from './reply-readers.ts';

export type TCommentList =
  | { status: 'idle' }
  /** `previous` keeps the comments on screen while they reload after a post. */
  | { status: 'loading'; previous: TShownComment[] | null }
  | { status: 'loaded'; comments: TShownComment[] }
  | { status: 'error'; previous: TShownComment[] | null };

export interface TReplyTarget {
  /** The thread the reply joins (its top-level comment). */
  threadId: string;
  author: string;
}

export interface TCommentDraft {
  text: string;
  replyTo: TReplyTarget | null;
  status: 'editing' | 'sending' | 'not-sent';
}

export interface TCommentsState {
  list: TCommentList;
  draft: TCommentDraft;
}

export type TCommentsAction =
  | { type: 'load-started' }
  | { type: 'load-succeeded'; comments: TShownComment[] }
  | { type: 'load-failed' }
  | { type: 'draft-changed'; text: string }
  | { type: 'reply-started'; to: TReplyTarget }
  | { type: 'reply-cancelled' }
  | { type: 'post-started' }
  | { type: 'post-succeeded' }
  | { type: 'post-failed' };

export const INITIAL_COMMENTS_STATE: TCommentsState = {
  list: { status: 'idle' },
  draft: { text: '', replyTo: null, status: 'editing' },
};

/** The comments on screen in any list state. */
export function visibleComments(list: TCommentList): TShownComment[] | null {
  if (list.status === 'loaded') return list.comments;
  if (list.status === 'loading' || list.status === 'error') return list.previous;
  return null;
}

/** Spec 5: the text must be non-blank after trimming (and within the server's rule), and no send may be in progress. */
export function canSubmitDraft(draft: TCommentDraft): boolean {
  return isCommentTextSendable(draft.text) && draft.status !== 'sending';
}

export function reduceComments(state: TCommentsState, action: TCommentsAction): TCommentsState {
  switch (action.type) {
    case 'load-started':
      return { ...state, list: { status: 'loading', previous: visibleComments(state.list) } };
    case 'load-succeeded':
      return { ...state, list: { status: 'loaded', comments: action.comments } };
    case 'load-failed':
      return { ...state, list: { status: 'error', previous: visibleComments(state.list) } };
    case 'draft-changed':
      // Editing while a send runs would change what is being sent behind the visitor's back.
      if (state.draft.status === 'sending') return state;
      return { ...state, draft: { ...state.draft, text: action.text, status: 'editing' } };
    case 'reply-started':
      if (state.draft.status === 'sending') return state;
      return { ...state, draft: { ...state.draft, replyTo: action.to } };
    case 'reply-cancelled':
      if (state.draft.status === 'sending') return state;
      return { ...state, draft: { ...state.draft, replyTo: null } };
    case 'post-started':
      if (!canSubmitDraft(state.draft)) return state;
      return { ...state, draft: { ...state.draft, status: 'sending' } };
    case 'post-succeeded':
      if (state.draft.status !== 'sending') return state;
      return { ...state, draft: { text: '', replyTo: null, status: 'editing' } };
    case 'post-failed':
      if (state.draft.status !== 'sending') return state;
      return { ...state, draft: { ...state.draft, status: 'not-sent' } };
  }
}
