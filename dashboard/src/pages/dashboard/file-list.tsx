/**
 * The Files tab: each file with its thumbnail and counts, expandable to who favourited and reviewed
 * it (by the name they gave, with the address they chose to show), its comment threads (where the
 * creator replies), and the file's own analytics.
 */
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { COMMENT_MAX_CHARS } from '@dropsite/shared';
import { formatCommentTime } from '@dropsite/shared/browser/relative-time';
import { AlertIcon, CheckIcon, FileTypeIcon, FolderIcon, HeartIcon, MessageIcon, EyeIcon, ChevronDownIcon, PendingIcon, ReplyIcon } from '../../ui/icons.tsx';
import { postCreatorReply } from '../../dashboard-api/dashboard-api.ts';
import { describeFileType, formatBytes, type TDetailsComment, type TDetailsCommentReply, type TProjectFileDetails } from '@dropsite/shared';
import { AnalyticsPanel } from './analytics-panel.tsx';
import { approvalStateOf, commenterName, formatDate, type TApprovalTone } from './project-insights.ts';
import '../../ui/meta-line.css';

interface TFileListProps {
  projectId: string;
  files: readonly TProjectFileDetails[];
  revision: number;
  /** Replying to comments (`comments.reply`): null for a role that may only read them. */
  onReplied: (() => void) | null;
}

export function FileList({ projectId, files, revision, onReplied }: TFileListProps) {
  if (files.length === 0) return <p className="dash-muted">This site has no files.</p>;
  return (
    <ul role="list" className="dash-files">
      {files.map((file) => (
        <FileRow key={file.id} projectId={projectId} file={file} revision={revision} onReplied={onReplied} />
      ))}
    </ul>
  );
}

function FileRow({ projectId, file, revision, onReplied }: { projectId: string; file: TProjectFileDetails; revision: number; onReplied: (() => void) | null }) {
  const [isOpen, setOpen] = useState(false);
  const [isAnalyticsOpen, setAnalyticsOpen] = useState(false);
  const bodyId = useId();
  const counts = [
    { label: 'Favourites', value: file.totals.favorites, icon: <HeartIcon size={16} /> },
    { label: 'Comments', value: file.totals.comments, icon: <MessageIcon size={16} /> },
    { label: 'Views', value: file.analytics.views, icon: <EyeIcon size={16} /> },
  ];
  const approval = approvalStateOf(file.totals.approvals);
  /** Who approved the file or asked for changes. */
  const decided = file.approvals.filter((entry) => entry.status !== 'pending');

  return (
    <li className="dash-file">
      <button type="button" className="dash-file__summary" aria-expanded={isOpen} aria-controls={bodyId} onClick={() => setOpen((open) => !open)}>
        <span className="dash-file__thumb">
          {file.thumbnailUrl ? (
            <img src={file.thumbnailUrl} alt="" width={64} height={64} loading="lazy" decoding="async" />
          ) : (
            <FileTypeIcon name={file.name} type={file.type} size={22} />
          )}
        </span>
        <span className="dash-file__text">
          <span className="dash-file__title">
            <span className="dash-file__name">{file.name}</span>
            <span className="dash-approval-state" data-tone={approval.tone} data-testid="file-approval-state">
              <ApprovalStateIcon tone={approval.tone} />
              {approval.label}
            </span>
          </span>
          <span className="dash-file__meta">
            {file.group && (
              <>
                <span className="dash-file__group" data-testid="file-group">
                  <FolderIcon size={12} />
                  <span className="visually-hidden">Folder </span>
                  {file.group}
                </span>
                {' · '}
              </>
            )}
            {describeFileType(file.name, file.type)} · {formatBytes(file.size)} · uploaded {formatDate(file.uploadedAt)}
          </span>
          <span className="dash-counts dash-counts--compact">
            {counts.map((count) => (
              <span key={count.label} className="dash-counts__item">
                {count.icon}
                <span className="dash-counts__value">{count.value.toLocaleString('en')}</span>
                <span className="dash-counts__label">{count.label}</span>
              </span>
            ))}
          </span>
        </span>
        <ChevronDownIcon size={18} className="dash-chevron" data-open={isOpen ? '' : undefined} />
      </button>
      <div id={bodyId} className="dash-file__body" hidden={!isOpen}>
        {isOpen && (
          <>
            <DetailSection label={`Favourites of ${file.name}`} heading="Favourites" emptyText={file.favorites.length === 0 ? 'No favourites yet.' : null}>
              <ul role="list" className="dash-people">
                {file.favorites.map((favorite) => (
                  <li key={favorite.id} className="dash-people__item">
                    <HeartIcon size={14} />
                    <VisitorName entry={favorite} />
                    <EntryTime at={favorite.createdAt} />
                  </li>
                ))}
              </ul>
            </DetailSection>
            <DetailSection
              label={`Approvals of ${file.name}`}
              heading="Approvals"
              emptyText={decided.length === 0 ? 'No one has approved this file or asked for changes yet.' : null}
            >
              <ul role="list" className="dash-people">
                {decided.map((entry) => (
                  <li key={entry.id} className="dash-people__item">
                    <ApprovalStateIcon tone={entry.status} />
                    <span>
                      <VisitorName entry={{ userName: entry.userName, userEmail: entry.userEmail ?? '' }} />: {entry.status === 'approved' ? 'Approved' : 'Changes requested'}
                    </span>
                    <EntryTime at={entry.createdAt} />
                  </li>
                ))}
              </ul>
            </DetailSection>
            <DetailSection label={`Comments on ${file.name}`} heading="Comments" emptyText={file.comments.length === 0 ? 'No comments yet.' : null}>
              <ol role="list" className="dash-thread-list">
                {file.comments.map((comment) => (
                  <CommentThread key={comment.id} projectId={projectId} comment={comment} onReplied={onReplied} />
                ))}
              </ol>
            </DetailSection>
            <div className="dash-file__section">
              <button type="button" className="dash-link-button" aria-expanded={isAnalyticsOpen} onClick={() => setAnalyticsOpen((open) => !open)}>
                {isAnalyticsOpen ? 'Hide file analytics' : 'Show file analytics'}
              </button>
              {isAnalyticsOpen && <AnalyticsPanel projectId={projectId} fileId={file.id} revision={revision} heading={`Analytics of ${file.name}`} />}
            </div>
          </>
        )}
      </div>
    </li>
  );
}

/** One part of an open file: its heading, then its list, or `emptyText` while it has nothing. */
function DetailSection({ label, heading, emptyText, children }: { label: string; heading: string; emptyText: string | null; children: ReactNode }) {
  return (
    <section className="dash-file__section" aria-label={label}>
      <h3 className="dash-file__heading">{heading}</h3>
      {emptyText === null ? children : <p className="dash-muted">{emptyText}</p>}
    </section>
  );
}

/** When a visitor did something, as the comment threads say it. */
function EntryTime({ at }: { at: string }) {
  return <time dateTime={at}>{formatCommentTime(Date.parse(at), Date.now())}</time>;
}

/** As the visitor's site and the analytics panel name them. */

/** A visitor by the name they gave, and the address they chose to show (a mail link) when they gave one. Both are shown as text. */
function VisitorName({ entry, nameClass = '' }: { entry: Pick<TDetailsCommentReply, 'userName' | 'userEmail'>; nameClass?: string }) {
  const email = entry.userEmail.trim();
  return (
    <span className="dash-visitor">
      <span className={`dash-visitor__name ${nameClass}`.trim()}>{commenterName(entry)}</span>
      {email && (
        <a className="dash-visitor__email" href={`mailto:${encodeURIComponent(email)}`}>
          {email}
        </a>
      )}
    </span>
  );
}

function CommentBody({ comment }: { comment: Omit<TDetailsCommentReply, 'replies'> }) {
  return (
    <div className="dash-comment" data-creator={comment.isCreator ? '' : undefined}>
      <p className="meta-line">
        {comment.isCreator ? <span className="dash-comment__author">You</span> : <VisitorName entry={comment} nameClass="dash-comment__author" />}
        {comment.isCreator && <span className="dash-badge">Creator</span>}
        <EntryTime at={comment.createdAt} />
      </p>
      <p className="dash-comment__text">{comment.commentText}</p>
    </div>
  );
}

function CommentThread({ projectId, comment, onReplied }: { projectId: string; comment: TDetailsComment; onReplied: (() => void) | null }) {
  return (
    <li className="dash-thread">
      <CommentBody comment={comment} />
      {comment.replies.length > 0 && (
        <ol role="list" className="dash-thread__replies">
          {comment.replies.map((reply) => (
            <li key={reply.id}>
              <CommentBody comment={reply} />
            </li>
          ))}
        </ol>
      )}
      {onReplied && <ReplyBox projectId={projectId} commentId={comment.id} author={comment.isCreator ? 'yourself' : commenterName(comment)} onReplied={onReplied} />}
    </li>
  );
}

function ReplyBox({ projectId, commentId, author, onReplied }: { projectId: string; commentId: string; author: string; onReplied: () => void }) {
  const [isOpen, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [isSending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fieldId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = text.trim();
    if (!trimmed) return;
    setSending(true);
    setError(null);
    try {
      await postCreatorReply({ projectId, commentId, text: trimmed });
      setText('');
      setOpen(false);
      onReplied();
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Your reply could not be posted.');
    } finally {
      setSending(false);
    }
  };

  if (!isOpen) {
    return (
      <button type="button" className="dash-link-button dash-thread__reply" onClick={() => setOpen(true)}>
        <ReplyIcon size={16} />
        Reply
      </button>
    );
  }
  return (
    <form className="dash-reply" onSubmit={submit}>
      <label htmlFor={fieldId} className="dash-reply__label">
        Reply to {author}
      </label>
      <textarea id={fieldId} className="dash-reply__field" rows={3} maxLength={COMMENT_MAX_CHARS} value={text} onChange={(event) => setText(event.target.value)} autoFocus />
      {error && (
        <p className="dash-reply__error" role="alert">
          {error}
        </p>
      )}
      <div className="dash-reply__actions">
        <button type="submit" className="button button--primary" disabled={isSending || !text.trim()}>
          {isSending ? 'Posting…' : 'Post reply'}
        </button>
        <button type="button" className="button button--secondary" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
      <p className="dash-muted dash-reply__hint">Visitors see it on the site as the creator’s reply.</p>
    </form>
  );
}

function ApprovalStateIcon({ tone }: { tone: TApprovalTone }) {
  if (tone === 'approved') return <CheckIcon size={14} />;
  if (tone === 'rejected') return <AlertIcon size={14} />;
  return <PendingIcon size={14} />;
}
