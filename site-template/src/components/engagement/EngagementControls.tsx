/**
 * Favourite, approval and comment controls for the file a viewer shows. Viewers render
 * this inside their own island, for the file in view, never one island per file.
 * Each control appears only when the project's setting for it is on. Every file type shows the
 * same buttons with the same words (Favourite, Approve, Request changes, Comments); the compact
 * variant only sits tighter on a viewer's toolbar.
 *
 * Favourite and approval change on screen only when the server answered OK (spec 4); their
 * state comes from one shared per-page store, so a returning visitor sees what they chose.
 * A visitor who has not named themselves is asked once (VisitorNameDialog) before their first
 * favourite, review or comment, which then completes without a second click.
 */
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, useSyncExternalStore, type CSSProperties, type JSX } from 'react';
import type { TPublicSiteSettings } from '@dropsite/shared';
import { CommentsPanel } from './CommentsPanel.tsx';
import { fetchVisitorEngagement, saveApproval, saveFavorite, type TApprovalStatus } from './engagement-api.ts';
import { ChangesIcon, CheckIcon, ChevronIcon, CloseIcon, CommentIcon, HeartIcon } from './icons.tsx';
import { EMPTY_VISITOR_SNAPSHOT, getVisitorStore, type TVisitorSnapshot, type TVisitorStore } from './visitor-store.ts';
import { VisitorNameDialog, readDeviceProfile } from './VisitorNameDialog.tsx';
import './engagement.css';

export interface TEngagementControlsProps {
  projectId: string;
  fileId: string;
  fileName: string;
  settings: TPublicSiteSettings;
  /** 'compact' for toolbars and overlays, 'full' for detail panels with the comment list. */
  variant?: 'compact' | 'full';
}

const ERROR_VISIBLE_MS = 6000;
/** The floating comments panel's width (24rem) and the room it wants before it opens upwards instead. */
const PANEL_WIDTH_PX = 384;
const PANEL_PREFERRED_HEIGHT_PX = 440;
const VIEWPORT_MARGIN_PX = 12;

interface TPanelPlacement {
  side: 'top' | 'bottom';
  align: 'start' | 'end';
  maxHeight: number;
}

/** Labels where a status is named; 'rejected' reads 'Changes Requested' (companion spec 4). */
export const APPROVAL_STATUS_LABELS: Record<TApprovalStatus, string> = {
  approved: 'Approved',
  rejected: 'Changes Requested',
  pending: 'Pending',
};

/**
 * `short` replaces `label` in narrow places; it is part of `label`, so the button's name still matches
 * what is seen. A pressed review button, pressed again, takes the review back (to pending).
 */
const APPROVAL_ACTIONS: { status: Exclude<TApprovalStatus, 'pending'>; label: string; short: string; Icon: () => JSX.Element }[] = [
  { status: 'approved', label: 'Approve', short: 'Approve', Icon: CheckIcon },
  { status: 'rejected', label: 'Request changes', short: 'Changes', Icon: ChangesIcon },
];

interface TNamePrompt {
  mode: 'first' | 'change';
  /** Told whether the visitor saved a name (true) or closed the prompt (false). */
  done: (isNamed: boolean) => void;
}

const noStore = () => () => {};
const PREVIEW_NOTE = 'Visitors can use this on the published site.';

/** The wizard's preview shows the page in its frame at /api/preview/frame: there is no project to engage with yet. */
function isDraftPreview(): boolean {
  return typeof location !== 'undefined' && (location.protocol === 'about:' || location.pathname.startsWith('/api/preview/'));
}

function useVisitorEngagement(projectId: string, isNeeded: boolean): { store: TVisitorStore | null; snapshot: TVisitorSnapshot } {
  // Never on the server: the builder renders many sites in one process and must keep no state.
  const store = typeof window === 'undefined' || isDraftPreview() ? null : getVisitorStore(projectId, fetchVisitorEngagement);
  const snapshot = useSyncExternalStore(store ? store.subscribe : noStore, store ? store.getSnapshot : () => EMPTY_VISITOR_SNAPSHOT, () => EMPTY_VISITOR_SNAPSHOT);
  useEffect(() => {
    if (isNeeded) void store?.ensureLoaded();
  }, [store, isNeeded]);
  return { store, snapshot };
}

export function EngagementControls({ projectId, fileId, fileName, settings, variant = 'full' }: TEngagementControlsProps) {
  // The state call also brings comment counts, so the comments button can show one before opening.
  const { store, snapshot } = useVisitorEngagement(projectId, settings.enableFavorites || settings.enableApprovals || settings.enableComments);
  const [busy, setBusy] = useState<'favorite' | TApprovalStatus | null>(null);
  const [error, setError] = useState('');
  const [isNotice, setNotice] = useState(false);
  const [message, setMessage] = useState('');
  const [isCommentsOpen, setCommentsOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const commentsButton = useRef<HTMLButtonElement>(null);
  const errorTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const [placement, setPlacement] = useState<TPanelPlacement | null>(null);
  const [namePrompt, setNamePrompt] = useState<TNamePrompt | null>(null);

  // A different file in view: its own comments.
  useEffect(() => {
    setCommentsOpen(false);
    setError('');
  }, [fileId]);

  useEffect(() => () => clearTimeout(errorTimer.current), []);

  const showError = (text: string, notice = false) => {
    clearTimeout(errorTimer.current);
    setError(text);
    setNotice(notice);
    errorTimer.current = setTimeout(() => setError(''), ERROR_VISIBLE_MS);
  };

  const announce = useCallback((text: string) => {
    // Cleared first so the same words twice are spoken twice.
    setMessage('');
    requestAnimationFrame(() => setMessage(text));
  }, []);

  const setCommentCount = useCallback((count: number) => store?.setCommentCount(fileId, count), [store, fileId]);
  // Counted at once, even when the visitor closed the panel before the server answered.
  const countPostedComment = useCallback(() => {
    if (!store) return;
    store.setCommentCount(fileId, (store.getSnapshot().commentCounts.get(fileId) ?? 0) + 1);
  }, [store, fileId]);

  /**
   * Resolves true once the visitor has a name: at once when they gave one, else after they give it
   * in the prompt (false when they close it). When their state cannot be read the action goes ahead
   * and the server names them as before.
   */
  const ensureNamed = useCallback(async (): Promise<boolean> => {
    if (!store) return true;
    if (store.getSnapshot().status !== 'ready') await store.ensureLoaded();
    const current = store.getSnapshot();
    if (current.status !== 'ready' || current.hasName) return true;
    return new Promise<boolean>((resolve) => setNamePrompt({ mode: 'first', done: resolve }));
  }, [store]);

  const changeName = useCallback(() => setNamePrompt({ mode: 'change', done: () => {} }), []);

  const closeComments = useCallback(() => {
    setCommentsOpen(false);
    commentsButton.current?.focus();
  }, []);

  // The compact panel floats: below the buttons when there is room, else above; never off screen.
  useLayoutEffect(() => {
    if (!isCommentsOpen || variant !== 'compact') return;
    const place = () => {
      const rect = root.current?.getBoundingClientRect();
      if (!rect) return;
      const below = window.innerHeight - rect.bottom - VIEWPORT_MARGIN_PX - 8;
      const above = rect.top - VIEWPORT_MARGIN_PX - 8;
      const side = below >= PANEL_PREFERRED_HEIGHT_PX || below >= above ? 'bottom' : 'top';
      const align = rect.right - PANEL_WIDTH_PX < VIEWPORT_MARGIN_PX ? 'start' : 'end';
      setPlacement({ side, align, maxHeight: Math.max(180, Math.min(544, side === 'bottom' ? below : above)) });
    };
    place();
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, [isCommentsOpen, variant]);

  // The compact panel floats over the viewer: Escape or a click elsewhere closes it.
  useEffect(() => {
    if (!isCommentsOpen || variant !== 'compact') return;
    // Captured on the document: the panel is the topmost layer, so Escape closes it and not the
    // viewer's dialog underneath (a prevented keydown makes no close request).
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      // A reply being written takes Escape first: it cancels the reply, not the panel; so does the name prompt.
      if ((event.target as Element | null)?.closest?.('[data-replying], [data-visitor-name]')) return;
      event.preventDefault();
      event.stopPropagation();
      closeComments();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setCommentsOpen(false);
    };
    document.addEventListener('keydown', onKeyDown, true);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown, true);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [isCommentsOpen, variant, closeComments]);

  if (!settings.enableFavorites && !settings.enableComments && !settings.enableApprovals) return null;

  const target = { projectId, fileId };
  const isFavorite = snapshot.favorites.has(fileId);
  const approval = snapshot.approvals.get(fileId) ?? 'pending';
  const isCompact = variant === 'compact';

  const toggleFavorite = async () => {
    if (!store) return showError(PREVIEW_NOTE, true);
    if (busy) return;
    // Taking a favourite back needs no name.
    if (!isFavorite && !(await ensureNamed())) return;
    const next = !store.getSnapshot().favorites.has(fileId);
    setBusy('favorite');
    try {
      const isNowFavorite = await saveFavorite(target, next);
      store.setFavorite(fileId, isNowFavorite);
      setError('');
      announce(isNowFavorite ? `${fileName} added to favourites` : `${fileName} removed from favourites`);
    } catch {
      showError(next ? 'Couldn’t add this to your favourites. Please try again.' : 'Couldn’t remove this from your favourites. Please try again.');
    } finally {
      setBusy(null);
    }
  };

  const chooseApproval = async (status: TApprovalStatus) => {
    if (!store) return showError(PREVIEW_NOTE, true);
    if (busy) return;
    // A pressed button toggles back to pending.
    const next = status === approval ? 'pending' : status;
    if (next !== 'pending' && !(await ensureNamed())) return;
    if (next === (store.getSnapshot().approvals.get(fileId) ?? 'pending')) return;
    setBusy(status);
    try {
      const stored = await saveApproval(target, next);
      store.setApproval(fileId, stored);
      setError('');
      announce(`${fileName}: ${APPROVAL_STATUS_LABELS[stored]}`);
    } catch {
      showError('Couldn’t save your review. Please try again.');
    } finally {
      setBusy(null);
    }
  };

  const commentCount = snapshot.commentCounts.get(fileId) ?? (snapshot.status === 'ready' ? 0 : null);
  const commentsLabel = commentCount === null ? 'Comments' : `Comments (${commentCount})`;

  const label = (long: string, short: string) =>
    short === long ? (
      <span className="engagement-toggle__label">{long}</span>
    ) : (
      <>
        <span className="engagement-toggle__label engagement-label--long">{long}</span>
        <span className="engagement-toggle__label engagement-label--short">{short}</span>
      </>
    );

  return (
    <div ref={root} className={`engagement engagement--${variant}`} role="group" aria-label={`Feedback on ${fileName}`} data-engagement="">
      <div className="engagement__bar">
        {settings.enableFavorites && (
          <button
            type="button"
            className="engagement-toggle engagement-toggle--favorite"
            aria-pressed={isFavorite}
            aria-busy={busy === 'favorite' || undefined}
            aria-disabled={busy !== null || undefined}
            aria-label="Favourite"
            title={isFavorite ? 'Remove from favourites' : 'Add to favourites'}
            onClick={() => void toggleFavorite()}
          >
            <HeartIcon filled={isFavorite} />
            {label(isFavorite ? 'Favourited' : 'Favourite', isFavorite ? 'Favourited' : 'Favourite')}
          </button>
        )}

        {settings.enableApprovals && (
          <div className="engagement-review" role="group" aria-label="Review">
            <div className="engagement-review__buttons">
              {APPROVAL_ACTIONS.map(({ status, label: long, short, Icon }) => (
                <button
                  key={status}
                  type="button"
                  className={`engagement-toggle engagement-toggle--${status}`}
                  aria-pressed={approval === status}
                  aria-busy={busy === status || undefined}
                  aria-disabled={busy !== null || undefined}
                  aria-label={long}
                  title={approval === status ? `${APPROVAL_STATUS_LABELS[status]} (select to undo)` : long}
                  onClick={() => void chooseApproval(status)}
                >
                  <Icon />
                  {label(approval === status && status === 'approved' ? 'Approved' : long, approval === status && status === 'approved' ? 'Approved' : short)}
                </button>
              ))}
            </div>
          </div>
        )}

        {settings.enableComments && (
          <button
            ref={commentsButton}
            type="button"
            className="engagement-toggle engagement-toggle--comments"
            aria-expanded={isCommentsOpen}
            aria-controls={isCommentsOpen ? panelId : undefined}
            title={commentsLabel}
            onClick={() => setCommentsOpen((open) => !open)}
          >
            <CommentIcon />
            {label(commentsLabel, commentsLabel)}
            {!isCompact && <ChevronIcon />}
          </button>
        )}
      </div>

      <p className="engagement__error" role="alert" data-tone={isNotice ? 'notice' : undefined}>
        {error}
      </p>
      <p className="visually-hidden" role="status" aria-live="polite">
        {message}
      </p>

      {settings.enableComments && isCommentsOpen && (
        <div
          className="engagement__panel"
          data-side={isCompact ? placement?.side : undefined}
          data-align={isCompact ? placement?.align : undefined}
          style={isCompact && placement ? ({ '--engagement-panel-max': `${placement.maxHeight}px` } as CSSProperties) : undefined}
        >
          {isCompact && (
            <div className="engagement__panel-header">
              <p className="engagement__panel-title">Comments</p>
              <button type="button" className="engagement-icon-button ui-icon-button" aria-label="Close comments" onClick={closeComments}>
                <CloseIcon />
              </button>
            </div>
          )}
          <CommentsPanel
            key={fileId}
            id={panelId}
            target={target}
            fileName={fileName}
            visitorName={snapshot.hasName ? snapshot.visitorName : ''}
            onChangeName={changeName}
            ensureNamed={ensureNamed}
            isPreview={!store}
            announce={announce}
            onCountChange={setCommentCount}
            onPosted={countPostedComment}
          />
        </div>
      )}

      {namePrompt && (
        <VisitorNameDialog
          mode={namePrompt.mode}
          initialName={snapshot.hasName ? snapshot.visitorName : readDeviceProfile().name}
          initialEmail={snapshot.hasName ? (snapshot.visitorEmail ?? '') : readDeviceProfile().email}
          onSaved={(profile) => {
            store?.setVisitor(profile);
            setNamePrompt(null);
            namePrompt.done(true);
            announce(`You appear as ${profile.name}`);
          }}
          onCancel={() => {
            setNamePrompt(null);
            namePrompt.done(false);
          }}
        />
      )}
    </div>
  );
}
