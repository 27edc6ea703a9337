/**
 * The comments of one file: loaded when the panel opens, shown as text in a 240 px scroll area
 * with replies under their thread, and a text box whose failed posts stay in it marked 'not sent'.
 * The text box outlives the panel (draft-memory.ts): closing it mid-send loses nothing.
 */
import { useCallback, useEffect, useId, useReducer, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { formatCommentTime } from '@dropsite/shared/browser/relative-time';
import { buildThreads, type TShownComment } from './comment-model.ts';
import { INITIAL_COMMENTS_STATE, canSubmitDraft, reduceComments, visibleComments, type TCommentsState } from './comments-state.ts';
import { draftMemory } from './draft-memory.ts';
import { fetchComments, postComment, type TEngagementTarget } from './engagement-api.ts';
import { CloseIcon, ReplyIcon, SendIcon } from './icons.tsx';
import { COMMENT_LIST_HEIGHT, COMMENT_MAX_LENGTH } from './reply-readers.ts';

/** The badge of the creator's replies (their name is the site's author name, or this word itself). */
const CREATOR_LABEL = 'Creator';

interface TCommentsPanelProps {
  target: TEngagementTarget;
  fileName: string;
  id: string;
  /** The name the visitor gave, shown under the text box with 'Change'; empty until they give one. */
  visitorName: string;
  /** Opens the name prompt to change the name. */
  onChangeName: () => void;
  /** Resolves true once the visitor has a name (asking for it first when needed), false when they decline. */
  ensureNamed: () => Promise<boolean>;
  /** In the wizard's preview nothing is loaded or sent. */
  isPreview: boolean;
  /** Speaks a short confirmation to screen readers. */
  announce: (message: string) => void;
  onCountChange?: (count: number) => void;
  /** A comment was stored (called even if the panel has closed meanwhile). */
  onPosted?: () => void;
}

export function CommentsPanel({ target, fileName, id, visitorName, onChangeName, ensureNamed, isPreview, announce, onCountChange, onPosted }: TCommentsPanelProps) {
  const memoryKey = `${target.projectId}/${target.fileId}`;
  const [state, dispatch] = useReducer(reduceComments, memoryKey, (key): TCommentsState => ({ ...INITIAL_COMMENTS_STATE, draft: draftMemory.read(key) }));
  const isMounted = useRef(true);
  const [now, setNow] = useState(() => Date.now());
  const textareaId = useId();
  const statusId = useId();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const loadSeq = useRef(0);
  const scrollToEnd = useRef(false);
  const { projectId, fileId } = target;

  const load = useCallback(async () => {
    const seq = ++loadSeq.current;
    if (isPreview) return dispatch({ type: 'load-succeeded', comments: [] });
    dispatch({ type: 'load-started' });
    try {
      const comments = await fetchComments({ projectId, fileId });
      if (seq !== loadSeq.current) return;
      setNow(Date.now());
      dispatch({ type: 'load-succeeded', comments });
    } catch {
      if (seq === loadSeq.current) dispatch({ type: 'load-failed' });
    }
  }, [projectId, fileId, isPreview]);

  useEffect(() => {
    void load();
    return () => {
      loadSeq.current++;
    };
  }, [load]);

  useEffect(() => {
    isMounted.current = true;
    return () => {
      isMounted.current = false;
    };
  }, []);

  useEffect(() => {
    draftMemory.save(memoryKey, state.draft);
  }, [memoryKey, state.draft]);

  // Opened again while an earlier send is still on its way: show how it ends.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only for the state restored at mount; sends started here are followed by send() itself
  useEffect(() => {
    if (state.draft.status !== 'sending') return;
    const pending = draftMemory.pending(memoryKey);
    if (!pending) {
      dispatch({ type: 'post-failed' });
      return;
    }
    void pending.then((isSent) => {
      if (!isMounted.current) return;
      dispatch({ type: isSent ? 'post-succeeded' : 'post-failed' });
      if (isSent) void load();
    });
  }, []);

  const comments = visibleComments(state.list);
  const count = comments?.length ?? null;
  useEffect(() => {
    if (count !== null) onCountChange?.(count);
  }, [count, onCountChange]);

  useEffect(() => {
    if (state.list.status === 'loaded' && scrollToEnd.current && list.current) {
      scrollToEnd.current = false;
      list.current.scrollTop = list.current.scrollHeight;
    }
  }, [state.list]);

  const { draft } = state;
  const canSubmit = canSubmitDraft(draft) && !isPreview;

  const send = async () => {
    if (!canSubmit) return;
    // The first comment waits for the visitor's name; the text stays in the box meanwhile (and if they decline).
    if (!(await ensureNamed()) || !isMounted.current) return;
    const text = draft.text.trim();
    const threadId = draft.replyTo?.threadId ?? null;
    dispatch({ type: 'post-started' });
    const isSent = await draftMemory.track(memoryKey, draft, postComment({ projectId, fileId }, text, threadId), () => onPosted?.());
    if (!isMounted.current) return;
    if (!isSent) {
      dispatch({ type: 'post-failed' });
      return;
    }
    dispatch({ type: 'post-succeeded' });
    // The submit button disables with the emptied box; keep the visitor's place in the text box.
    textarea.current?.focus();
    announce(threadId ? 'Reply posted' : 'Comment posted');
    scrollToEnd.current = threadId === null;
    void load();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      void send();
    }
    if (event.key === 'Escape' && draft.replyTo) {
      event.preventDefault();
      event.stopPropagation();
      dispatch({ type: 'reply-cancelled' });
    }
  };

  const startReply = (comment: TShownComment, threadId: string) => {
    dispatch({ type: 'reply-started', to: { threadId, author: comment.author } });
    textarea.current?.focus();
  };

  const threads = comments ? buildThreads(comments) : [];
  const isSending = draft.status === 'sending';

  return (
    <section id={id} className="engagement-comments" aria-label={`Comments on ${fileName}`}>
      {state.list.status === 'error' && (
        <div className="engagement-comments__error" role="alert">
          <span>Couldn’t load the comments.</span>
          <button type="button" className="engagement-link-button" onClick={() => void load()}>
            Retry
          </button>
        </div>
      )}

      {comments === null && state.list.status !== 'error' && (
        <div className="engagement-comments__loading" role="status">
          <span className="engagement-skeleton" aria-hidden="true" />
          <span className="engagement-skeleton engagement-skeleton--short" aria-hidden="true" />
          <span className="visually-hidden">Loading comments…</span>
        </div>
      )}

      {comments !== null && (
        <div
          ref={list}
          className="engagement-comments__list"
          style={{ maxHeight: COMMENT_LIST_HEIGHT }}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the list scrolls on its own, so it takes focus for keyboard scrolling
          tabIndex={0}
          role="region"
          aria-label="Comment list"
          aria-busy={state.list.status === 'loading'}
        >
          {threads.length === 0 ? (
            <p className="engagement-comments__empty">{isPreview ? 'Comments from your visitors will appear here.' : 'No comments yet. Be the first to share your thoughts.'}</p>
          ) : (
            <ol className="engagement-thread-list">
              {threads.map((thread) => (
                <li key={thread.comment.id} className="engagement-thread">
                  <CommentItem comment={thread.comment} now={now} onReply={() => startReply(thread.comment, thread.comment.id)} />
                  {thread.replies.length > 0 && (
                    <ol className="engagement-replies" aria-label={`Replies to ${thread.comment.author}`}>
                      {thread.replies.map((reply) => (
                        <li key={reply.id}>
                          <CommentItem comment={reply} now={now} onReply={() => startReply(reply, thread.comment.id)} />
                        </li>
                      ))}
                    </ol>
                  )}
                </li>
              ))}
            </ol>
          )}
        </div>
      )}

      <form
        className="engagement-composer"
        onSubmit={onSubmit}
        data-status={draft.status}
        data-replying={draft.replyTo ? '' : undefined}
        aria-describedby={draft.status === 'not-sent' ? statusId : undefined}
      >
        {draft.replyTo && (
          <div className="engagement-composer__reply">
            <span>
              Replying to <strong>{draft.replyTo.author}</strong>
            </span>
            <button
              type="button"
              className="engagement-icon-button ui-icon-button engagement-icon-button--small"
              aria-label="Cancel reply"
              onClick={() => dispatch({ type: 'reply-cancelled' })}
              disabled={isSending}
            >
              <CloseIcon />
            </button>
          </div>
        )}
        <label htmlFor={textareaId} className="visually-hidden">
          {draft.replyTo ? `Reply to ${draft.replyTo.author}` : 'Add a comment'}
        </label>
        <textarea
          ref={textarea}
          id={textareaId}
          className="engagement-composer__input"
          rows={2}
          maxLength={COMMENT_MAX_LENGTH}
          placeholder={draft.replyTo ? 'Write a reply…' : 'Add a comment…'}
          value={draft.text}
          readOnly={isSending}
          aria-invalid={draft.status === 'not-sent' || undefined}
          onChange={(event) => dispatch({ type: 'draft-changed', text: event.target.value })}
          onKeyDown={onKeyDown}
        />
        <div className="engagement-composer__footer">
          {draft.status === 'not-sent' ? (
            <p id={statusId} className="engagement-composer__not-sent" role="alert">
              <span className="engagement-composer__not-sent-mark">Not sent.</span>
              <button type="button" className="engagement-link-button" onClick={() => void send()}>
                Retry
              </button>
            </p>
          ) : (
            <span className="engagement-composer__hint">
              {visitorName && (
                <>
                  <span className="engagement-composer__as">
                    Commenting as <strong>{visitorName}</strong>
                  </span>
                  <span aria-hidden="true"> · </span>
                  <button type="button" className="engagement-link-button" onClick={onChangeName} aria-label={`Change your name (${visitorName})`}>
                    Change
                  </button>
                </>
              )}
            </span>
          )}
          <button type="submit" className="engagement-button engagement-button--primary" disabled={!canSubmit}>
            <SendIcon />
            <span>{isSending ? 'Sending…' : draft.replyTo ? 'Reply' : 'Post'}</span>
          </button>
        </div>
      </form>
    </section>
  );
}

function CommentItem({ comment, now, onReply }: { comment: TShownComment; now: number; onReply: () => void }) {
  const hasTime = comment.timestamp > 0;
  return (
    <article className="engagement-comment">
      <span className="engagement-avatar ui-tile" aria-hidden="true">
        {comment.avatar}
      </span>
      <div className="engagement-comment__body">
        <p className="engagement-comment__meta">
          <span className="engagement-comment__author">{comment.author}</span>
          {comment.isCreator && comment.author !== CREATOR_LABEL && <span className="engagement-comment__own engagement-comment__creator">{CREATOR_LABEL}</span>}
          {comment.isOwn && <span className="engagement-comment__own">You</span>}
          {hasTime && (
            <time dateTime={new Date(comment.timestamp).toISOString()} title={new Date(comment.timestamp).toLocaleString()}>
              {formatCommentTime(comment.timestamp, now)}
            </time>
          )}
        </p>
        <p className="engagement-comment__text">{comment.content}</p>
        <button type="button" className="engagement-link-button engagement-comment__reply" onClick={onReply} aria-label={`Reply to ${comment.author}`}>
          <ReplyIcon />
          Reply
        </button>
      </div>
    </article>
  );
}
